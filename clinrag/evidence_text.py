"""How a piece of evidence is shown in text: its status label, its citation and its most question-relevant
sentences. Shared by the deterministic answer, the agent tool and the terminal display."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from clinrag.schema import EvidenceItem
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.index.text import split_sentences, temporal_intent

SENTENCES_PER_SOURCE = 3  # enough for a recommendation, its grade and its age band; more reads as a dump
MIN_SENTENCE_SIMILARITY = 0.25  # below this cosine a sentence is off the question (kept only if it is the best)
# a guideline's recommendation sentence within this cosine of its best retrieved sentence is on the same question
# (MiniLM: the demo question scores 0.72 against the retrieved change narrative and 0.71 against the USPSTF
# recommendation; a recommendation on another subject of the corpus, 0.33)
RECOMMENDATION_MARGIN = 0.15

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
    return most_relevant(question, _sentences_of(text), n)


def _sentences_of(text: str | list[str]) -> list[str]:
    return split_sentences(text) if isinstance(text, str) else [s for p in text for s in split_sentences(p)]


def most_relevant(question: str, sentences: list[str], n: int = SENTENCES_PER_SOURCE) -> list[str]:
    """The ``n`` of ``sentences`` most similar to the question (at least one), in their original order."""
    if len(sentences) <= 1:
        return sentences
    sims = embed_cached(sentences) @ embed_cached([question])[0]
    order = [int(i) for i in np.argsort(-sims) if sims[i] >= MIN_SENTENCE_SIMILARITY][:n] or [int(np.argmax(sims))]
    return [sentences[i] for i in sorted(order)]


def recommendation_sentences(index) -> Callable[[str], list[str]]:
    """doc_id -> the sentences of its stored recommendation frames (an index's ``frames_for``), once each, in
    document order."""
    return lambda doc_id: list(dict.fromkeys(f.sentence for f in index.frames_for(doc_id)))


def key_sentences(question: str, passages: str | list[str], recommendations: list[str] | None = None,
                  n: int = SENTENCES_PER_SOURCE) -> list[str]:
    """The sentences quoted for one document. For a guideline (``recommendations``: its sentences that state a
    recommendation frame, in document order) asked what it recommends rather than how its advice changed, the most
    question-relevant of its recommendation sentences when the best of them is about as relevant as the best
    retrieved sentence (within RECOMMENDATION_MARGIN), so that a retrieved passage narrating an earlier version
    ("Under the earlier 2016 recommendation, screening at 40 to 49 had been an individual decision") or the
    publication does not stand in for what the document recommends now; otherwise the most relevant sentences of
    the retrieved passages (:func:`relevant_sentences`)."""
    if recommendations and not temporal_intent(question)[0]:
        pool = list(dict.fromkeys(recommendations))
        retrieved = _sentences_of(passages)
        query = embed_cached([question])[0]
        best = float(np.max(embed_cached(pool) @ query))
        if best >= MIN_SENTENCE_SIMILARITY and best >= float(np.max(embed_cached(retrieved) @ query,
                                                                   initial=-1.0)) - RECOMMENDATION_MARGIN:
            return most_relevant(question, pool, n)  # already sentences: never split again
    return relevant_sentences(question, passages, n)


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
