"""Support gate: abstain when no retrieved passage supports the question well enough.

The score is absolute (see ``clinrag.tools.retrieval.hybrid``), so the same threshold means the same thing for every
question. Each passage is held to the threshold of its source type (``Context.support_threshold_for``): guideline
passages to ``support_threshold`` (chosen on the canonical benchmark split only), abstracts to
``abstract_support_threshold`` (chosen on the calibration split of the abstract-corpus gate evaluation only).
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.graph.events import emit
from clinrag.graph.runtime import context_of
from clinrag.graph.state import State


def support_gate(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    best = max(state.evidence, key=lambda e: e.support_score, default=None)
    support = best.support_score if best else 0.0
    threshold = ctx.support_threshold_for(best.source_type) if best else ctx.support_threshold
    supported = ctx.supported(state.evidence)
    emit(runtime, "support", support=round(support, 4), threshold=threshold,
         decision="answer" if supported else "abstain")
    if not supported:
        return {
            "support": support,
            "decision": "abstain",
            "abstain_reason": "insufficient_support",
            "reason": (
                f"The corpus does not support an answer: best support score {support:.2f} is below the "
                f"threshold {threshold:.3f}"
                + (" for abstracts." if best and best.source_type == "abstract" else ".")
            ),
        }
    return {"support": support, "decision": "answer"}
