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


def relevant_sentences(question: str, text: str, n: int = SENTENCES_PER_SOURCE) -> list[str]:
    """The ``n`` sentences most similar to the question (at least one), in their original order."""
    sentences = split_sentences(text)
    if len(sentences) <= 1:
        return sentences
    sims = embed_cached(sentences) @ embed_cached([question])[0]
    order = [int(i) for i in np.argsort(-sims) if sims[i] >= MIN_SENTENCE_SIMILARITY][:n] or [int(np.argmax(sims))]
    return [sentences[i] for i in sorted(order)]
