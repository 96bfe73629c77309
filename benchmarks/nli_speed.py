"""NLI cost: scored pairs per second of each backend (batch 32), and the contradiction check on a
20-abstract PubMed pool, cold (sentence embeddings computed) and with precomputed sentence embeddings; every
pair is scored in both (no pair-score cache; benchmarks/query_speed.py times the precomputed graph).

    .venv/bin/python benchmarks/nli_speed.py [--pairs 256] [--backends lexical feature cross-encoder two-stage]
        [--json-out PATH]

Needs the data directory (PubMedQA abstracts for the pool, HealthVer test for realistic pairs).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time

from clinrag.paths import data_dir
from clinrag.tools.index import embeddings
from clinrag.tools.index.text import split_sentences
from clinrag.tools.nli import pair_scores
from clinrag.tools.nli.backends import get_nli_backend
from clinrag.tools.nli.contradiction import contradiction_graph
from clinrag.tools.nli.data import healthver_pairs


def pubmedqa_pool(n: int = 20, candidates: int = 500) -> dict[str, str]:
    """A pool of related abstracts, as a retrieval condition gets one: the first PubMedQA abstract and the n-1 of
    the next ``candidates`` sharing most of its content words (word overlap: no model, so nothing is cached)."""
    path = data_dir() / "pubmedqa" / "ori_pqal.json"
    records = list(json.loads(path.read_text()).items())[:candidates]
    texts = {pmid: " ".join(r["CONTEXTS"]) for pmid, r in records}
    words = {pmid: {w for w in re.findall(r"[a-z]{4,}", t.lower())} for pmid, t in texts.items()}
    seed = records[0][0]
    ranked = sorted((p for p in texts if p != seed),
                    key=lambda p: -len(words[p] & words[seed]) / len(words[p] | words[seed]))
    return {p: texts[p] for p in [seed, *ranked[: n - 1]]}


def pairs_per_second(backend, pairs: list[tuple[str, str]], batch: int = 32) -> float:
    backend.predict(pairs[:batch])  # warm-up (model load, first batch)
    started = time.perf_counter()
    for i in range(0, len(pairs), batch):
        backend.predict(pairs[i : i + batch])
    return len(pairs) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--backends", nargs="+",
                        default=["lexical", "feature", "cross-encoder", "cross-encoder-torch", "two-stage"])
    parser.add_argument("--json-out")
    args = parser.parse_args()

    pairs = [(p.premise, p.hypothesis) for p in healthver_pairs("test", data_dir())][: args.pairs]
    pool = pubmedqa_pool()
    sentences = [s for text in pool.values() for s in split_sentences(text)]
    result = {"load_average": os.getloadavg(), "n_pairs": len(pairs), "pool_abstracts": len(pool),
              "pool_sentences": len(sentences), "backends": {}}
    for spec in args.backends:
        backend = get_nli_backend(spec)
        pps = pairs_per_second(backend, pairs)
        embeddings.forget_cached(sentences)  # cold: no pool sentence embedding is cached
        pair_scores.forget_pair_scores()  # and no pair scored yet (benchmarks/query_speed.py times the stored graph)
        started = time.perf_counter()
        edges, _ = contradiction_graph(pool, backend)
        cold = time.perf_counter() - started
        embeddings.prime_cache(sentences, embeddings.embed_texts(sentences))  # as the index stores them
        pair_scores.forget_pair_scores()
        started = time.perf_counter()
        contradiction_graph(pool, backend)
        warm = time.perf_counter() - started
        result["backends"][spec] = {"pairs_per_s": round(pps, 1), "pool_cold_s": round(cold, 3),
                                    "pool_precomputed_s": round(warm, 3), "pool_edges": len(edges)}
        print(f"{spec:14s} {pps:8.1f} pairs/s   20-abstract pool: cold {cold:6.3f} s, "
              f"precomputed embeddings {warm:6.3f} s, {len(edges)} document pairs", flush=True)
    print(f"load average {tuple(round(x, 2) for x in result['load_average'])} on {os.cpu_count()} CPUs; "
          f"pool of {len(pool)} abstracts, {len(sentences)} sentences")
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(result, fh, indent=2)


if __name__ == "__main__":
    main()
