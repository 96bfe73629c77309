"""Scale benchmarks (issue 15): FAISS HNSW vs PostgreSQL + pgvector HNSW, filtered search, real MiniLM vectors,
embedding single-process vs Ray, and the per-item costs that docs/scale.md's PubMed plan is derived from.

1. ``--n`` (400k) synthetic PubMed-like passages (benchmarks/scale_data.py: a fitted Gaussian mixture of unit
   384-d vectors, year and journal metadata): build time and size of FAISS HNSW (M 16, efConstruction 200, as
   tools/index/store.py) and of pgvector HNSW (same m / ef_construction, binary COPY, a pgserver PostgreSQL 16);
   query p50/p95 and recall@10 against numpy brute force on ``--queries`` held-out vectors, FAISS flat (exact),
   FAISS HNSW and pgvector HNSW at each ``--ef``. Goal reported against: pgvector p50 <= 5 ms at recall >= 0.95.
2. Filtered queries (a year range, one journal ~5 %, one ~1 %, year range AND journal): recall@10 vs the exact
   filtered top-10 and latency of each strategy on both engines (benchmarks/scale_pg.py, scale_faiss.py).
3. ``--real-n`` (50k) real passages from the data directory (MedQuAD answers chunked, PubMedQA abstracts,
   BioASQ snippets) embedded with clinrag's encoder: single process vs Ray (``ray_build.ray_embed``, local Ray,
   ``--cpus`` actors) on the first ``--embed-compare-n`` texts in the same run; recall/latency of both engines on
   these vectors with real questions as queries; per-abstract figures for the plan (benchmarks/scale_real.py).
4. Per-item costs (bytes per vector, build seconds per 100k, texts/s per core) and the on-paper PubMed plan
   (benchmarks/scale_plan.py, also runnable on a saved JSON).

5. ``--worker-rss``: the RSS of one ``clinrag serve --workers 1`` worker answering questions on a ``--rss-n``
   (400k) passage synthetic PubMed-like corpus, with the embedded (FAISS) store and with the PostgreSQL store, side
   by side (benchmarks/scale_workers.py, scale_corpus.py). Goal reported against: Postgres worker >= 3x smaller.
6. ``--concurrency``: 50 concurrent clients x ``--per-client`` questions through ``clinrag serve --workers 1`` and
   ``--workers 2`` on the built-in corpus in PostgreSQL: throughput, p50/p95, errors (goal 0).
   Parts 5 and 6 keep their corpus, index and database in ``--workers-dir`` between runs; ``--skip-vectors`` runs
   them without parts 1-3.

Run:  .venv/bin/python benchmarks/scale.py [--quick] [--json-out PATH]   (--quick: small sizes, < 2 minutes)
      .venv/bin/python benchmarks/scale.py --skip-vectors --worker-rss --concurrency   (parts 5 and 6)
Timings are wall-clock on whatever else the machine is running: the load average is recorded before and after.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_data import Synthetic, exact_topk, load_average, real_passages, vector_stats  # noqa: E402

GOAL_P50_MS, GOAL_RECALL = 5.0, 0.95
GOAL_RSS_RATIO = 3.0  # the FAISS worker's RSS over the Postgres worker's, at 400k passages


def worker_parts(a, out: dict):
    """Parts 5 and 6 (benchmarks/scale_workers.py): worker RSS per store, 50 clients through 1 and 2 workers."""
    import scale_workers

    setup = scale_workers.WorkerSetup(a.workers_dir / f"n{a.rss_n}", a.rss_n, a.seed, a.rss_maintenance_work_mem)
    setup.start()
    try:
        out["workers_postgres"] = setup.postgres_info
        if a.worker_rss:
            step(f"5. worker RSS: {a.rss_n:,} synthetic passages, clinrag serve --workers 1, FAISS vs Postgres")
            out["worker_rss_corpus"] = setup.synthetic()
            out["worker_rss"] = [scale_workers.measure_worker_rss(setup, b) for b in ("faiss", "postgres")]
        if a.concurrency:
            step(f"6. {a.clients} concurrent clients x {a.per_client}, clinrag serve --workers 1 and 2, Postgres")
            out["concurrency_corpus"] = setup.guidelines()
            out["concurrency"] = [scale_workers.measure_concurrency(setup, w, a.clients, a.per_client)
                                  for w in (1, 2)]
    finally:
        setup.stop()


def report_workers(out: dict):
    rows = out.get("worker_rss")
    if rows:
        c = out["worker_rss_corpus"]["build"]["corpus"]
        print(f"\nWorker RSS, synthetic corpus: {c['documents']:,} documents, {c['passages']:,} passages, "
              f"{c['sentences']:,} sentences (clinrag serve --workers 1, after {rows[0]['questions']} questions)")
        print(table(rows, ["backend", "ready_s", "rss_ready_mib", "rss_after_questions_mib", "peak_rss_mib",
                           "decisions"]))
        if any("error" in r for r in rows):
            print(f"  errors: {[r.get('error') for r in rows]}")
        else:
            ratio = rows[0]["rss_after_questions_mib"] / rows[1]["rss_after_questions_mib"]
            out["worker_rss_goal"] = {"ratio": round(ratio, 2), "goal": GOAL_RSS_RATIO, "met": ratio >= GOAL_RSS_RATIO}
            print(f"  FAISS / Postgres worker RSS: {ratio:.1f}x (goal >= {GOAL_RSS_RATIO:.0f}x: "
                  f"{'MET' if ratio >= GOAL_RSS_RATIO else 'MISSED'})")
    rows = out.get("concurrency")
    if rows:
        print("\nConcurrency on the Postgres store (built-in corpus), clinrag serve --workers N:")
        print(table(rows, ["workers", "clients", "requests", "errors", "throughput_rps", "p50_s", "p95_s", "wall_s",
                           "worker_rss_mib"]))
        for r in rows:
            if r["first_errors"]:
                print(f"  workers {r['workers']}: first errors {r['first_errors']}")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=400_000, help="synthetic passages (default 400,000)")
    p.add_argument("--queries", type=int, default=200, help="held-out query vectors (default 200)")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--clusters", type=int, default=4000, help="mixture clusters (default 4,000)")
    p.add_argument("--ef", default="40,100,200", help="efSearch / hnsw.ef_search values (default 40,100,200)")
    p.add_argument("--filter-ef", default="40,200,1000", help="ef values for filtered queries (pgvector max 1000)")
    p.add_argument("--real-n", type=int, default=50_000, help="real passages to embed (default 50,000; 0: skip)")
    p.add_argument("--embed-compare-n", type=int, default=3000, help="texts embedded both ways (default 3,000)")
    p.add_argument("--real-queries", type=int, default=200)
    p.add_argument("--abstracts", type=int, default=1000, help="PubMedQA abstracts for the per-abstract figures")
    p.add_argument("--cpus", type=int, default=2, help="Ray actors / cores counted per core (default 2)")
    p.add_argument("--maintenance-work-mem", default="3GB")
    p.add_argument("--pg-workers", type=int, default=1, help="max_parallel_maintenance_workers (default 1)")
    p.add_argument("--shared-buffers", default="2GB")
    p.add_argument("--database-url", help="an existing PostgreSQL with pgvector (default: a throwaway pgserver)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="small sizes (20k synthetic, 1k real): under 2 minutes")
    p.add_argument("--skip-vectors", action="store_true", help="skip parts 1-3 (vector indexes, real vectors)")
    p.add_argument("--worker-rss", action="store_true", help="part 5: worker RSS per corpus store")
    p.add_argument("--rss-n", type=int, default=400_000, help="passages of the worker-RSS corpus (default 400,000)")
    p.add_argument("--rss-maintenance-work-mem", default="4GB", help="for loading that corpus's HNSW indexes")
    p.add_argument("--concurrency", action="store_true", help="part 6: concurrent clients through 1 and 2 workers")
    p.add_argument("--clients", type=int, default=50)
    p.add_argument("--per-client", type=int, default=20, help="questions per client (default 20)")
    p.add_argument("--workers-dir", type=Path, default=Path("/tmp/clinrag-scale-workers"),
                   help="corpus, index root and database of parts 5 and 6, kept between runs")
    p.add_argument("--json-out", type=Path)
    a = p.parse_args(argv)
    if a.quick:
        a.n, a.queries, a.clusters, a.real_n, a.embed_compare_n = 20_000, 50, 400, 1000, 200
        a.real_queries, a.abstracts = 50, 40
    a.ef, a.filter_ef = [int(v) for v in a.ef.split(",")], [int(v) for v in a.filter_ef.split(",")]
    return a


def table(rows: list[dict], cols: list[str]) -> str:
    cells = [[("" if r.get(c) is None else str(r.get(c))) for c in cols] for r in rows]
    widths = [max(len(c), *(len(x[i]) for x in cells)) if cells else len(c) for i, c in enumerate(cols)]
    lines = ["  " + "  ".join(c.ljust(w) for c, w in zip(cols, widths))]
    lines += ["  " + "  ".join(x.ljust(w) for x, w in zip(row, widths)) for row in cells]
    return "\n".join(lines)


def step(title: str):
    print(f"\n== {title} ({time.strftime('%H:%M:%S')})", flush=True)


def synthetic_part(a, url: str, out: dict):
    import faiss
    import scale_faiss
    import scale_pg

    step(f"1. synthetic: {a.n:,} passages + {a.queries} held-out queries, {a.clusters:,} clusters")
    mix = Synthetic(a.clusters, a.seed)
    rng = np.random.default_rng(a.seed + 1)
    t0 = time.perf_counter()
    x, year, org = mix.draw(a.n, rng)
    q, _, _ = mix.draw(a.queries, rng)
    print(f"  generated in {time.perf_counter() - t0:.1f}s")
    out["synthetic"] = {"n": a.n, "queries": a.queries, "clusters": a.clusters, "vector_stats": vector_stats(x)}
    truth = exact_topk(x, q, a.k)
    shares = np.bincount(org, minlength=org.max() + 1) / a.n
    org5, org1 = int(np.argmin(np.abs(shares - 0.05))), int(np.argmin(np.abs(shares - 0.01)))
    filters = {
        "year 2015-2020": ("year BETWEEN 2015 AND 2020", (year >= 2015) & (year <= 2020)),
        f"org {org5} (~5%)": (f"org = {org5}", org == org5),
        f"org {org1} (~1%)": (f"org = {org1}", org == org1),
        f"year 2015-2020 AND org {org5}": (f"year BETWEEN 2015 AND 2020 AND org = {org5}",
                                           (year >= 2015) & (year <= 2020) & (org == org5)),
    }
    ftruth = {name: exact_topk(x, q, a.k, mask) for name, (_, mask) in filters.items()}
    out["filters"] = {name: {"where": w, "share": round(float(m.mean()), 4)} for name, (w, m) in filters.items()}

    step("1a. FAISS: HNSW build, flat + HNSW queries, filtered")
    hnsw, out["faiss_build"] = scale_faiss.build_hnsw(x)
    print(f"  HNSW build {out['faiss_build']['build_s']}s, {out['faiss_build']['size_bytes'] / 2**20:.0f} MiB")
    flat = faiss.IndexFlatIP(x.shape[1])
    flat.add(x)
    out["queries"] = scale_faiss.query_sweep(hnsw, flat, q, truth, a.ef)
    out["filtered"] = []
    for name, (_, mask) in filters.items():
        for row in scale_faiss.filtered(hnsw, flat, q, ftruth[name], mask, a.filter_ef):
            out["filtered"].append({"filter": name, **row})
    del hnsw, flat

    step("1b. pgvector: COPY, HNSW build, queries, filtered")
    out["pg_load"] = scale_pg.load(url, "items", x, year, org)
    print(f"  COPY {out['pg_load']['copy_s']}s; building HNSW (maintenance_work_mem {a.maintenance_work_mem}, "
          f"{a.pg_workers} parallel worker(s))", flush=True)
    out["pg_build"] = scale_pg.build_hnsw(url, "items", a.maintenance_work_mem, a.pg_workers)
    print(f"  HNSW build {out['pg_build']['build_s']}s, {out['pg_build']['size_bytes'] / 2**20:.0f} MiB; "
          f"notices: {out['pg_build']['notices']}")
    out["pg_sizes"] = scale_pg.sizes(url, "items")
    s = scale_pg.Searcher(url, "items")
    try:
        out["queries"] += s.sweep(q, truth, a.ef)
        for name, (where, mask) in filters.items():
            for row in s.filtered(q, ftruth[name], where, a.filter_ef):
                out["filtered"].append({"filter": name, **row})
        name = f"org {org1} (~1%)"
        where = filters[name][0]
        out["pg_partial_build"] = scale_pg.build_hnsw(url, "items", a.maintenance_work_mem, a.pg_workers,
                                                      where=where, name="items_hnsw_org1")
        out["filtered"] += [{"filter": name, **row} for row in s.partial(q, ftruth[name], where, a.filter_ef[:2])]
        s.drop_index("items_hnsw_org1")
        s.conn.execute("DROP TABLE items")
    finally:
        s.close()
    del x


def real_part(a, url: str, out: dict):
    import faiss
    import scale_faiss
    import scale_pg
    import scale_real

    from clinrag.options import PAIR_SIMILARITY_THRESHOLD
    from clinrag.paths import data_dir

    step(f"3. real MiniLM vectors: {a.real_n:,} passages from {data_dir()}")
    texts, questions, info = real_passages(data_dir(), a.real_n, a.seed)
    out["real"] = {"source": info, "queries": a.real_queries}
    cmp_n = min(a.embed_compare_n, len(texts))
    out["embedding"] = scale_real.compare_embedding(texts[:cmp_n], a.cpus)
    e = out["embedding"]
    print(f"  single {e['single_process']['texts_per_s']}/s vs Ray {e['ray']['texts_per_s']}/s "
          f"(Ray init {e['ray']['ray_init_s']}s); same vectors: {e['ray_matches_single_atol_1e-5']}")
    single, _ = scale_real.embed_single(texts[:cmp_n], "re-embedding compare set (not timed)") if cmp_n else (None, 0)
    rest, rest_s = scale_real.embed_single(texts[cmp_n:], "rest, single process") if len(texts) > cmp_n else (
        np.zeros((0, 384), np.float32), 0.0)
    out["real"]["rest_embedding"] = scale_real.throughput(len(texts) - cmp_n, rest_s, a.cpus) if rest_s else None
    x = np.vstack([single, rest]).astype(np.float32)
    q = scale_real.embed_single(questions[: a.real_queries], "queries")[0]
    out["real"]["vector_stats"] = vector_stats(x)
    truth = exact_topk(x, q, a.k)
    hnsw, out["real"]["faiss_build"] = scale_faiss.build_hnsw(x)
    flat = faiss.IndexFlatIP(x.shape[1])
    flat.add(x)
    out["real"]["queries"] = scale_faiss.query_sweep(hnsw, flat, q, truth, a.ef)
    del hnsw, flat
    zeros = np.zeros(len(x), dtype=np.int32)
    out["real"]["pg_load"] = scale_pg.load(url, "real_items", x, zeros, zeros, texts)
    out["real"]["pg_build"] = scale_pg.build_hnsw(url, "real_items", a.maintenance_work_mem, a.pg_workers)
    out["real"]["pg_sizes"] = scale_pg.sizes(url, "real_items")
    s = scale_pg.Searcher(url, "real_items")
    try:
        out["real"]["queries"] += s.sweep(q, truth, a.ef)
        s.conn.execute("DROP TABLE real_items")
    finally:
        s.close()
    step(f"3b. per-abstract figures on {a.abstracts} PubMedQA abstracts")
    out["abstracts"] = scale_real.abstract_figures(data_dir(), a.abstracts, PAIR_SIMILARITY_THRESHOLD)


def report(out: dict):
    step("results")
    s = out.get("synthetic")
    if s:
        fb, pb, ps = out["faiss_build"], out["pg_build"], out["pg_sizes"]
        print(f"Synthetic {s['n']:,} x 384-d; vector stats {s['vector_stats']}")
        print(f"  FAISS HNSW: build {fb['build_s']}s ({fb['threads']} threads), {fb['bytes_per_vector']} B/vector")
        print(f"  pgvector HNSW: build {pb['build_s']}s (leader + {pb['parallel_maintenance_workers']} worker), "
              f"index {pb['bytes_per_vector']} B/vector; table {ps['table_bytes_per_row']} B/row; "
              f"COPY {out['pg_load']['copy_rows_per_s']:,} rows/s")
        print(table(out["queries"], ["engine", "index", "ef", "recall", "p50_ms", "p95_ms"]))
        print("\nFiltered (recall vs the exact filtered top-10):")
        print(table(out["filtered"], ["filter", "engine", "strategy", "ef", "recall", "mean_results", "p50_ms",
                                      "p95_ms", "scan"]))
        ok = [r for r in out["queries"] if r["engine"] == "pgvector" and r["recall"] >= GOAL_RECALL
              and r.get("ef")]
        best = min(ok, key=lambda r: r["p50_ms"]) if ok else None
        out["goal"] = {"p50_ms_max": GOAL_P50_MS, "recall_min": GOAL_RECALL, "best_pgvector_row": best,
                       "met": bool(best and best["p50_ms"] <= GOAL_P50_MS)}
        print(f"\nGoal (pgvector p50 <= {GOAL_P50_MS} ms at recall@10 >= {GOAL_RECALL}): "
              f"{'MET' if out['goal']['met'] else 'MISSED'}; best row: {best}")
    r = out.get("real")
    if r:
        e = out["embedding"]
        print(f"\nReal MiniLM vectors ({r['source']['used']:,} passages; stats {r['vector_stats']})")
        print(f"  embedding, {e['texts']:,} texts (mean {e['mean_words']} words): single process "
              f"{e['single_process']['texts_per_s']}/s, Ray {e['ray']['texts_per_s']}/s "
              f"({e['ray']['with_init']['texts_per_s']}/s with Ray's start)")
        print(table(r["queries"], ["engine", "index", "ef", "recall", "p50_ms", "p95_ms"]))
        print(f"  abstracts: {out['abstracts']}")
    if s and r:
        try:
            import scale_plan

            print("\n" + scale_plan.per_item_table(out) + "\n\n" + scale_plan.plan_table(out))
        except Exception as e:  # noqa: BLE001 - the measurements are saved already; the plan can be re-derived
            print(f"\n(plan not printed: {type(e).__name__}: {e}; run benchmarks/scale_plan.py on the JSON)")
    report_workers(out)


def main(argv=None):
    a = parse_args(argv)
    import scale_pg

    out = {"args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(a).items()},
           "date": time.strftime("%Y-%m-%d"), "load_average_start": load_average()}
    t0 = time.perf_counter()
    if not a.skip_vectors:
        with scale_pg.postgres(a.database_url, a.shared_buffers) as (url, info):
            out["postgres"] = info
            print(f"PostgreSQL: {info}")
            synthetic_part(a, url, out)
            if a.real_n:
                real_part(a, url, out)
    if a.worker_rss or a.concurrency:
        worker_parts(a, out)
    out["load_average_end"], out["wall_s"] = load_average(), round(time.perf_counter() - t0, 1)
    if a.json_out:  # before the report, which adds the goal verdict and writes again
        a.json_out.write_text(json.dumps(out, indent=1, default=str))
    report(out)
    print(f"\nwall {out['wall_s']}s; load average start {out['load_average_start']} end {out['load_average_end']}")
    if a.json_out:
        a.json_out.write_text(json.dumps(out, indent=1, default=str))
        print(f"wrote {a.json_out}")


if __name__ == "__main__":
    main()
