"""clinrag as one tool of a larger agent: ``from clinrag.tools import evidence_tool``.

The tool runs the whole clinrag graph (scope guard, retrieval, contradiction check, support gate, answer) and
gives the calling model a compact evidence map: who says what, when, whether it is still current, where the
sources disagree, and clinrag's decision (answer, or abstain with the reason). The full result (answer text,
passages and scores) travels as the ToolMessage's ``artifact``.

Configuration comes from the parent agent's runtime context (``ToolRuntime``): a clinrag ``Context``, an object
or dict with a ``clinrag`` entry holding one, or a dict / dataclass whose fields include Context field names.
clinrag's custom stream events (``clinrag.scope``, ``clinrag.evidence``, ...) are forwarded to the parent's
stream, so a UI streaming the agent with ``stream_mode="custom"`` sees the evidence map as it forms.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import tool
from pydantic import BaseModel, Field

from clinrag import NOT_MEDICAL_ADVICE
from clinrag.context import Context
from clinrag.evidence_text import disagreement_line, key_sentences, recommendation_sentences, status_label
from clinrag.graph.events import contradiction_entry, disagreement_entry
from clinrag.run import stream_run, to_result
from clinrag.schema import ContradictionEdge, EvidenceItem
from clinrag.tools.frames.schema import Disagreement

TOOL_NAME = "clinrag_evidence"
TOOL_DESCRIPTION = (
    "Look up what published clinical guidance says about a question (the built-in corpus covers cancer screening, "
    "aspirin and statins for primary prevention, blood-pressure and A1C targets). Returns an evidence "
    "map: each organization's position with its issue date, whether it is current or superseded, its key sentences "
    "and [doc_id], the disagreements between sources, and a decision: 'answer', or 'abstain' with the reason (out "
    "of scope, e.g. personal or emergency situations; or not supported by the corpus). Report the organizations "
    "separately with their dates, do not merge them into a consensus, and cite the doc_ids. Not medical advice."
)
CONTEXT_FIELDS = {f.name for f in dataclasses.fields(Context)}


class EvidenceToolArgs(BaseModel):
    question: str = Field(
        min_length=1,
        description="One self-contained question about published clinical guidance, e.g. 'When should average-risk "
        "women start screening mammography, and do the organizations agree?'. State the population, organization "
        "or year when they matter; restate follow-ups in full (not 'and for men?').",
    )
    k: int | None = Field(
        default=None, ge=1, le=20,
        description="Number of evidence passages to retrieve (default: the clinrag Context's k, 6).",
    )


def clinrag_context(parent: Any, k: int | None = None) -> Context:
    """The clinrag Context for this call, taken from the parent agent's runtime context (see the module docstring)."""
    nested = parent.get("clinrag") if isinstance(parent, dict) else getattr(parent, "clinrag", None)
    if nested is not None:
        return clinrag_context(nested, k)
    if isinstance(parent, Context):
        ctx = parent
    elif isinstance(parent, dict):
        ctx = Context(**{name: value for name, value in parent.items() if name in CONTEXT_FIELDS})
    elif parent is not None:
        ctx = Context(**{name: getattr(parent, name) for name in CONTEXT_FIELDS if hasattr(parent, name)})
    else:
        ctx = Context()
    return dataclasses.replace(ctx, k=k) if k else ctx


def evidence_map(state: dict, threshold: float, recommendations: Callable[[str], list[str]] | None = None) -> dict:
    """The compact view for a calling model: one entry per document with its key sentences (``recommendations``:
    doc_id -> a guideline's recommendation sentences, as the answer quotes them)."""
    evidence = [EvidenceItem.model_validate(e) for e in state.get("evidence") or []]
    documents: dict[str, dict] = {}
    texts: dict[str, str] = {}
    for item in evidence:
        texts.setdefault(item.doc_id, []).append(item.text)
        documents.setdefault(item.doc_id, {
            "doc_id": item.doc_id, "org": item.org, "title": item.title, "issued": item.issued,
            "status": status_label(item), "support_score": round(item.support_score, 2),
        })
    question = state.get("question", "")
    for doc_id, entry in documents.items():
        entry["key_sentences"] = key_sentences(question, texts[doc_id],
                                               recommendations(doc_id) if recommendations else None)
    edges = [ContradictionEdge.model_validate(c) for c in state.get("contradictions") or []]
    out = {
        "question": question,
        "decision": state.get("decision") or "abstain",
        "abstain_reason": state.get("abstain_reason"),
        "reason": state.get("reason"),
        "evidence": list(documents.values()),
        "disagreements": [disagreement_entry(Disagreement.model_validate(d)) | {"line": disagreement_line(
            Disagreement.model_validate(d))} for d in state.get("disagreements") or []],
        "contradictions": [contradiction_entry(e) for e in edges if e.score >= threshold],
        "notice": NOT_MEDICAL_ADVICE,
    }
    if out["decision"] == "abstain":
        out["message"] = state.get("answer", "")  # the abstention text, e.g. "seek emergency care"
    return out


# ``runtime`` is injected by the agent (never shown to the model); None when the tool is invoked directly.
@tool(TOOL_NAME, description=TOOL_DESCRIPTION, args_schema=EvidenceToolArgs, response_format="content_and_artifact")
def evidence_tool(question: str, k: int | None = None, runtime: ToolRuntime = None) -> tuple[str, dict]:
    """Run clinrag on one question; the evidence map for the model, the full result as the artifact."""
    from clinrag.graph import graph

    ctx = clinrag_context(getattr(runtime, "context", None), k)
    state = stream_run(graph, {"question": question}, ctx, on_event=getattr(runtime, "stream_writer", None))
    from clinrag.graph.runtime import index_of

    recommendations = recommendation_sentences(index_of(ctx))
    content = json.dumps(evidence_map(state, ctx.contradiction_threshold, recommendations), ensure_ascii=False)
    return content, to_result(state).model_dump(mode="json")
