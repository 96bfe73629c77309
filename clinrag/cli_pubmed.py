"""``clinrag corpus build pubmed|pubmedqa``, ``clinrag report contradictions`` and ``clinrag eval drug-info``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from clinrag.pubmed.selection import MAX_PER_QUERY

CONDITIONS = ("most-similar", "most-contradictory", "least-contradictory")


def _progress():
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    transient=False)


def cmd_corpus_pubmedqa(args: argparse.Namespace) -> int:
    from clinrag.paths import data_dir
    from clinrag.pubmed.build import build_pubmedqa_corpus, default_corpus_path

    root = Path(args.data_dir) if args.data_dir else data_dir()
    out = Path(args.out) if args.out else default_corpus_path("pubmedqa")
    with _progress() as progress:
        task = progress.add_task("PubMedQA abstracts", total=None)
        build_pubmedqa_corpus(root, out, progress=lambda done, total: progress.update(task, completed=done, total=total))
    print(f"corpus written to {out}\nindex it with: clinrag index build --corpus {out}")
    return 0


def _pairs(args: argparse.Namespace) -> list[tuple[str, str]]:
    from clinrag.pubmed.queries import CONSUMER_QUESTIONS

    questions = args.question or [q.template for q in CONSUMER_QUESTIONS]
    return [(m, q.format(medicine=m) if "{medicine}" in q else q) for m in args.medicine or [] for q in questions]


def cmd_corpus_pubmed(args: argparse.Namespace) -> int:
    from clinrag.pubmed.build import build_pubmed_corpus, default_corpus_path
    from clinrag.pubmed.eutils import EUtils
    from clinrag.pubmed.selection import ICiteSource, NoCitations

    pairs = _pairs(args)
    if not args.query and not pairs:
        print("clinrag corpus build pubmed: give --query and/or --medicine", file=sys.stderr)
        return 2
    eutils = EUtils(base_url=args.base_url) if args.base_url else EUtils()
    citations = NoCitations() if args.citations == "none" else (
        ICiteSource(base_url=args.icite_url) if args.icite_url else ICiteSource())
    out = Path(args.out) if args.out else default_corpus_path("pubmed")
    with _progress() as progress:
        queries = progress.add_task("queries", total=len(args.query or []) + len(pairs))
        fetched = progress.add_task("EFetch records", total=None)
        state = {"first": True}

        def on_query(label: str) -> None:
            if not state["first"]:
                progress.advance(queries)
            state["first"] = False
            progress.update(queries, description=f"queries ({label[:50]})")

        _, jobs, report = build_pubmed_corpus(
            eutils, out, raw_queries=args.query or [], pairs=pairs, citations=citations,
            per_query=args.per_query, max_candidates=args.max_candidates, on_query=on_query,
            on_batch=lambda n: progress.advance(fetched, n),
        )
        progress.update(queries, completed=len(jobs))
    n_docs = len({p for j in jobs for p in j.selected})
    print(f"{n_docs} abstracts from {len(jobs)} queries; parsed {report.parsed}/{report.articles} records "
          f"({report.parse_rate:.1%}), {report.no_abstract} without abstract, {report.failed} unreadable")
    for note in sorted({j.note for j in jobs if j.note}):
        print(f"note: {note}")
    print(f"corpus written to {out}\nindex it with: clinrag index build --corpus {out}")
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser, eval_sub: argparse._SubParsersAction) -> None:
    corpus_p = sub.add_parser("corpus", help="build evidence corpora")
    corpus_sub = corpus_p.add_subparsers(dest="corpus_command", required=True)
    build_p = corpus_sub.add_parser("build", help="build a corpus JSONL")
    build_sub = build_p.add_subparsers(dest="corpus_source", required=True)

    pqa = build_sub.add_parser("pubmedqa", help="the 1,000 PubMedQA abstracts from the data directory (offline)")
    pqa.add_argument("--data-dir", help="datasets folder (default: CLINRAG_DATA_DIR or ../shared/datasets)")
    pqa.add_argument("--out", help="corpus JSONL to write (default: under CLINRAG_CORPUS_ROOT or the cache)")
    pqa.set_defaults(func=cmd_corpus_pubmedqa)

    pm = build_sub.add_parser("pubmed", help="PubMed abstracts through NCBI E-utilities (network)")
    pm.add_argument("--query", action="append", help="a PubMed query, used as given (repeatable)")
    pm.add_argument("--medicine", action="append", help="a medicine: three-tier queries for each --question (repeatable)")
    pm.add_argument("--question", action="append",
                    help="a question for each --medicine; '{medicine}' is replaced (default: the six TGA consumer questions)")
    pm.add_argument("--out", help="corpus JSONL to write (default: under CLINRAG_CORPUS_ROOT or the cache)")
    pm.add_argument("--base-url", help="E-utilities base URL (default: NCBI's)")
    pm.add_argument("--citations", choices=["icite", "none"], default="icite", help="citation counts for the selection")
    pm.add_argument("--icite-url", help="iCite API base URL (default: NIH's)")
    pm.add_argument("--per-query", type=int, default=MAX_PER_QUERY, help="abstracts kept per query (Algorithm 1)")
    pm.add_argument("--max-candidates", type=int, default=200, help="ESearch hits fetched per query tier")
    pm.set_defaults(func=cmd_corpus_pubmed)
