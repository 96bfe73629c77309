"""Support gate: abstain when no retrieved passage supports the question well enough.

The score is absolute (see ``clinrag.tools.retrieval.hybrid``), so the same threshold means the same thing for every
question; it was chosen on the canonical benchmark split only.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.graph.events import emit
from clinrag.graph.runtime import context_of
from clinrag.graph.state import State


def support_gate(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    support = max((e.support_score for e in state.evidence), default=0.0)
    supported = support >= ctx.support_threshold
    emit(runtime, "support", support=round(support, 4), threshold=ctx.support_threshold,
         decision="answer" if supported else "abstain")
    if not supported:
        return {
            "support": support,
            "decision": "abstain",
            "abstain_reason": "insufficient_support",
            "reason": (
                f"The corpus does not support an answer: best support score {support:.2f} is below the "
                f"threshold {ctx.support_threshold:.2f}."
            ),
        }
    return {"support": support, "decision": "answer"}
