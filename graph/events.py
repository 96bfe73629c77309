"""Custom stream events: the evidence map as it forms, for UIs (``stream_mode="custom"``).

Every event is a JSON object with a ``type`` of the form ``clinrag.<what>``, so a parent graph or UI that mixes
several sources can tell clinrag's apart:

- ``clinrag.follow_up``: a chat turn resolved against the earlier turns (asked, previous, resolved, method)
- ``clinrag.scope``: the scope decision (question, in_scope, category, reason)
- ``clinrag.evidence``: the retrieved evidence, one compact entry per passage
- ``clinrag.contradictions``: typed disagreements between recommendation frames, and NLI-flagged sentence pairs
  (pairs at or above the contradiction threshold)
- ``clinrag.support``: the support gate's score, threshold and decision

Nodes emit through their ``Runtime``'s stream writer, which is a no-op unless the caller streams in ``custom``
mode (and absent when a node is called directly), so emitting costs nothing otherwise.
"""

from __future__ import annotations

from typing import Any

from clinrag.schema import ContradictionEdge, EvidenceItem

EVENT_PREFIX = "clinrag."


def emit(runtime: Any, event: str, **data: Any) -> None:
    """Send one custom stream event; silently nothing when the run is not streamed in ``custom`` mode."""
    writer = getattr(runtime, "stream_writer", None)
    if writer is not None:
        writer({"type": EVENT_PREFIX + event, **data})


def evidence_entry(item: EvidenceItem) -> dict:
    """One evidence passage without its text: who said it, when, whether it is still current, how well it supports."""
    return {
        "doc_id": item.doc_id, "org": item.org, "title": item.title, "issued": item.issued, "year": item.year,
        "status": item.status,
        "superseded_by": item.superseded_by, "support_score": round(item.support_score, 4),
    }


def when_label(entry: dict) -> str:
    """When an evidence entry's source is from: "issued 2021-05-18" (guidelines), "2008" (abstracts carry a year),
    or "undated"."""
    if entry.get("issued"):
        return f"issued {entry['issued']}"
    return str(entry["year"]) if entry.get("year") else "undated"


def contradiction_entry(edge: ContradictionEdge) -> dict:
    return {"doc_a": edge.doc_a, "doc_b": edge.doc_b, "score": round(edge.score, 4),
            "sentence_a": edge.sentence_a, "sentence_b": edge.sentence_b}


def disagreement_entry(item) -> dict:
    """One typed disagreement: facet, intervention, kind and each document's value."""
    return {"kind": item.kind, "facet": item.facet, "intervention": item.intervention,
            "values": [{"doc_id": v.doc_id, "org": v.org, "value": v.value, "strength": v.strength}
                       for v in item.values],
            "pairs": [list(p) for p in item.pairs]}
