"""``clinrag ask``: one question (or one per stdin line with ``--json -``), answered by the graph.

The stdin contract of ``--json -``: exactly one JSON object per input line, in input order. A line that cannot be
taken (blank, longer than ``MAX_QUESTION_CHARS``, holding a NUL, not valid UTF-8) or whose run fails becomes
``{"error": {"code", "message"}, "input_line": N}`` (N counted from 1) and the batch goes on; the exit status is 0
once every line has its object. Nothing prints a traceback (``-v`` logs one for an unexpected error).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Iterator

from clinrag.cli.common import context_from_args, ensure_index
from clinrag.options import RETRIEVAL_CONDITIONS, K

log = logging.getLogger(__name__)


def stdin_lines(stream=None) -> Iterator[tuple[int, str | None, str | None]]:
    """``(line number, text, decoding error)`` for every line of ``stream`` (default stdin), read as bytes and
    decoded as UTF-8 line by line, so one undecodable line is reported (text None) and the next ones still read.
    A text stream without a byte buffer (a test's StringIO) is read as text."""
    stream = stream if stream is not None else sys.stdin
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        for n, line in enumerate(stream, start=1):
            yield n, line.rstrip("\r\n"), None
        return
    for n, raw in enumerate(buffer, start=1):
        raw = raw.rstrip(b"\r\n")
        try:
            yield n, raw.decode("utf-8"), None
        except UnicodeDecodeError as e:
            yield n, None, f"line {n} is not valid UTF-8 (byte {e.start}: {raw[e.start:e.start + 1]!r})"


def _error_object(code: str, message: str, line: int | None = None) -> str:
    out: dict = {"error": {"code": code, "message": message}}
    if line is not None:
        out["input_line"] = line
    return json.dumps(out, ensure_ascii=False)


def _unexpected(e: Exception) -> str:
    """One line for an error nobody expected (its traceback only with ``-v``)."""
    log.info("unexpected error", exc_info=e)
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text[:300]}" if text else type(e).__name__


def answer_lines(ctx, stream=None) -> Iterator[str]:
    """The ``--json -`` output: one JSON object per input line (see the module docstring)."""
    from clinrag.run import InputError, ask

    for n, text, decode_error in stdin_lines(stream):
        if decode_error is not None:
            yield _error_object("invalid_utf8", decode_error, n)
            continue
        try:
            yield ask(text, ctx).model_dump_json()
        except InputError as e:
            yield _error_object(e.code, e.message, n)
        except Exception as e:  # one bad run never ends the batch
            yield _error_object("internal_error", _unexpected(e), n)


def cmd_ask(args: argparse.Namespace) -> int:
    from clinrag.chat_models import ChatModelError
    from clinrag.run import InputError, validate_question

    if args.question == "-" and not args.json:
        print("clinrag ask: reading questions from stdin needs --json", file=sys.stderr)
        return 2
    if args.question == "-" and args.html:
        print("clinrag ask: --html writes one question's evidence map; it cannot read questions from stdin",
              file=sys.stderr)
        return 2
    if args.question != "-":
        try:
            validate_question(args.question)
        except InputError as e:  # before any model or index loads
            if args.json:
                print(_error_object(e.code, e.message))
            print(f"clinrag ask: {e.message}", file=sys.stderr)
            return 2
    try:
        return _run_ask(args)
    except (ValueError, FileNotFoundError, ChatModelError):
        raise  # the errors a user can fix: one line from clinrag.cli.main
    except Exception as e:  # anything else: one line, not a traceback
        print(f"clinrag ask: {_unexpected(e)}", file=sys.stderr)
        return 1


def _run_ask(args: argparse.Namespace) -> int:
    from clinrag.run import ask

    ctx = context_from_args(args)
    if os.environ.get("CLINRAG_MODEL_RUNTIME") != "torch":
        from clinrag.tools.index.onnx_models import warm_up_encoder

        warm_up_encoder()  # the encoder's session loads while the index does
    ensure_index(ctx)  # says so on stderr when the corpus is new and its index is built first
    if args.question == "-":
        for line in answer_lines(ctx):
            print(line, flush=True)
        return 0
    if args.json:
        result = ask(args.question, ctx)
        print(result.model_dump_json())
    else:
        from clinrag.cli.display import print_result
        from clinrag.cli.live import ask_live

        # status lines as the evidence map forms, then the map
        result = ask_live(args.question, ctx)
        print_result(result, contradiction_threshold=ctx.contradiction_threshold)
    if args.html:
        from clinrag.html_export import write_html

        path = write_html(args.html, result, ctx.corpus_path)
        print(f"evidence map written to {path}", file=sys.stderr)  # stderr: --json output stays one JSON object
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    ask_p = sub.add_parser("ask", parents=[common], help="answer one question ('-' reads one per line from stdin)")
    ask_p.add_argument("question")
    ask_p.add_argument("--json", action="store_true", help="print one JSON object (per question)")
    ask_p.add_argument("--html", metavar="PATH",
                       help="also write the evidence map as one self-contained HTML file (open it in a browser)")
    ask_p.add_argument("-k", type=int, help=f"number of evidence passages (default: CLINRAG_K, else {K})")
    ask_p.add_argument("--condition", choices=RETRIEVAL_CONDITIONS,
                       help="retrieve under a retrieval condition of the TGA-PubMed paper (for abstract corpora; "
                            "default: organization-diverse)")
    ask_p.set_defaults(func=cmd_ask)
