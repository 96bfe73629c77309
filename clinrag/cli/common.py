"""Argument handling shared by every ``clinrag`` command: the common options and the Context they build."""

from __future__ import annotations

import argparse
from pathlib import Path

from clinrag.context import Context


def common_parent() -> argparse.ArgumentParser:
    """The options every question-answering command takes: corpus, index folder and chat model."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--corpus", help="corpus JSONL (default: the built-in guideline corpus)")
    common.add_argument("--index-dir", help="index folder (default: per corpus, under CLINRAG_INDEX_ROOT or the cache)")
    common.add_argument("--chat-model", help="init_chat_model string, e.g. openai:gpt-4o-mini (default: none)")
    return common


def context_from_args(args: argparse.Namespace) -> Context:
    """The run's Context: options given on the command line, everything else from Context's defaults."""
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
