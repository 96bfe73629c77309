"""PubMed-side measurements: ingestion parse rate on the fixtures, corpus statistics like
Javadi et al.'s (arXiv:2511.06668) Table 1, and temporal_search latency on the 1,000-abstract PubMedQA corpus.

* parse rate: the hand-written EFetch fixture (tests/fixtures/pubmed/efetch_articles.xml) through the parser;
* Table 1: documents, years, abstract length, and the mean context per query (K abstracts, their words and
  distinct years) for the drug-information benchmark questions under each retrieval condition;
* latency, warm, in process, over the benchmark questions x ``--repeats`` passes (default 1): the query embedding
  on its own (cache evicted), then, with the query vector cached, hybrid_search alone (the baseline every tool
  starts from), temporal_search's passage ranking, and the three retrieval conditions (pool 20, the default NLI
  backend).

Run:  .venv/bin/python benchmarks/pubmed_corpus.py [--repeats 3] [--json-out PATH]
Honours CLINRAG_INDEX_ROOT, CLINRAG_CORPUS_ROOT and CLINRAG_DATA_DIR; builds the corpus and index if missing
(not timed).
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=DeprecationWarning)
FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "pubmed" / "efetch_articles.xml"


def parse_rate() -> dict:
    from clinrag.pubmed.parse import parse_pubmed_xml

    records, report = parse_pubmed_xml(FIXTURE.read_bytes())
    return {"articles": report.articles, "parsed": report.parsed, "failed": report.failed,
            "no_abstract_dropped": report.no_abstract, "kept": len(records), "parse_rate": round(report.parse_rate, 4)}


def corpus_stats(index) -> dict:
    docs = list(index.docs.values())
    years = [d.year for d in docs if d.year]
    words = [len(d.text.split()) for d in docs]
    return {"documents": len(docs), "passages": len(index.passages), "with_year": len(years),
            "year_range": [min(years), max(years)], "distinct_years": len(set(years)),
            "mean_abstract_words": round(float(np.mean(words)), 1)}


def timed(fn, questions: list[str], repeats: int, evict: bool = False) -> tuple[dict, list]:
    """Latency percentiles over ``repeats`` passes, and the first pass's results.

    ``evict``: drop the questions' embeddings from the per-process cache before each pass (times the encoder);
    otherwise query vectors are cached and only the search itself is timed.
    """
    from clinrag.tools.index import embeddings

    ms, first = [], []
    for rep in range(repeats):
        for q in questions:
            if evict:
                embeddings._cache.pop(q, None)
        for q in questions:
            t = time.perf_counter()
            out = fn(q)
            ms.append((time.perf_counter() - t) * 1000)
            if rep == 0:
                first.append(out)
    return {"p50_ms": round(float(np.percentile(ms, 50)), 2), "p95_ms": round(float(np.percentile(ms, 95)), 2),
            "mean_ms": round(float(np.mean(ms)), 2), "calls": len(ms)}, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--json-out")
    args = parser.parse_args()

    from clinrag.evals.drug_info import EVIDENCE_EXCLUDED_TYPES, load_examples
    from clinrag.paths import data_dir
    from clinrag.pubmed.build import pubmedqa_corpus
    from clinrag.tools.index.store import get_index
    from clinrag.tools.retrieval.hybrid import hybrid_search
    from clinrag.tools.retrieval.retrieval_conditions import CONDITIONS, condition_search
    from clinrag.tools.retrieval.temporal import temporal_search_passages

    result = {"parse_rate": parse_rate()}
    corpus = pubmedqa_corpus()
    index = get_index(str(corpus), None)
    result["corpus"] = corpus_stats(index)
    questions = [e["inputs"]["question"] for e in load_examples(data_dir())]

    from clinrag.tools.index.embeddings import embed_cached

    latency = {
        "query embedding (MiniLM, one query)": timed(lambda q: embed_cached([q]), questions, args.repeats,
                                                     evict=True)[0],
        "hybrid_search (baseline)": timed(lambda q: hybrid_search(index, q, pool=50), questions, args.repeats)[0],
        "temporal_search passages": timed(lambda q: temporal_search_passages(index, q, k=args.k), questions,
                                          args.repeats)[0],
    }
    contexts = {}
    for condition in CONDITIONS:
        latency[f"condition {condition}"], found = timed(
            lambda q, c=condition: condition_search(
                index, q, c, k=args.k, exclude_source_types=EVIDENCE_EXCLUDED_TYPES).evidence,
            questions, args.repeats)
        contexts[condition] = {
            "abstracts_per_query": round(float(np.mean([len(f) for f in found])), 2),
            "words_per_context": round(float(np.mean(
                [sum(len(index.docs[e.doc_id].text.split()) for e in f) for f in found])), 1),
            "distinct_years_per_context": round(float(np.mean([len({e.year for e in f if e.year}) for f in found])), 2),
            "mean_year": round(float(np.mean([e.year for f in found for e in f if e.year])), 1),
        }
    result["context_per_query"] = {"queries": len(questions), "k": args.k, "pool": 20, **contexts}
    result["latency"] = latency

    print("parse rate on fixtures:", json.dumps(result["parse_rate"]))
    print("corpus:", json.dumps(result["corpus"]))
    print("\n| condition | abstracts / query | words / context | distinct years / context | mean year |")
    print("| --- | --- | --- | --- | --- |")
    for c in CONDITIONS:
        r = contexts[c]
        print(f"| {c} | {r['abstracts_per_query']} | {r['words_per_context']} | {r['distinct_years_per_context']} "
              f"| {r['mean_year']} |")
    print(f"\n| call ({len(questions)} questions x {args.repeats}) | p50 ms | p95 ms | mean ms |")
    print("| --- | --- | --- | --- |")
    for name, r in latency.items():
        print(f"| {name} | {r['p50_ms']} | {r['p95_ms']} | {r['mean_ms']} |")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
