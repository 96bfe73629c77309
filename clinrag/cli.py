"""The ``clinrag`` command line: ask, index build, eval."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from clinrag.context import Context
from clinrag.documents import CorpusError
from clinrag.paths import BUILTIN_CORPUS


def _context(args: argparse.Namespace) -> Context:
    overrides = {}
    if getattr(args, "corpus", None):
        overrides["corpus_path"] = str(Path(args.corpus).resolve())
    if getattr(args, "index_dir", None):
        overrides["index_dir"] = str(Path(args.index_dir).resolve())
    if getattr(args, "chat_model", None):
        overrides["chat_model"] = args.chat_model
    if getattr(args, "k", None):
        overrides["k"] = args.k
    if getattr(args, "condition", None):
        overrides["retrieval_condition"] = args.condition
    return Context(**overrides)


def cmd_ask(args: argparse.Namespace) -> int:
    from clinrag.run import ask

    ctx = _context(args)
    if args.question == "-":
        if not args.json:
            print("clinrag ask: reading questions from stdin needs --json", file=sys.stderr)
            return 2
        for line in sys.stdin:
            if line.strip():
                print(ask(line.strip(), ctx).model_dump_json(), flush=True)
        return 0
    if args.json:
        print(ask(args.question, ctx).model_dump_json())
    else:
        from clinrag.display import print_result
        from clinrag.live import ask_live

        print_result(ask_live(args.question, ctx), contradiction_threshold=ctx.contradiction_threshold)  # status lines as the evidence map forms, then the map
    return 0


def cmd_index_build(args: argparse.Namespace) -> int:
    from clinrag.tools.index import build_index

    from clinrag.documents import load_documents
    from clinrag.tools.index import default_index_dir, stale_reason

    corpus = Path(args.corpus) if args.corpus else BUILTIN_CORPUS
    index_dir = Path(args.index_dir) if args.index_dir else default_index_dir(corpus)
    if args.if_stale:
        reason = stale_reason(index_dir, load_documents(corpus))
        if reason is None:
            print(f"index at {index_dir} is up to date")
            return 0
        print(f"building index at {index_dir}: {reason}")
    out = build_index(corpus, index_dir, show_progress=True, pair_scores=not args.no_pair_scores)
    print(f"index written to {out}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from clinrag.evals.guideline_drift import run_cli

    return run_cli(args, _context(args))


def cmd_calibrate(args: argparse.Namespace) -> int:
    import json

    from clinrag.evals.calibrate import calibrate
    from clinrag.evals.guideline_drift import load_cases

    result = calibrate(load_cases(args.cases, args.split), _context(args))
    text = json.dumps({"split": args.split, **result}, indent=2)
    print(text)
    if args.json_out:
        Path(args.json_out).write_text(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clinrag", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress and warnings")
    sub = parser.add_subparsers(dest="command", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--corpus", help="corpus JSONL (default: the built-in guideline corpus)")
    common.add_argument("--index-dir", help="index folder (default: per corpus, under CLINRAG_INDEX_ROOT or the cache)")
    common.add_argument("--chat-model", help="init_chat_model string, e.g. openai:gpt-4o-mini (default: none)")

    ask_p = sub.add_parser("ask", parents=[common], help="answer one question ('-' reads one per line from stdin)")
    ask_p.add_argument("question")
    ask_p.add_argument("--json", action="store_true", help="print one JSON object (per question)")
    ask_p.add_argument("-k", type=int, help="number of evidence passages")
    ask_p.add_argument("--condition", choices=["most-similar", "most-contradictory", "least-contradictory"],
                       help="retrieve under a TGA-PubMed condition (for abstract corpora; default: organization-diverse)")
    ask_p.set_defaults(func=cmd_ask)

    index_p = sub.add_parser("index", help="manage the passage index")
    index_sub = index_p.add_subparsers(dest="index_command", required=True)
    build_p = index_sub.add_parser("build", help="validate a corpus and (re)build its index")
    build_p.add_argument("--corpus", help="corpus JSONL (default: the built-in guideline corpus)")
    build_p.add_argument("--index-dir", help="where to write the index")
    build_p.add_argument("--if-stale", action="store_true", help="only build when missing, stale or foreign")
    build_p.add_argument("--no-pair-scores", action="store_true",
                         help="skip the index-time NLI scores of sentence pairs (the contradiction check then scores "
                              "pairs when questions meet them)")
    build_p.set_defaults(func=cmd_index_build)

    eval_p = sub.add_parser("eval", help="run a benchmark")
    eval_sub = eval_p.add_subparsers(dest="benchmark", required=True)
    drift = eval_sub.add_parser("guideline-drift", parents=[common], help="the guideline-drift benchmark")
    drift.add_argument("--cases", help="cases JSONL in LangSmith example format (default: the built-in benchmark)")
    drift.add_argument("--split", choices=["canonical", "holdout", "all"], default="all")
    drift.add_argument("--json-out", help="write metrics and per-case results as JSON")
    drift.add_argument("--upload", action="store_true", help="upload dataset and experiment (needs LANGSMITH_API_KEY)")
    drift.add_argument("--dataset", help="LangSmith dataset name for --upload (default: clinrag-guideline-drift)")
    drift.set_defaults(func=cmd_eval)
    calib = eval_sub.add_parser("calibrate", parents=[common], help="choose support and scope thresholds on a split")
    calib.add_argument("--cases", help="cases JSONL (default: the built-in guideline-drift benchmark)")
    calib.add_argument("--split", choices=["canonical", "holdout", "all"], default="canonical")
    calib.add_argument("--json-out", help="write the chosen thresholds as JSON")
    calib.set_defaults(func=cmd_calibrate)

    from clinrag.cli_pubmed import register as register_pubmed  # corpus build, report contradictions, eval drug-info

    register_pubmed(sub, common, eval_sub)

    from clinrag.cli_chat import register as register_chat  # chat (issue 3)

    register_chat(sub, common)

    from clinrag.cli_chr import register as register_chr  # eval chr (issue 5)

    register_chr(eval_sub, common)

    from clinrag.cli_nli import register as register_nli  # nli train/eval, contradiction score (issue 6)

    register_nli(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, format="%(levelname)s %(message)s")
    try:
        return args.func(args)
    except CorpusError as e:
        print(f"clinrag: corpus error: {e}", file=sys.stderr)
        return 2
    except (FileNotFoundError, ValueError) as e:
        print(f"clinrag: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
