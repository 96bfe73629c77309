"""Per-item costs and the on-paper PubMed plan, derived from a benchmarks/scale.py JSON (every figure in the
tables is either measured in that run or a labelled assumption; the arithmetic is printed beside each result).

Run:  .venv/bin/python benchmarks/scale_plan.py /tmp/scale_400k.json [--abstracts 36e6] [--sentences 250e6]
      [--cores 64,256] [--gpus 8]
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

# Labelled estimates (not measured here). all-MiniLM-L6-v2 on one data-centre GPU (A100/V100 class, fp16,
# batch 128+): the sentence-transformers model card's ~14k sentences/s for short sentences; passages of ~170
# tokens are ~5x the tokens of a sentence, so ~3k passages/s.
GPU_SENTENCES_PER_S, GPU_PASSAGES_PER_S = 14_000, 3_000
HALFVEC_SAVING = 384 * 2  # bytes saved per vector when float32 -> float16 (pgvector >= 0.7 halfvec)


def gb(b: float) -> str:
    return f"{b / 1e9:,.0f} GB" if b >= 10e9 else f"{b / 1e9:,.1f} GB"


def hours(s: float) -> str:
    return f"{s / 3600:,.1f} h" if s < 48 * 3600 else f"{s / 86400:,.1f} days"


def _best(rows: list[dict], engine: str, recall: float = 0.95) -> dict | None:
    ok = [r for r in rows if r["engine"] == engine and r.get("ef") and r["recall"] >= recall]
    return min(ok, key=lambda r: r["p50_ms"]) if ok else None


def per_item(out: dict) -> dict:
    """The measured per-item costs the plan multiplies."""
    e, ab, cores = out["embedding"], out["abstracts"], out["args"]["cpus"]
    ps, rs = out["pg_sizes"], out["real"]["pg_sizes"]
    return {
        "faiss_hnsw_B": out["faiss_build"]["bytes_per_vector"],
        "pg_row_B": ps["table_bytes_per_row"],  # id, year, org, vector(384): heap incl. tuple headers
        "pg_hnsw_B": out["pg_build"]["bytes_per_vector"],
        "pg_btree_B": round(sum(v for k, v in ps["indexes_bytes"].items() if not k.endswith("_hnsw")) / ps["rows"], 1),
        "pg_text_row_extra_B": round(rs["table_bytes_per_row"] - ps["table_bytes_per_row"], 1),
        "text_column_B": rs.get("text_column_bytes"),
        "faiss_build_s_100k": out["faiss_build"]["build_s_per_100k"],
        "pg_build_s_100k": out["pg_build"]["build_s_per_100k"],
        "copy_rows_s": out["pg_load"]["copy_rows_per_s"],
        "passages_s_core": (e["single_process_passages"] or e["single_process"])["texts_per_s_per_core"],
        "short_s_core": (e["single_process_short"] or e["single_process"])["texts_per_s_per_core"],
        "ray_s_core": e["ray"]["texts_per_s_per_core"], "single_s_core": e["single_process"]["texts_per_s_per_core"],
        "nli_directed_s_core": round(ab["nli"]["directed_scores_per_s"] / cores, 1),
        "sentences_per_abstract": ab["sentences_per_abstract"], "passages_per_abstract": ab["passages_per_abstract"],
        "pairs_per_doc": ab["candidate_pairs_per_document"], "pair_B": ab["stored_bytes_per_pair"],
        "chars_per_abstract": ab["chars_per_abstract"], "cores": cores, "n": out["synthetic"]["n"],
        "pg_best": _best(out["queries"], "pgvector"), "faiss_best": _best(out["queries"], "faiss"),
    }


def per_item_table(out: dict) -> str:
    c = per_item(out)
    e = out["embedding"]
    rows = [
        ("FAISS HNSW (M 16), bytes per vector", f"{c['faiss_hnsw_B']:,.0f}", "serialized index / vectors"),
        ("Postgres heap row (id, year, org, vector(384))", f"{c['pg_row_B']:,.0f}", "pg_table_size / rows"),
        ("pgvector HNSW (m 16), bytes per vector", f"{c['pg_hnsw_B']:,.0f}", "pg_relation_size / rows"),
        ("Postgres btree indexes (id, year, org) per row", f"{c['pg_btree_B']:,.0f}", "sum pg_relation_size / rows"),
        ("text column per passage (real passages)", f"{c['text_column_B']:,.0f}", "avg pg_column_size(text)"),
        ("FAISS HNSW build, s per 100k vectors", f"{c['faiss_build_s_100k']}", f"{c['cores']} threads, {c['n']:,}"),
        ("pgvector HNSW build, s per 100k vectors", f"{c['pg_build_s_100k']}",
         f"leader + {out['pg_build']['parallel_maintenance_workers']} worker, {c['n']:,}"),
        ("COPY (binary), rows/s", f"{c['copy_rows_s']:,}", "one client"),
        ("embedding, passages >= 60 words, texts/s per core", f"{c['passages_s_core']}",
         f"single process, {e['single_process_passages']['texts'] if e['single_process_passages'] else '-'} texts"),
        ("embedding, texts < 40 words, texts/s per core", f"{c['short_s_core']}", "single process"),
        ("embedding, mixed texts: single process vs Ray, texts/s per core",
         f"{c['single_s_core']} vs {c['ray_s_core']}", f"{e['texts']:,} texts, Ray start excluded"),
        ("embedding on a GPU (ESTIMATE, not measured)", f"~{GPU_PASSAGES_PER_S:,} passages/s, "
         f"~{GPU_SENTENCES_PER_S:,} sentences/s", "one A100/V100-class GPU, fp16"),
        ("NLI cross-encoder (ONNX), directed pair scores/s per core", f"{c['nli_directed_s_core']}", "2 threads / 2"),
        ("PubMedQA abstract: sentences / 120-word passages", f"{c['sentences_per_abstract']} / "
         f"{c['passages_per_abstract']}", f"{out['abstracts']['abstracts']} abstracts"),
        ("contradiction candidate pairs per document", f"{c['pairs_per_doc']}",
         f"10 nearest docs, cosine >= {out['abstracts']['pair_threshold']}, among {out['abstracts']['abstracts']}"),
    ]
    head = "| per-item cost (measured) | value | how |\n| --- | --- | --- |\n"
    return head + "\n".join(f"| {a} | {b} | {h} |" for a, b, h in rows)


def plan_table(out: dict, abstracts: float = 36e6, sentences: float = 250e6, cores: tuple = (64, 256),
               gpus: int = 8, shards: int = 4) -> str:
    c = per_item(out)
    n0 = c["n"]
    P = abstracts * c["passages_per_abstract"]
    S = sentences
    logf = math.log(P) / math.log(n0)
    rows = []

    def row(item, arithmetic, result):
        rows.append(f"| {item} | {arithmetic} | {result} |")

    row("passages (120-word chunks)", f"{abstracts / 1e6:.0f} M abstracts x {c['passages_per_abstract']} "
        "(PubMedQA abstracts, longer than the PubMed mean: an upper figure)", f"{P / 1e6:,.0f} M")
    row("passage rows, fp32 vector (heap)", f"{P / 1e6:,.0f} M x {c['pg_row_B']:,.0f} B", gb(P * c["pg_row_B"]))
    row("passage HNSW, pgvector fp32", f"{P / 1e6:,.0f} M x {c['pg_hnsw_B']:,.0f} B", gb(P * c["pg_hnsw_B"]))
    tx = c["pg_text_row_extra_B"]
    row("passage text (in the row)", f"{P / 1e6:,.0f} M x {tx:,.0f} B (heap growth per row with the text column; "
        f"the text itself {c['text_column_B']:,.0f} B)", gb(P * tx))
    row("btree indexes (id, year, org)", f"{P / 1e6:,.0f} M x {c['pg_btree_B']:,.0f} B", gb(P * c["pg_btree_B"]))
    pass_total = P * (c["pg_row_B"] + c["pg_hnsw_B"] + tx + c["pg_btree_B"])
    row("**passage level, plain pgvector: disk**", "sum of the four rows above", f"**{gb(pass_total)}**")
    hv = (c["pg_row_B"] - HALFVEC_SAVING, c["pg_hnsw_B"] - HALFVEC_SAVING)
    row("passage level, halfvec (pgvector >= 0.7; ESTIMATE: 768 B less per stored vector)",
        f"{P / 1e6:,.0f} M x ({hv[0]:,.0f} + {hv[1]:,.0f} + {tx:,.0f} + {c['pg_btree_B']:,.0f}) B",
        gb(P * (hv[0] + hv[1] + tx + c["pg_btree_B"])))
    sent_chars = c["chars_per_abstract"] / c["sentences_per_abstract"]
    row("sentence vectors, fp32, no index (fetched by passage id)", f"{S / 1e6:,.0f} M x {c['pg_row_B']:,.0f} B",
        gb(S * c["pg_row_B"]))
    row("sentence text", f"{S / 1e6:,.0f} M x {sent_chars:,.0f} chars", gb(S * sent_chars))
    row("sentence-level HNSW (only if sentences are searched)", f"{S / 1e6:,.0f} M x {c['pg_hnsw_B']:,.0f} B",
        gb(S * c["pg_hnsw_B"]))
    row("RAM to keep the passage HNSW hot (fp32 / halfvec)", "= its size (queries walk the index pages)",
        f"{gb(P * c['pg_hnsw_B'])} / {gb(P * hv[1])}")
    row(f"sharded alternative: {shards} PostgreSQL nodes (hash of pmid), fp32, per node: disk / HNSW RAM",
        f"{gb(pass_total)} / {shards}; {gb(P * c['pg_hnsw_B'])} / {shards}",
        f"{gb(pass_total / shards)} / {gb(P * c['pg_hnsw_B'] / shards)}; a query asks every node, merges top-k")
    eff = c["ray_s_core"] / c["single_s_core"]  # Ray's measured per-core rate relative to one process
    for n in cores:
        row(f"embed passages + sentences, {n} CPU cores on Ray",
            f"({P / 1e6:,.0f} M / {c['passages_s_core']} + {S / 1e6:,.0f} M / {c['short_s_core']}) / {n} / {eff:.2f} "
            "(Ray/single per-core ratio) s", hours((P / c["passages_s_core"] + S / c["short_s_core"]) / n / eff))
    row(f"embed passages + sentences, {gpus} GPUs (ESTIMATE)",
        f"({P / 1e6:,.0f} M / {GPU_PASSAGES_PER_S:,} + {S / 1e6:,.0f} M / {GPU_SENTENCES_PER_S:,}) / {gpus} s",
        hours((P / GPU_PASSAGES_PER_S + S / GPU_SENTENCES_PER_S) / gpus))
    b2 = c["pg_build_s_100k"] * P / 1e5 * logf
    row("pgvector HNSW build, one index, measured 2 cores",
        f"{c['pg_build_s_100k']} s x {P / 1e5:,.0f} (100k) x {logf:.2f} (log {P / 1e6:.0f}M / log {n0 / 1e3:.0f}k)",
        hours(b2))
    big = cores[0]
    row(f"pgvector HNSW build, one {big}-core machine (linear scaling ASSUMED; maintenance_work_mem >= index "
        "size, else the slow on-disk phase)", f"{hours(b2)} x 2 / {big}", hours(b2 * 2 / big))
    per_shard = c["pg_build_s_100k"] * P / shards / 1e5 * math.log(P / shards) / math.log(n0)
    row(f"pgvector HNSW build, {shards} shard nodes x {big} cores in parallel (same assumption)",
        f"{c['pg_build_s_100k']} s x {P / shards / 1e5:,.0f} (100k) x {math.log(P / shards) / math.log(n0):.2f} "
        f"x 2 / {big}", hours(per_shard * 2 / big))
    row("COPY of the passage rows, one client", f"{P / 1e6:,.0f} M / {c['copy_rows_s']:,} rows/s",
        hours(P / c["copy_rows_s"]))
    ok = [r for r in out["queries"] if r["engine"] == "pgvector" and r.get("ef") and r["recall"] >= 0.97]
    pg = min(ok, key=lambda r: r["p50_ms"]) if ok else c["pg_best"]
    if pg:
        row("query p50, HNSW hot in RAM (extrapolated: hops grow ~log n)",
            f"{pg['p50_ms']} ms (cheapest ef with recall >= 0.97 at {n0 / 1e3:.0f}k: ef {pg['ef']}, "
            f"recall {pg['recall']}) x {logf:.2f}",
            f"~{pg['p50_ms'] * logf:.1f} ms; a higher ef may be needed to keep recall at {P / 1e6:.0f} M")
    pairs_lo = abstracts * c["pairs_per_doc"]
    row("contradiction pairs, measured density (lower bound)",
        f"{abstracts / 1e6:.0f} M docs x {c['pairs_per_doc']} pairs x {c['pair_B']} B",
        f"{pairs_lo / 1e6:,.0f} M pairs, {gb(pairs_lo * c['pair_B'])}")
    spa = S / abstracts
    pairs_hi = abstracts * 10 / 2 * spa * spa
    row("contradiction pairs, every sentence pair of neighbouring docs (upper bound)",
        f"{abstracts / 1e6:.0f} M x 10 neighbours / 2 x {spa:.1f}^2 sentences x {c['pair_B']} B",
        f"{pairs_hi / 1e9:,.1f} G pairs, {gb(pairs_hi * c['pair_B'])}")
    for n in cores:
        row(f"scoring the lower-bound pairs (both directions), {n} cores",
            f"{pairs_lo / 1e6:,.0f} M x 2 / ({c['nli_directed_s_core']} x {n}) s",
            hours(pairs_lo * 2 / (c["nli_directed_s_core"] * n)))
    n = cores[-1]
    row(f"scoring the upper-bound pairs (both directions), {n} cores", f"{pairs_hi / 1e9:,.1f} G x 2 / "
        f"({c['nli_directed_s_core']} x {n}) s", hours(pairs_hi * 2 / (c["nli_directed_s_core"] * n)))
    return "| item | arithmetic (measured inputs) | result |\n| --- | --- | --- |\n" + "\n".join(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description="Per-item costs and the PubMed plan from a scale.py JSON")
    p.add_argument("json", type=Path)
    p.add_argument("--abstracts", type=float, default=36e6)
    p.add_argument("--sentences", type=float, default=250e6)
    p.add_argument("--cores", default="64,256")
    p.add_argument("--gpus", type=int, default=8)
    a = p.parse_args(argv)
    out = json.loads(a.json.read_text())
    print(per_item_table(out) + "\n")
    print(plan_table(out, a.abstracts, a.sentences, tuple(int(v) for v in a.cores.split(",")), a.gpus))


if __name__ == "__main__":
    main()
