"""``clinrag corpus build pubmed|pubmedqa``, ``clinrag report contradictions`` and ``clinrag eval drug-info``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from clinrag.cli.common import common_parent, ensure_index
from clinrag.options import CONTRADICTION_POOL, MAX_PER_QUERY, NLI_BACKENDS, RETRIEVAL_CONDITIONS


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
        build_pubmedqa_corpus(root, out,
                              progress=lambda done, total: progress.update(task, completed=done, total=total))
    print(f"corpus written to {out}\nindex it with: clinrag index build --corpus {out}")
    return 0


def _pairs(args: argparse.Namespace) -> list[tuple[str, str]]:
    from clinrag.pubmed.queries import CONSUMER_QUESTIONS

    questions = args.question or [q.template for q in CONSUMER_QUESTIONS]
    return [(m, q.format(medicine=m) if "{medicine}" in q else q) for m in args.medicine or [] for q in questions]


def cmd_corpus_pubmed(args: argparse.Namespace) -> int:
    from clinrag.pubmed.build import build_pubmed_corpus, default_corpus_path
    from clinrag.pubmed.eutils import EUtils
    from clinrag.pubmed.http import NCBIError
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

        try:
            _, jobs, report = build_pubmed_corpus(
                eutils, out, raw_queries=args.query or [], pairs=pairs, citations=citations,
                per_query=args.per_query, max_candidates=args.max_candidates, on_query=on_query,
                on_batch=lambda n: progress.advance(fetched, n),
            )
        except NCBIError as e:  # its message starts with the URL and ends with the cause
            progress.stop()
            print(f"clinrag corpus build pubmed: network error: {e}", file=sys.stderr)
            return 2
        progress.update(queries, completed=len(jobs))
    n_docs = len({p for j in jobs for p in j.selected})
    print(f"{n_docs} abstracts from {len(jobs)} queries; parsed {report.parsed}/{report.articles} records "
          f"({report.parse_rate:.1%}), {report.no_abstract} without abstract, {report.failed} unreadable")
    for note in sorted({j.note for j in jobs if j.note}):
        print(f"note: {note}")
    print(f"corpus written to {out}\nindex it with: clinrag index build --corpus {out}")
    return 0


PUBMEDQA_DEFAULT = "the PubMedQA abstracts, built from the data directory on first use"


def register(sub: argparse._SubParsersAction, eval_sub: argparse._SubParsersAction) -> None:
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
    pm.add_argument("--medicine", action="append",
                    help="a medicine: three-tier queries for each --question (repeatable)")
    pm.add_argument("--question", action="append",
                    help="a question for each --medicine; '{medicine}' is replaced (default: the six TGA consumer "
                         "questions)")
    pm.add_argument("--out", help="corpus JSONL to write (default: under CLINRAG_CORPUS_ROOT or the cache)")
    pm.add_argument("--base-url", help="E-utilities base URL (default: NCBI's)")
    pm.add_argument("--citations", choices=["icite", "none"], default="icite", help="citation counts for the selection")
    pm.add_argument("--icite-url", help="iCite API base URL (default: NIH's)")
    pm.add_argument("--per-query", type=int, default=MAX_PER_QUERY, help="abstracts kept per query (Algorithm 1)")
    pm.add_argument("--max-candidates", type=int, default=200, help="ESearch hits fetched per query tier")
    pm.set_defaults(func=cmd_corpus_pubmed)

    evidence_common = common_parent(corpus_default=PUBMEDQA_DEFAULT)
    register_eval(eval_sub, evidence_common)
    register_report(sub, evidence_common)


def _evidence_context(args: argparse.Namespace):
    """The Context of the PubMed commands: their evidence corpus is the PubMedQA abstracts unless --corpus is
    given (built from the data directory on first use)."""
    from clinrag.cli.common import context_from_args
    from clinrag.pubmed.build import pubmedqa_corpus

    ctx = context_from_args(args)
    if not args.corpus:
        ctx.corpus_path = str(pubmedqa_corpus(Path(args.data_dir) if getattr(args, "data_dir", None) else None))
    return ctx


def cmd_eval_drug_info(args: argparse.Namespace) -> int:
    import json

    from rich.console import Console
    from rich.table import Table

    from clinrag.evals.drug_info import load_examples, run_benchmark, summarize
    from clinrag.evals.drug_info_metrics import METRIC_KEYS
    from clinrag.paths import data_dir

    root = Path(args.data_dir) if args.data_dir else data_dir()
    examples = load_examples(root, args.limit_medicines)
    if not examples:
        print("clinrag eval drug-info: no product information with answerable questions", file=sys.stderr)
        return 2
    ctx = _evidence_context(args)
    ensure_index(ctx)  # build or load before the progress bar starts
    with _progress() as progress:
        task = progress.add_task(f"drug-info ({args.condition})", total=len(examples))
        rows = run_benchmark(examples, ctx, args.condition, k=args.k, on_case=lambda: progress.advance(task))
    summary = summarize(rows)
    answerer = f"chat model {ctx.chat_model}" if ctx.chat_model else "extractive"
    table = Table(title=f"drug-info, {args.condition}, {answerer} answers, K={args.k}, "
                        f"evidence {Path(ctx.corpus_path).name}")
    table.add_column("questions", no_wrap=True)
    for key in METRIC_KEYS:
        table.add_column(key, justify="right")
    table.add_column("medicines / answers", justify="right")
    for label, m in [("all (macro)", summary["metrics"]), *summary["by_question"].items()]:
        table.add_row(label, *[f"{m[k]:.4f}" for k in METRIC_KEYS], f"{m['n_medicines']} / {m['n_questions']}")
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 130)  # keep the table on one line per row in logs and pipes
    console.print(table)
    ev = summary["evidence"]
    console.print(f"evidence per answer: {ev['abstracts_per_answer']} abstracts, mean contradiction salience "
                  f"{ev['mean_contradiction_salience']}, mean publication year {ev['mean_year']}")
    if args.json_out:
        payload = {"condition": args.condition, "answerer": answerer, "corpus": ctx.corpus_path, "k": args.k,
                   **summary, "cases": rows}
        Path(args.json_out).write_text(json.dumps(payload, indent=2))
    return 0


def register_eval(eval_sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    drug = eval_sub.add_parser("drug-info", parents=[common],
                               help="TGA-style drug-information benchmark: answers from PubMed abstracts vs product "
                                    "information")
    drug.add_argument("--condition", choices=RETRIEVAL_CONDITIONS, default="most-similar", help="retrieval condition")
    drug.add_argument("-k", type=int, default=5, help="abstracts per answer (K)")
    drug.add_argument("--data-dir", help="datasets folder (default: CLINRAG_DATA_DIR or ../shared/datasets)")
    drug.add_argument("--limit-medicines", type=int, help="only the first N medicines (quick runs)")
    drug.add_argument("--json-out", help="write metrics and per-case results as JSON")
    drug.set_defaults(func=cmd_eval_drug_info)


def _report_queries(args: argparse.Namespace) -> list[str]:
    if args.queries:
        lines = [line.strip() for line in Path(args.queries).read_text(encoding="utf-8").splitlines()]
        return [line for line in lines if line and not line.startswith("#")]
    from clinrag.evals.drug_info import load_examples
    from clinrag.paths import data_dir

    return [e["inputs"]["question"] for e in load_examples(Path(args.data_dir) if args.data_dir else data_dir())]


def cmd_report_contradictions(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from clinrag.evals.contradiction_report import collect, s_vs_salience, salience_by_period, write_report
    from clinrag.evals.drug_info import EVIDENCE_EXCLUDED_TYPES
    from clinrag.tools.index.store import get_index

    queries = _report_queries(args)
    if not queries:
        print("clinrag report contradictions: no queries", file=sys.stderr)
        return 2
    ctx = _evidence_context(args)
    ensure_index(ctx)
    index = get_index(ctx.corpus_path, ctx.index_dir)
    with _progress() as progress:
        task = progress.add_task("scoring candidate pools", total=len(queries))
        rows = collect(index, queries, pool=args.pool or ctx.contradiction_pool, lam=ctx.mmr_lambda,
                       alpha=ctx.temporal_alpha, nli_backend=ctx.nli_backend,
                       pair_threshold=ctx.pair_similarity_threshold, exclude_source_types=EVIDENCE_EXCLUDED_TYPES,
                       on_query=lambda: progress.advance(task))
    paths = write_report(rows, Path(args.out_dir), subtitle=f"\n{len(queries)} queries, {Path(ctx.corpus_path).name}")
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 130)
    for title, (row_labels, col_labels, counts) in (
        ("Table 3: S (rows) vs contradiction salience (columns)", s_vs_salience(rows)),
        ("Figure 2: contradiction salience (rows) by 5-year publication interval (columns)", salience_by_period(rows)),
    ):
        table = Table(title=title)
        table.add_column("", no_wrap=True)
        for label in col_labels:
            table.add_column(label, justify="right")
        for label, row in zip(row_labels, counts):
            table.add_row(label, *[str(int(v)) for v in row])
        console.print(table)
    for name, path in paths.items():
        print(f"{name}: {path}")
    return 0


def register_report(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    report_p = sub.add_parser("report", help="analysis reports")
    report_sub = report_p.add_subparsers(dest="report", required=True)
    rc = report_sub.add_parser("contradictions", parents=[common],
                               help="S vs contradiction salience (Table 3) and salience by 5-year period (Figure 2)")
    rc.add_argument("--queries", help="file with one query per line (default: the drug-info benchmark questions)")
    rc.add_argument("--data-dir", help="datasets folder (default: CLINRAG_DATA_DIR or ../shared/datasets)")
    rc.add_argument("--pool", type=int,
                    help=f"documents scored per query (default: CLINRAG_CONTRADICTION_POOL, else {CONTRADICTION_POOL})")
    rc.add_argument("--nli-backend", help=f"{', '.join(NLI_BACKENDS)}, or a local Hugging Face NLI model folder "
                                          "(default: CLINRAG_NLI_BACKEND, else cross-encoder)")
    rc.add_argument("--out-dir", default="contradiction-report", help="folder for the CSV and PNG files")
    rc.set_defaults(func=cmd_report_contradictions)
