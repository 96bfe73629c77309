"""The retrieval functions as LangChain tools, for agents and for Studio.

They read the corpus and index from the clinrag ``Context`` (environment fallbacks included).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from langchain_core.tools import tool
from pydantic import BaseModel, Field

from clinrag import options
from clinrag.context import Context
from clinrag.tools.index.store import get_index
from clinrag.tools.retrieval.org_diverse import org_diverse_search_passages
from clinrag.tools.retrieval.retrieval_conditions import condition_search
from clinrag.tools.retrieval.temporal import temporal_search_passages


class OrgDiverseArgs(BaseModel):
    query: str = Field(description="The clinical-evidence question or search query.")
    k: int = Field(default=6, ge=1, le=50, description="Number of passages to return.")
    include_superseded: bool | None = Field(
        default=None,
        description="Include superseded guideline versions. None: only when the query asks about change over "
        "time or a past date ('in 2012', 'used to', 'changed').",
    )


@tool("org_diverse_search", args_schema=OrgDiverseArgs)
def org_diverse_search(query: str, k: int = 6, include_superseded: bool | None = None) -> list[dict]:
    """Search clinical guidelines so that every organization's strongest current passage comes first (one
    organization cannot crowd out the others that disagree), then the remaining passages by score. Each result
    carries org, title, issue date, status (current or superseded), scores and the passage text."""
    ctx = Context()
    index = get_index(ctx.corpus_path, ctx.index_dir)
    items = org_diverse_search_passages(
        index, query, k=k, include_superseded=include_superseded, pool=ctx.candidate_pool
    )
    return [item.model_dump() for item in items]


class TemporalArgs(BaseModel):
    query: str = Field(description="The question or search query.")
    k: int = Field(default=5, ge=1, le=50, description="Number of passages to return (K).")
    year_from: int | None = Field(default=None, description="Earliest publication year to keep.")
    year_to: int | None = Field(default=None, description="Latest publication year to keep.")
    as_of: dt.date | None = Field(
        default=None,
        description="Only documents issued on or before this date; versions replaced later count as current then.",
    )
    lam: float = Field(default=0.7, ge=0, le=1, description="MMR relevance weight lambda.")
    alpha: float = Field(default=0.7, ge=0, le=1, description="Weight of MMR against recency tau in S.")
    condition: Literal["most-similar", "most-contradictory", "least-contradictory"] | None = Field(
        default=None,
        description="Retrieval condition over the most similar documents: top K by S, or the K most / least "
        "contradicted by the others. None: the configured default (plain S ranking of passages when unset).",
    )


@tool("temporal_search", args_schema=TemporalArgs)
def temporal_search(
    query: str, k: int = options.TEMPORAL_K, year_from: int | None = None, year_to: int | None = None,
    as_of: dt.date | None = None, lam: float = options.MMR_LAMBDA, alpha: float = options.TEMPORAL_ALPHA,
    condition: str | None = None,
) -> list[dict]:
    """Search by publication date: filter by year range or an as-of date, then rank by
    S = alpha*MMR + (1-alpha)*recency, so results are relevant, not redundant, and spread toward recent years.
    Only documents on the query's topic, each once; with as_of, each labelled with its status at that date."""
    ctx = Context()
    index = get_index(ctx.corpus_path, ctx.index_dir)
    condition = condition or ctx.retrieval_condition
    if condition:
        items = condition_search(
            index, query, condition, k=k, lam=lam, alpha=alpha, year_from=year_from, year_to=year_to, as_of=as_of,
            pool=ctx.contradiction_pool, nli_backend=ctx.nli_backend, pair_threshold=ctx.pair_similarity_threshold,
        ).evidence
    else:
        items = temporal_search_passages(  # one passage per document: K slots are K documents
            index, query, k=k, lam=lam, alpha=alpha, year_from=year_from, year_to=year_to, as_of=as_of,
            pool=ctx.candidate_pool, per_document=True,
        )
    return [item.model_dump() for item in items]
