"""The disagreement benchmark: "do they agree / what changed" questions scored on typed conflicts.

Rows are LangSmith examples (the format of the guideline-drift benchmark)::

    {"id": uuid5, "inputs": {"question"},
     "outputs": {"docs", "facets", "disagreements", "agreeing_pairs", "changes", "unscored_pairs"},
     "metadata": {"split": "canonical" | "holdout", "topic", "kind": "disagreement" | "change",
                  "expect": "conflict" | "none"}}

A case's *scope* is its ``docs`` (the documents the question is about) times its ``facets`` (what it asks:
start_age, stop_age, interval, action, threshold, target, eligibility). Within that scope the gold is exhaustive:
every pair of scope documents that both state a value on a scope facet is listed once, as

- a **disagreement** (different organizations, different values),
- a **change** (two versions of one organization's guidance, linked by ``superseded_by``, different values),
- an **agreeing pair** (same value: must not be flagged on that facet), or
- an **unscored pair** (values worded differently but not clearly different in substance: flagging it is
  neither rewarded nor counted as a false flag).

Every gold value carries the document's own words (``quote``); the values are what the corpus text says.

Two systems are scored side by side on the same cases:

**Frames path** (``result.disagreements``: typed ``Disagreement`` dicts ``{kind, facet, intervention, population,
values: [{doc_id, value, ...}], pairs}``). A predicted Disagreement yields the document pairs it names as conflicting
(``pairs``; one that names none, every cross-document pair whose values differ), as ``(facet, {doc_a, doc_b})``.
A predicted pair is *in scope* when its facet is one of the case's facets and both documents are scope documents;
other pairs are counted as ``off_scope`` and otherwise ignored (the graph compares all retrieved evidence, not only
what the question names).

- ``recall``: gold disagreement pairs (facet and unordered doc pair equal) predicted / gold disagreement pairs.
- ``change_recall``: gold change pairs predicted / gold change pairs.
- ``precision``: in-scope predicted pairs that are a gold disagreement or change / in-scope predicted pairs,
  unscored pairs left out of both counts (None when nothing was predicted).
- ``false_flags_per_answer``: in-scope predicted pairs that are neither gold nor unscored, per case;
  ``agreeing_flagged`` counts the subset flagged on a facet where the gold says the pair agrees.
- ``kind_errors``: matched pairs whose predicted kind (disagreement/change) differs from the gold kind.
- ``clean_no_conflict``: share of the cases whose honest answer is "no disagreement / no change" with zero
  false flags.

**NLI-only path** (edges ``{doc_a, doc_b, score, ...}``: the target's ``nli_baseline``, NLI over every sentence
of the returned evidence (``nli_baseline_edges``); a result without it, e.g. a bare ``AskResult``, is read from
``contradictions``, which the graph now computes only over sentences that state no frame): edges with
``score >= contradiction_threshold`` (the run's Context) between two scope documents, scored as facet-agnostic
doc pairs against the gold pairs with the facet dropped: a pair is positive when it disagrees or changed on any
scope facet, neutral when it is only unscored, and an agreeing pair otherwise. Same metrics (recall, change
recall, precision, false flags per answer, agreeing pairs flagged, clean no-conflict answers).
``frames_pairs`` scores the frames path the same facet-agnostic way, for a like-for-like comparison.

``gold_pairs_retrieved`` (per split) is the share of facet-agnostic gold pairs whose two documents are both in
the returned evidence: a ceiling for any path that compares only retrieved documents.

All rates are micro-averaged over the cases of a split. ``score_case(case, result)`` is the plain-python
scorer; :mod:`clinrag.evals.disagreements_experiment` runs the cases through ``langsmith.evaluate`` offline.
"""

from __future__ import annotations

import itertools
import uuid
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from clinrag.context import Context
from clinrag.evals.cases import BenchmarkCase, CaseFile

CASE_NAMESPACE = uuid.UUID("3d0c2a9e-5b7f-4e1a-8c62-9f4b1e7d2a55")
DATASET_NAME = "clinrag-disagreements"
FACETS = ("start_age", "stop_age", "interval", "action", "threshold", "target", "eligibility")
Facet = Literal["start_age", "stop_age", "interval", "action", "threshold", "target", "eligibility"]
DocPair = frozenset  # an unordered pair of doc_ids


class CaseInputs(BaseModel):
    question: str = Field(min_length=1)


class GoldValue(BaseModel):
    doc_id: str
    value: str = Field(description="What the document states on the facet, in short.")
    quote: str = Field(description="The document's own words for it (a substring of its text).")


class GoldPair(BaseModel):
    """Two documents on one facet: a disagreement, a change (docs = [older, newer]) or an agreeing pair."""

    facet: Facet
    kind: Literal["disagreement", "change"] | None = None
    subject: str = ""
    docs: list[str]
    values: list[GoldValue] = Field(default_factory=list)

    @field_validator("docs")
    @classmethod
    def _two_docs(cls, v: list[str]) -> list[str]:
        if len(v) != 2 or v[0] == v[1]:
            raise ValueError("docs must be two different doc_ids")
        return v

    def key(self) -> tuple[str, DocPair]:
        return (self.facet, frozenset(self.docs))


class UnscoredPair(BaseModel):
    facet: Facet
    docs: list[str]
    reason: str = ""

    def key(self) -> tuple[str, DocPair]:
        return (self.facet, frozenset(self.docs))


class CaseOutputs(BaseModel):
    docs: list[str] = Field(min_length=1, description="The documents the question is about (the scope).")
    facets: list[Facet] = Field(min_length=1, description="The facets the question asks about.")
    disagreements: list[GoldPair] = Field(default_factory=list)
    agreeing_pairs: list[GoldPair] = Field(default_factory=list)
    changes: list[GoldPair] = Field(default_factory=list)
    unscored_pairs: list[UnscoredPair] = Field(default_factory=list)


Case = BenchmarkCase[CaseInputs, CaseOutputs]
CASE_FILE = CaseFile("disagreements.jsonl", Case, CASE_NAMESPACE)
case_id, default_cases_path, load_cases = CASE_FILE.case_id, CASE_FILE.default_path, CASE_FILE.load


# ---------------------------------------------------------------- reading a system's output


def value_of(obj: Any, key: str, default: Any = None) -> Any:
    """A field of a result or an example part, whether it is a dict or a model."""
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def as_plain(obj: Any) -> Any:
    """A model as a dict (anything else as it is)."""
    return obj.model_dump() if hasattr(obj, "model_dump") else obj


def predicted_pairs(disagreements: list) -> dict[tuple[str, DocPair], str]:
    """``(facet, {doc_a, doc_b}) -> kind`` for every document pair a disagreement names as conflicting (its
    ``pairs``); for a disagreement that names none (another producer), every cross-document pair of values that
    differ."""
    pairs: dict[tuple[str, DocPair], str] = {}
    for d in disagreements or []:
        facet, kind = value_of(d, "facet"), value_of(d, "kind") or "disagreement"
        named = [tuple(p) for p in value_of(d, "pairs") or []]
        if not named:
            values = [(value_of(v, "doc_id"), str(value_of(v, "value", "")).strip().lower())
                      for v in value_of(d, "values") or []]
            named = [(da, db) for (da, va), (db, vb) in itertools.combinations(values, 2) if va != vb]
        for da, db in named:
            if da and db and da != db:
                pairs.setdefault((facet, frozenset((da, db))), kind)
    return pairs


def nli_pairs(contradictions: list, threshold: float) -> set[DocPair]:
    """Doc pairs of the contradiction edges scored at or above ``threshold``."""
    out = set()
    for e in contradictions or []:
        da, db, score = value_of(e, "doc_a"), value_of(e, "doc_b"), value_of(e, "score")
        if da and db and da != db and score is not None and score >= threshold:
            out.add(frozenset((da, db)))
    return out


def result_outputs(result: Any, threshold: float) -> dict:
    """The parts of an ``AskResult`` (or its JSON) the benchmark scores, as plain JSON."""
    return {
        "decision": value_of(result, "decision"),
        "disagreements": [as_plain(d) for d in (value_of(result, "disagreements") or [])],
        "contradictions": [as_plain(e) for e in (value_of(result, "contradictions") or [])],
        "contradiction_threshold": threshold,
        "evidence_doc_ids": [value_of(e, "doc_id") for e in (value_of(result, "evidence") or [])],
    }


# ---------------------------------------------------------------- scoring one case


def _fmt(key: tuple[str, DocPair] | DocPair) -> str:
    if isinstance(key, tuple):
        return f"{key[0]}:{'~'.join(sorted(key[1]))}"
    return "~".join(sorted(key))


def _pair_level(pred: set[DocPair], gold: set[DocPair], changes: set[DocPair], neutral: set[DocPair],
                agreeing: set[DocPair], scope: set[str]) -> dict:
    in_scope = {p for p in pred if p <= scope}
    scored = in_scope - neutral
    false = scored - gold
    return {
        "gold": len(gold - changes), "hit": len((gold - changes) & in_scope),
        "gold_changes": len(changes), "change_hit": len(changes & in_scope),
        "predicted": len(scored), "correct": len(scored & gold), "false_flags": len(false),
        "agreeing_flagged": len(false & agreeing), "off_scope": len(pred - in_scope),
        "missed": sorted(_fmt(p) for p in gold - in_scope), "false": sorted(_fmt(p) for p in false),
    }


def score_case(case: Case, result: Any, threshold: float | None = None) -> dict:
    """Counts for one case: ``frames`` (facet level), ``frames_pairs`` and ``nli`` (facet-agnostic doc pairs).

    ``result`` is an ``AskResult``, its JSON, or the target's outputs; ``threshold`` defaults to the result's
    ``contradiction_threshold`` and then to the Context's. Each part has ``gold``/``hit`` (disagreement pairs),
    ``gold_changes``/``change_hit``, ``predicted``/``correct`` (in scope, unscored pairs left out),
    ``false_flags``, ``agreeing_flagged``, ``off_scope`` and the ``missed``/``false`` pairs by name.
    """
    if threshold is None:
        threshold = value_of(result, "contradiction_threshold")
    if threshold is None:
        threshold = Context().contradiction_threshold
    exp = case.outputs
    scope, facets = set(exp.docs), set(exp.facets)
    gold_dis = {p.key(): p for p in exp.disagreements}
    gold_chg = {p.key(): p for p in exp.changes}
    agreeing = {p.key() for p in exp.agreeing_pairs}
    unscored = {p.key() for p in exp.unscored_pairs}

    pred = predicted_pairs(value_of(result, "disagreements") or [])
    in_scope = {k: kind for k, kind in pred.items() if k[0] in facets and k[1] <= scope}
    scored = {k: kind for k, kind in in_scope.items() if k not in unscored}
    gold = gold_dis.keys() | gold_chg.keys()
    false = [k for k in scored if k not in gold]
    kind_errors = [k for k, kind in scored.items()
                   if k in gold and kind != ("change" if k in gold_chg else "disagreement")]
    frames = {
        "gold": len(gold_dis), "hit": len(gold_dis.keys() & in_scope.keys()),
        "gold_changes": len(gold_chg), "change_hit": len(gold_chg.keys() & in_scope.keys()),
        "predicted": len(scored), "correct": len(scored.keys() & gold), "false_flags": len(false),
        "agreeing_flagged": len([k for k in false if k in agreeing]), "off_scope": len(pred) - len(in_scope),
        "kind_errors": len(kind_errors),
        "missed": sorted(_fmt(k) for k in gold - in_scope.keys()), "false": sorted(_fmt(k) for k in false),
    }

    gold_pairs = {k[1] for k in gold}
    change_pairs = {k[1] for k in gold_chg}
    neutral = {k[1] for k in unscored} - gold_pairs
    agreeing_pairs = {k[1] for k in agreeing} - gold_pairs - neutral
    frames_pairs = _pair_level({k[1] for k in pred}, gold_pairs, change_pairs, neutral, agreeing_pairs, scope)
    nli_edges = value_of(result, "nli_baseline")
    if nli_edges is None:
        nli_edges = value_of(result, "contradictions") or []
    nli = _pair_level(nli_pairs(nli_edges, threshold), gold_pairs, change_pairs, neutral, agreeing_pairs, scope)
    evidence = value_of(result, "evidence_doc_ids")
    if evidence is None and value_of(result, "evidence") is not None:
        evidence = [value_of(e, "doc_id") for e in value_of(result, "evidence")]
    retrieved = None if evidence is None else len([p for p in gold_pairs if p <= set(evidence)])
    return {"expect": "conflict" if gold else "none", "threshold": threshold, "gold_pairs": len(gold_pairs),
            "gold_pairs_retrieved": retrieved, "frames": frames, "frames_pairs": frames_pairs, "nli": nli}


def passed(score: dict, path: str = "frames") -> bool:
    """Whether a path found every gold pair of a case and flagged nothing false."""
    s = score[path]
    return not s["missed"] and not s["false_flags"]


# ---------------------------------------------------------------- aggregation


def ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarize_path(scores: list[dict], path: str) -> dict:
    """Micro-averaged metrics of one path over the scores of one split (see the module docstring)."""
    parts = [s[path] for s in scores]

    def total(key: str) -> int:
        return sum(p.get(key, 0) for p in parts)

    none_cases = [s for s in scores if s["expect"] == "none"]
    out = {
        "recall": ratio(total("hit"), total("gold")),
        "change_recall": ratio(total("change_hit"), total("gold_changes")),
        "precision": ratio(total("correct"), total("predicted")),
        "false_flags_per_answer": ratio(total("false_flags"), len(scores)),
        "agreeing_flagged": total("agreeing_flagged"),
        "clean_no_conflict": ratio(sum(not s[path]["false_flags"] for s in none_cases), len(none_cases)),
        "off_scope_per_answer": ratio(total("off_scope"), len(scores)),
        "cases_passed": sum(passed(s, path) for s in scores),
    }
    if path == "frames":
        out["kind_errors"] = total("kind_errors")
    return out


def summarize(scores: list[dict]) -> dict:
    known = [s for s in scores if s.get("gold_pairs_retrieved") is not None]
    return {
        "n": len(scores),
        "gold_disagreement_pairs": sum(s["frames"]["gold"] for s in scores),
        "gold_change_pairs": sum(s["frames"]["gold_changes"] for s in scores),
        "gold_pairs_retrieved": ratio(sum(s["gold_pairs_retrieved"] for s in known),
                                       sum(s["gold_pairs"] for s in known)),
        "frames": summarize_path(scores, "frames"),
        "frames_pairs": summarize_path(scores, "frames_pairs"),
        "nli": summarize_path(scores, "nli"),
    }
