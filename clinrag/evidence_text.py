"""How a piece of evidence is shown in text: its status label, its citation and its most question-relevant
sentences. Shared by the deterministic answer, the agent tool and the terminal display."""

from __future__ import annotations

import numpy as np

from clinrag.schema import EvidenceItem
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.index.text import split_sentences

SENTENCES_PER_SOURCE = 3  # enough for a recommendation, its grade and its age band; more reads as a dump
MIN_SENTENCE_SIMILARITY = 0.25  # below this cosine a sentence is off the question (kept only if it is the best)

def status_label(item: EvidenceItem) -> str:
    if item.status == "superseded":
        return f"SUPERSEDED by {item.superseded_by} (not current guidance)"
    return "current"


def cite(doc_id: str, superseded: set[str]) -> str:
    """A citation; a superseded document is marked as such wherever it is cited."""
    return f"[{doc_id}] (superseded)" if doc_id in superseded else f"[{doc_id}]"


def relevant_sentences(question: str, text: str | list[str], n: int = SENTENCES_PER_SOURCE) -> list[str]:
    """The ``n`` sentences most similar to the question (at least one), in their original order. ``text``: a text,
    or passages (each split as at index build, so no sentence splitter runs at query time)."""
    sentences = split_sentences(text) if isinstance(text, str) else [s for p in text for s in split_sentences(p)]
    if len(sentences) <= 1:
        return sentences
    sims = embed_cached(sentences) @ embed_cached([question])[0]
    order = [int(i) for i in np.argsort(-sims) if sims[i] >= MIN_SENTENCE_SIMILARITY][:n] or [int(np.argmax(sims))]
    return [sentences[i] for i in sorted(order)]


FACET_LABELS = {
    "start_age": "Start age", "stop_age": "Stop age", "interval": "Interval (months)", "action": "Recommendation",
    "threshold": "Threshold", "target": "Target", "eligibility": "Eligibility",
}


def value_text(value) -> str:
    """One document's value on a facet, with its stated strength: "45 (grade B)"."""
    text = value.value.replace("_", " ")
    return f"{text} ({value.strength})" if value.strength else text


def disagreement_line(item, superseded: set[str] = frozenset()) -> str:
    """A typed disagreement or change in one line, the documents that state the same value side by side:
    "Start age, screening mammography: USPSTF 40 (grade B) [uspstf-breast-2024] and ACR 40 [acr-breast-2021];
    ACS 45 (qualified) [acs-breast-2015]". A change lists the versions oldest first, joined by arrows."""
    label = f"{FACET_LABELS.get(item.facet, item.facet)}, {item.intervention}"
    if item.kind == "change":
        steps = sorted(item.values, key=lambda v: v.issued or "")
        return f"{label}, {steps[0].org}: " + " -> ".join(
            f"{value_text(v)} in {(v.issued or '')[:4]} {cite(v.doc_id, superseded)}" for v in steps)
    groups: dict[str, list] = {}
    for v in item.values:
        groups.setdefault(v.value, []).append(v)
    line = f"{label}: " + "; ".join(
        " and ".join(f"{v.org} {value_text(v)} {cite(v.doc_id, superseded)}" for v in vals) for vals in groups.values())
    return line + conflict_note(item)


def conflict_note(item) -> str:
    """Which documents conflict, when the row also lists documents that differ only in wording: " (in
    conflict: ACP with ACS, ACP with USPSTF)"; empty when every pair of different values conflicts."""
    pairs = {tuple(p) for p in getattr(item, "pairs", None) or []}
    if not pairs:
        return ""
    differing = {tuple(sorted((a.doc_id or "", b.doc_id or ""))) for a in item.values for b in item.values
                 if a.doc_id != b.doc_id and a.value != b.value}
    if differing <= pairs:
        return ""
    org = {v.doc_id: v.org or v.doc_id for v in item.values}
    return " (in conflict: " + ", ".join(f"{org.get(a, a)} with {org.get(b, b)}" for a, b in sorted(pairs)) + ")"
