"""Abstention: the reason, what to do instead, and the notice. Serves both abstain branches."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from clinrag import NOT_MEDICAL_ADVICE
from clinrag.graph.state import State


def abstain(state: State) -> dict:
    parts = ["clinrag abstains: " + (state.reason or "no reason recorded")]
    if state.scope is not None and state.scope.message:
        parts.append(state.scope.message)
    if state.abstain_reason == "out_of_scope":
        parts.append("Please ask a clinician who can assess your situation.")
    parts.append(NOT_MEDICAL_ADVICE)
    text = "\n".join(parts)
    return {"answer": text, "messages": [AIMessage(content=text)]}
