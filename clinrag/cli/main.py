"""The ``clinrag`` command line: ask, chat, index build, corpus build, eval, report, nli, contradiction score."""

from __future__ import annotations

import argparse
import logging
import sys

from clinrag.chat_models import ChatModelError
from clinrag.cli import ask, chat, chr, corpus, disagreements, evals, frames, index, nli, pubmed, realistic, serve
from clinrag.cli import mcp as mcp_cli
from clinrag.cli.common import common_parent
from clinrag.documents import CorpusError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clinrag", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress and warnings")
    sub = parser.add_subparsers(dest="command", required=True)
    common = common_parent()

    ask.register(sub, common)
    chat.register(sub, common)
    serve.register(sub, common)
    mcp_cli.register(sub, common)
    index.register(sub)
    eval_p = sub.add_parser("eval", help="run a benchmark")
    eval_sub = eval_p.add_subparsers(dest="benchmark", required=True)
    evals.register(eval_sub, common)
    chr.register(eval_sub)
    disagreements.register(eval_sub, common)
    realistic.register(eval_sub, common)
    frames.register(eval_sub)
    pubmed.register(sub, eval_sub)  # corpus build, report contradictions, eval drug-info
    corpus.register(sub)  # corpus add, replace, retire (PostgreSQL)
    nli.register(sub)  # nli train/eval/threshold, contradiction score
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, format="%(levelname)s %(message)s")
    try:
        return args.func(args)
    except CorpusError as e:
        print(f"clinrag: corpus error: {e}", file=sys.stderr)
        return 2
    except (FileNotFoundError, ValueError, ChatModelError) as e:  # ValueError includes ContextError
        print(f"clinrag: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a full disk, a permission denied: one line, the index and corpus are left as they were
        print(f"clinrag: {e.strerror or e}{f': {e.filename}' if e.filename else ''}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
