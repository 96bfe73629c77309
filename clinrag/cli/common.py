"""Argument handling shared by every ``clinrag`` command: the common options and the Context they build."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from clinrag.context import Context


def common_parent(corpus_default: str = "the built-in guideline corpus") -> argparse.ArgumentParser:
    """The options every question-answering command takes: corpus, index folder and chat model.

    ``corpus_default`` says, in ``--help``, which corpus the command reads without ``--corpus``."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--corpus", help=f"corpus JSONL (default: {corpus_default})")
    common.add_argument("--index-dir", help="index folder (default: one per corpus content, under CLINRAG_INDEX_ROOT "
                                            "or the cache)")
    common.add_argument("--chat-model", help="init_chat_model string, e.g. openai:gpt-4o-mini (default: none)")
    return common


def context_from_args(args: argparse.Namespace) -> Context:
    """The run's Context: options given on the command line win, then CLINRAG_* variables, then the defaults."""
    overrides = {}
    if getattr(args, "corpus", None):
        overrides["corpus_path"] = str(Path(args.corpus).resolve())
    if getattr(args, "index_dir", None):
        overrides["index_dir"] = str(Path(args.index_dir).resolve())
    if getattr(args, "chat_model", None):
        overrides["chat_model"] = args.chat_model
    if getattr(args, "k", None) is not None:
        overrides["k"] = args.k
    if getattr(args, "condition", None):
        overrides["retrieval_condition"] = args.condition
    if getattr(args, "nli_backend", None):
        overrides["nli_backend"] = args.nli_backend
    ctx = Context(**overrides)
    if ctx.chat_model:  # fail now, in one line, rather than after the index is loaded (the model is cached)
        from clinrag.chat_models import load_chat_model

        load_chat_model(ctx.chat_model)
    return ctx


def selected_cases(load_cases: Callable[..., list], args: argparse.Namespace) -> list:
    """The benchmark cases ``--cases`` and ``--split`` select; an empty selection is said on stderr (the command then
    exits 2)."""
    cases = load_cases(args.cases, args.split)
    if not cases:
        print(f"no cases for split {args.split!r}", file=sys.stderr)
    return cases


def ensure_index(ctx: Context) -> None:
    """Load (building when needed) the index of ``ctx``'s corpus, saying on stderr when a build is needed: a first
    build takes a while, and stdout may be JSON."""
    from clinrag.documents import load_documents
    from clinrag.tools.index.corpus_store import open_store, store_kind
    from clinrag.tools.index.store import default_index_dir, get_index, stale_reason

    if store_kind(ctx) == "postgres":  # the database holds the corpus: nothing to build here
        open_store(ctx)
        return
    corpus = Path(ctx.corpus_path)
    docs = load_documents(corpus)
    index_dir = Path(ctx.index_dir) if ctx.index_dir else default_index_dir(corpus, docs)
    reason = stale_reason(index_dir, docs)
    if reason == "no index built yet":
        print(f"building the index for {corpus.name} (first use) in {index_dir} ...", file=sys.stderr, flush=True)
    elif reason:
        print(f"rebuilding the index for {corpus.name} ({reason}) in {index_dir} ...", file=sys.stderr, flush=True)
    get_index(ctx.corpus_path, ctx.index_dir)
