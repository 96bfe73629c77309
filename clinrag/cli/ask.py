"""``clinrag ask``: one question (or one per stdin line with ``--json -``), answered by the graph."""

from __future__ import annotations

import argparse
import os
import sys

from clinrag.cli.common import context_from_args, ensure_index
from clinrag.options import RETRIEVAL_CONDITIONS, K


def cmd_ask(args: argparse.Namespace) -> int:
    from clinrag.run import ask

    ctx = context_from_args(args)
    if args.question == "-" and not args.json:
        print("clinrag ask: reading questions from stdin needs --json", file=sys.stderr)
        return 2
    if os.environ.get("CLINRAG_MODEL_RUNTIME") != "torch":
        from clinrag.tools.index.onnx_models import warm_up_encoder

        warm_up_encoder()  # the encoder's session loads while the index does
    ensure_index(ctx)  # says so on stderr when the corpus is new and its index is built first
    if args.question == "-":
        for line in sys.stdin:
            if line.strip():
                print(ask(line.strip(), ctx).model_dump_json(), flush=True)
        return 0
    if args.json:
        print(ask(args.question, ctx).model_dump_json())
    else:
        from clinrag.cli.display import print_result
        from clinrag.cli.live import ask_live

        # status lines as the evidence map forms, then the map
        print_result(ask_live(args.question, ctx), contradiction_threshold=ctx.contradiction_threshold)
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    ask_p = sub.add_parser("ask", parents=[common], help="answer one question ('-' reads one per line from stdin)")
    ask_p.add_argument("question")
    ask_p.add_argument("--json", action="store_true", help="print one JSON object (per question)")
    ask_p.add_argument("-k", type=int, help=f"number of evidence passages (default: CLINRAG_K, else {K})")
    ask_p.add_argument("--condition", choices=RETRIEVAL_CONDITIONS,
                       help="retrieve under a retrieval condition of the TGA-PubMed paper (for abstract corpora; "
                            "default: organization-diverse)")
    ask_p.set_defaults(func=cmd_ask)
