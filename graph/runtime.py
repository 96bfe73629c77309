"""Helpers shared by the nodes: the run's Context and the corpus index it names."""

from __future__ import annotations

from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.tools.index.corpus_store import CorpusStore, open_store


def context_of(runtime: Runtime[Context] | None) -> Context:
    """The run's Context; defaults (with environment fallbacks) for in-process invoke() without context=."""
    ctx = getattr(runtime, "context", None)
    if ctx is None:
        return Context()
    if isinstance(ctx, dict):
        return Context(**ctx)
    return ctx


def index_of(ctx: Context) -> CorpusStore:
    """The corpus store the Context names (embedded index or PostgreSQL; ``tools/index/corpus_store.py``)."""
    return open_store(ctx)
