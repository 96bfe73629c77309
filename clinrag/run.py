"""Running one question through the graph and shaping the result (shared by the CLI, evals and benchmarks)."""

from __future__ import annotations

from clinrag.context import Context
from clinrag.schema import AskResult


def to_result(state: dict) -> AskResult:
    """The graph's output state as the ``clinrag ask --json`` object."""
    evidence_fields = ("doc_id", "org", "title", "issued", "status", "superseded_by", "source_type", "score",
                       "support_score", "contradiction_salience", "text")
    return AskResult(
        question=state.get("question", ""),
        decision=state.get("decision") or "abstain",
        abstain_reason=state.get("abstain_reason"),
        reason=state.get("reason"),
        evidence=[{f: e.get(f) for f in evidence_fields} for e in state.get("evidence") or []],
        contradictions=state.get("contradictions") or [],
        disagreements=state.get("disagreements") or [],
        hypotheses=state.get("hypotheses"),
        answer=state.get("answer", ""),
    )


def stream_run(graph, inputs: dict, context: Context | None = None, config: dict | None = None, on_event=None) -> dict:
    """Run ``graph`` streaming clinrag's custom events to ``on_event`` as they happen; returns the final state."""
    final: dict = {}
    for mode, chunk in graph.stream(inputs, config, context=context or Context(), stream_mode=["custom", "values"]):
        if mode == "values":
            final = chunk
        elif on_event is not None:
            on_event(chunk)
    return final


def ask(question: str, context: Context | None = None) -> AskResult:
    from clinrag.graph import graph

    return to_result(graph.invoke({"question": question}, context=context or Context()))
