"""Contrastive hypotheses (CHR): a target H+ to find and a mimic H- to avoid; or a baseline's expansions.

In order of preference:

1. A chat model is configured: one structured-output call returns H+ and H- as short textbook-style passages
   (``prompts/hypotheses.py``, a specialist doing a differential diagnosis). With a baseline retriever
   (hyde / query2doc / rrf) the call returns that baseline's generated text instead. Malformed output is retried,
   then the run falls back to step 2 or 3 and the note says so.
2. No (usable) chat model, multiple-choice ``options`` given: every option scores by the retrieved support for
   ``question + option``; H+ = the best-supported option, H- = the runner-up.
3. Otherwise (an open question): no hypotheses, query-only retrieval (lambda = 0).

``hypotheses_note`` in the state always says which of these happened.
"""

from __future__ import annotations

import logging

from langgraph.runtime import Runtime

from clinrag.chat_models import load_chat_model
from clinrag.context import Context
from clinrag.graph.runtime import context_of, index_of
from clinrag.graph.state import State, to_json
from clinrag.tools.retrieval.option_support import informative_options, option_hypotheses
from clinrag.tools.retrieval.retrievers import EXPANSION_RETRIEVERS

log = logging.getLogger(__name__)

__all__ = ["hypotheses"]


def _from_chat_model(state: State, ctx: Context) -> dict:
    """Hypotheses (chr) or expansions (hyde / query2doc / rrf) from the chat model; raises ValueError."""
    # only with a chat model: its prompts and output schemas are not loaded for a run without one
    from clinrag.tools.retrieval.query_expansion import generate_expansions, generate_hypotheses

    model = load_chat_model(ctx.chat_model)
    if ctx.retriever in EXPANSION_RETRIEVERS:
        expansions = generate_expansions(
            model, ctx.retriever, state.question, hyde_generations=ctx.hyde_generations,
            multi_queries=ctx.multi_queries, options=state.options,
        )
        return {"hypotheses": None, "chr_lambda": 0.0, "expansions": expansions,
                "hypotheses_note": f"{ctx.retriever}: {len(expansions)} generated text(s) from the chat model."}
    hyp = generate_hypotheses(model, state.question, state.options)
    return {"hypotheses": to_json(hyp), "chr_lambda": ctx.chr_lambda,
            "hypotheses_note": f"CHR with chat-model hypotheses, lambda = {ctx.chr_lambda}."}


def _from_options(state: State, ctx: Context, why: str) -> dict | None:
    """H+ / H- from the answer options (LLM-free), or None when the options carry no content."""
    if not informative_options(state.options):
        return None
    chosen = option_hypotheses(index_of(ctx), state.question, state.options, pool=ctx.candidate_pool, k=ctx.k)
    hyp = chosen.hypotheses
    note = (f"{why}: hypotheses from the options by retrieved support for question + option: "
            f"H+ = {chosen.target_label} ({chosen.scores[chosen.target_label]:.3f}), "
            f"H- = {chosen.mimic_label} ({chosen.scores[chosen.mimic_label]:.3f}), lambda = {ctx.chr_lambda}.")
    return {"hypotheses": to_json(hyp), "chr_lambda": ctx.chr_lambda,
            "expansions": [hyp.target] if ctx.retriever in EXPANSION_RETRIEVERS else [], "hypotheses_note": note}


def hypotheses(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    if ctx.retriever in ("dense", "bm25"):
        return {"hypotheses": None, "chr_lambda": 0.0, "expansions": [],
                "hypotheses_note": f"{ctx.retriever} retrieval uses the question only."}
    why = "No chat model configured"
    if ctx.chat_model:
        try:
            return _from_chat_model(state, ctx)
        except ValueError as e:
            log.warning("%s", e)
            why = str(e)
    from_options = _from_options(state, ctx, why)
    if from_options is not None:
        return from_options
    return {"hypotheses": None, "chr_lambda": 0.0, "expansions": [],
            "hypotheses_note": f"{why}: hypotheses unavailable; query-only retrieval (lambda = 0)."}
