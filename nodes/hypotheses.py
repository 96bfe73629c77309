"""Contrastive hypotheses (CHR): a target H+ to find and a mimic H- to avoid.

With a chat model configured, one structured-output call returns both; malformed output is retried, then the
run falls back to query-only retrieval and says so. Without a chat model, hypotheses are unavailable and
retrieval is query-only (lambda = 0); the state records why.
"""

from __future__ import annotations

import logging

from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.graph.state import State, to_json
from clinrag.models import load_chat_model
from clinrag.nodes._common import context_of
from clinrag.prompts.hypotheses import HYPOTHESES_SYSTEM, HYPOTHESES_USER
from clinrag.schema import Hypotheses

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 2


def generate_hypotheses(chat_model, question: str) -> Hypotheses:
    """One structured-output call; raises ValueError when the output is unusable after retries."""
    structured = chat_model.with_structured_output(Hypotheses)
    messages = [("system", HYPOTHESES_SYSTEM), ("human", HYPOTHESES_USER.format(question=question))]
    last_error: Exception | None = None
    for _ in range(MAX_ATTEMPTS):
        try:
            result = structured.invoke(messages)
            hyp = result if isinstance(result, Hypotheses) else Hypotheses.model_validate(result)
            if hyp.target.strip() and hyp.mimic.strip():
                return hyp
            last_error = ValueError("empty hypothesis")
        except Exception as e:  # malformed output or provider error: retry, then fall back
            last_error = e
    raise ValueError(f"hypothesis generation failed after {MAX_ATTEMPTS} attempts: {last_error}")


def hypotheses(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    if not ctx.chat_model:
        return {
            "hypotheses": None,
            "chr_lambda": 0.0,
            "hypotheses_note": "No chat model configured: hypotheses unavailable; query-only retrieval (lambda = 0).",
        }
    try:
        hyp = generate_hypotheses(load_chat_model(ctx.chat_model), state.question)
    except ValueError as e:
        log.warning("%s", e)
        return {"hypotheses": None, "chr_lambda": 0.0, "hypotheses_note": f"{e}; query-only retrieval (lambda = 0)."}
    return {"hypotheses": to_json(hyp), "chr_lambda": ctx.chr_lambda, "hypotheses_note": f"CHR with lambda = {ctx.chr_lambda}."}
