"""Shared helpers for the frame tests of whole documents: topic metadata, a one-line summary of a sentence's frames,
documents built from text, and the typed conflicts between them."""

from __future__ import annotations

from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames

BREAST = {"topic": "breast-cancer-screening"}
CERVICAL = {"topic": "cervical-cancer-screening"}
CRC = {"topic": "colorectal-cancer-screening"}
PSA = {"topic": "prostate-cancer-screening"}
LUNG = {"topic": "lung-cancer-screening"}
ASPIRIN = {"topic": "aspirin-primary-prevention"}
STATIN = {"topic": "statin-primary-prevention"}
BP = {"topic": "hypertension-thresholds"}
A1C = {"topic": "diabetes-glycemic-targets"}


def summary(sentence: str, meta: dict) -> list[tuple]:
    """(action, test, age_min, age_max, shortest interval in months) of each frame of one sentence."""
    return [(f.action, f.test, f.population.age_min, f.population.age_max,
             f.interval_months.min if f.interval_months else None) for f in extract_frames(sentence, doc_meta=meta)]


def make_doc(doc_id: str, topic: str, text: str, **extra) -> dict:
    """A current document issued 2023-01-01 by the organization named before the doc_id's first hyphen."""
    return {"doc_id": doc_id, "org": doc_id.split("-")[0].upper(), "issued": "2023-01-01", "status": "current",
            "topic": topic, "population": None, "text": text, **extra}


def conflict_facets(*docs: dict) -> set[tuple[str, tuple]]:
    """(facet, document pair) of every typed conflict among the documents."""
    frames = [f for d in docs for f in document_frames(d)]
    return {(c.facet, tuple(p)) for c in find_conflicts(frames) for p in c.pairs}


def conflicts_on(facet: str, *docs: dict, **options) -> list:
    """The typed conflicts on one facet among the documents (``options`` as :func:`find_conflicts` takes them)."""
    return [c for c in find_conflicts([f for d in docs for f in document_frames(d)], **options) if c.facet == facet]


def frame_rows(sentence: str, meta: dict) -> list[tuple]:
    """(action, age_min, age_max, criteria, conditions, shortest interval in months, test, thresholds, targets) of each
    frame of one sentence, quantities as "name value"."""
    return [(f.action, f.population.age_min, f.population.age_max, f.population.criteria, f.population.conditions,
             f.interval_months.min if f.interval_months else None, f.test,
             [f"{q.name} {q.text()}" for q in f.thresholds], [f"{q.name} {q.text()}" for q in f.targets])
            for f in extract_frames(sentence, doc_meta=meta)]
