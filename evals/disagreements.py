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
values: [{doc_id, value, ...}]}``). A predicted Disagreement with n values yields every cross-document pair whose
values differ, as ``(facet, {doc_a, doc_b})``. A predicted pair is *in scope* when its facet is one of the case's
facets and both documents are scope documents; other pairs are counted as ``off_scope`` and otherwise ignored
(the graph compares all retrieved evidence, not only what the question names).

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
scorer; ``run_experiment`` runs the cases through ``langsmith.evaluate`` offline (``evaluate_offline``).
"""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from clinrag.context import Context
from clinrag.evals.cases import builtin_path, read_cases, stable_id

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


class Case(BaseModel):
    id: uuid.UUID
    inputs: CaseInputs
    outputs: CaseOutputs
    metadata: dict = Field(default_factory=dict)


def case_id(question: str) -> uuid.UUID:
    """Stable example id: uuid5 of the question."""
    return stable_id(CASE_NAMESPACE, question)


def default_cases_path() -> Path:
    return builtin_path("disagreements.jsonl")


def load_cases(path: Path | str | None = None, split: str = "all") -> list[Case]:
    return read_cases(path or default_cases_path(), Case, split)


# ---------------------------------------------------------------- reading a system's output


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _dump(obj: Any) -> Any:
    return obj.model_dump() if hasattr(obj, "model_dump") else obj


def predicted_pairs(disagreements: list) -> dict[tuple[str, DocPair], str]:
    """``(facet, {doc_a, doc_b}) -> kind`` for every document pair a disagreement names as conflicting (its
    ``pairs``); for a disagreement that names none (another producer), every cross-document pair of values that
    differ."""
    pairs: dict[tuple[str, DocPair], str] = {}
    for d in disagreements or []:
        facet, kind = _get(d, "facet"), _get(d, "kind") or "disagreement"
        named = [tuple(p) for p in _get(d, "pairs") or []]
        if not named:
            values = [(_get(v, "doc_id"), str(_get(v, "value", "")).strip().lower()) for v in _get(d, "values") or []]
            named = [(da, db) for (da, va), (db, vb) in itertools.combinations(values, 2) if va != vb]
        for da, db in named:
            if da and db and da != db:
                pairs.setdefault((facet, frozenset((da, db))), kind)
    return pairs


def nli_pairs(contradictions: list, threshold: float) -> set[DocPair]:
    """Doc pairs of the contradiction edges scored at or above ``threshold``."""
    out = set()
    for e in contradictions or []:
        da, db, score = _get(e, "doc_a"), _get(e, "doc_b"), _get(e, "score")
        if da and db and da != db and score is not None and score >= threshold:
            out.add(frozenset((da, db)))
    return out


def result_outputs(result: Any, threshold: float) -> dict:
    """The parts of an ``AskResult`` (or its JSON) the benchmark scores, as plain JSON."""
    return {
        "decision": _get(result, "decision"),
        "disagreements": [_dump(d) for d in (_get(result, "disagreements") or [])],
        "contradictions": [_dump(e) for e in (_get(result, "contradictions") or [])],
        "contradiction_threshold": threshold,
        "evidence_doc_ids": [_get(e, "doc_id") for e in (_get(result, "evidence") or [])],
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
        threshold = _get(result, "contradiction_threshold")
    if threshold is None:
        threshold = Context().contradiction_threshold
    exp = case.outputs
    scope, facets = set(exp.docs), set(exp.facets)
    gold_dis = {p.key(): p for p in exp.disagreements}
    gold_chg = {p.key(): p for p in exp.changes}
    agreeing = {p.key() for p in exp.agreeing_pairs}
    unscored = {p.key() for p in exp.unscored_pairs}

    pred = predicted_pairs(_get(result, "disagreements") or [])
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
    nli_edges = _get(result, "nli_baseline")
    if nli_edges is None:
        nli_edges = _get(result, "contradictions") or []
    nli = _pair_level(nli_pairs(nli_edges, threshold), gold_pairs, change_pairs, neutral, agreeing_pairs, scope)
    evidence = _get(result, "evidence_doc_ids")
    if evidence is None and _get(result, "evidence") is not None:
        evidence = [_get(e, "doc_id") for e in _get(result, "evidence")]
    retrieved = None if evidence is None else len([p for p in gold_pairs if p <= set(evidence)])
    return {"expect": "conflict" if gold else "none", "threshold": threshold, "gold_pairs": len(gold_pairs),
            "gold_pairs_retrieved": retrieved, "frames": frames, "frames_pairs": frames_pairs, "nli": nli}


def passed(score: dict, path: str = "frames") -> bool:
    """Whether a path found every gold pair of a case and flagged nothing false."""
    s = score[path]
    return not s["missed"] and not s["false_flags"]


# ---------------------------------------------------------------- aggregation


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarize_path(scores: list[dict], path: str) -> dict:
    """Micro-averaged metrics of one path over the scores of one split (see the module docstring)."""
    parts = [s[path] for s in scores]

    def total(key: str) -> int:
        return sum(p.get(key, 0) for p in parts)

    none_cases = [s for s in scores if s["expect"] == "none"]
    out = {
        "recall": _ratio(total("hit"), total("gold")),
        "change_recall": _ratio(total("change_hit"), total("gold_changes")),
        "precision": _ratio(total("correct"), total("predicted")),
        "false_flags_per_answer": _ratio(total("false_flags"), len(scores)),
        "agreeing_flagged": total("agreeing_flagged"),
        "clean_no_conflict": _ratio(sum(not s[path]["false_flags"] for s in none_cases), len(none_cases)),
        "off_scope_per_answer": _ratio(total("off_scope"), len(scores)),
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
        "gold_pairs_retrieved": _ratio(sum(s["gold_pairs_retrieved"] for s in known),
                                       sum(s["gold_pairs"] for s in known)),
        "frames": summarize_path(scores, "frames"),
        "frames_pairs": summarize_path(scores, "frames_pairs"),
        "nli": summarize_path(scores, "nli"),
    }


# ---------------------------------------------------------------- LangSmith evaluation (offline)


def _case_of(example) -> Case:
    return Case(id=example.id, inputs=example.inputs, outputs=example.outputs, metadata=example.metadata or {})


def _score(run, example) -> dict:
    return score_case(_case_of(example), run.outputs or {})


def _comment(part: dict) -> str:
    bits = [f"missed {part['missed']}"] * bool(part["missed"]) + [f"false {part['false']}"] * bool(part["false"])
    return "; ".join(bits)


def frames_recall(run, example) -> dict:
    s = _score(run, example)["frames"]
    return {"key": "frames_recall", "score": _ratio(s["hit"], s["gold"]), "comment": _comment(s)}


def frames_precision(run, example) -> dict:
    s = _score(run, example)["frames"]
    return {"key": "frames_precision", "score": _ratio(s["correct"], s["predicted"])}


def frames_false_flags(run, example) -> dict:
    s = _score(run, example)["frames"]
    return {"key": "frames_false_flags", "score": s["false_flags"]}


def frames_change_recall(run, example) -> dict:
    s = _score(run, example)["frames"]
    return {"key": "frames_change_recall", "score": _ratio(s["change_hit"], s["gold_changes"])}


def nli_recall(run, example) -> dict:
    s = _score(run, example)["nli"]
    return {"key": "nli_recall", "score": _ratio(s["hit"] + s["change_hit"], s["gold"] + s["gold_changes"]),
            "comment": _comment(s)}


def nli_precision(run, example) -> dict:
    s = _score(run, example)["nli"]
    return {"key": "nli_precision", "score": _ratio(s["correct"], s["predicted"])}


def nli_false_flags(run, example) -> dict:
    s = _score(run, example)["nli"]
    return {"key": "nli_false_flags", "score": s["false_flags"]}


EVALUATORS = [frames_recall, frames_precision, frames_false_flags, frames_change_recall,
              nli_recall, nli_precision, nli_false_flags]


def nli_baseline_edges(result: Any, ctx: Context) -> list[dict]:
    """The NLI-only path on the same evidence: sentence-pair NLI over *every* sentence of the returned documents.

    The graph now sends only sentences without a recommendation frame to NLI (its ``contradictions``), so the
    baseline is recomputed here the way the contradiction check worked before frames: same backend, same pair
    similarity threshold, all sentences.
    """
    from clinrag.tools.index.store import get_index
    from clinrag.tools.nli.contradiction import contradiction_graph
    from clinrag.tools.nli.pair_scores import primed_backend

    texts: dict[str, str] = {}
    for e in _get(result, "evidence") or []:  # several passages of one document count as one document
        doc_id, text = _get(e, "doc_id"), _get(e, "text") or ""
        texts[doc_id] = f"{texts[doc_id]} {text}" if doc_id in texts else text
    if len(texts) < 2:
        return []
    backend = primed_backend(get_index(ctx.corpus_path, ctx.index_dir), ctx.nli_backend)
    edges, _ = contradiction_graph(texts, backend, ctx.pair_similarity_threshold)
    return [_dump(e) for e in edges]


def make_target(ctx: Context, offline: bool = True):
    """The graph as a LangSmith target: question in, ``result_outputs`` plus ``nli_baseline`` edges out."""
    from langsmith import tracing_context

    from clinrag.run import ask

    def target(inputs: dict) -> dict:
        with tracing_context(enabled=not offline):
            result = ask(inputs["question"], ctx)
        return {**result_outputs(result, ctx.contradiction_threshold), "nli_baseline": nli_baseline_edges(result, ctx)}

    return target


def to_examples(cases: list[Case]):
    from langsmith.schemas import Example

    return [Example(id=c.id, inputs=c.inputs.model_dump(), outputs=c.outputs.model_dump(), metadata=c.metadata)
            for c in cases]


def run_experiment(cases: list[Case], ctx: Context, target=None) -> list[dict]:
    """Every case through ``langsmith.evaluate`` offline; ``target`` defaults to the graph (``make_target``).

    Rows: ``{"example", "outputs", "scores" (evaluator key -> score), "comments", "detail" (score_case), "error"}``;
    a case whose target raised has ``error`` set and is scored as an empty answer (``results_payload`` counts them).
    """
    from clinrag.evals.langsmith_offline import evaluate_offline

    results = evaluate_offline(target or make_target(ctx), to_examples(cases), EVALUATORS)
    rows = []
    for r in results:
        outputs = r["run"].outputs or {}
        evals = r["evaluation_results"]["results"]
        error = getattr(r["run"], "error", None)
        rows.append({
            "example": r["example"], "outputs": outputs, "scores": {e.key: e.score for e in evals},
            "comments": [f"{e.key}: {e.comment}" for e in evals if e.comment],
            "detail": score_case(_case_of(r["example"]), outputs, ctx.contradiction_threshold),
            "error": str(error).strip().splitlines()[-1] if error else None,
        })
    return rows


def results_payload(rows: list[dict]) -> dict:
    """Metrics per split (and ``all``) and per-case results, as written by ``--json-out``."""
    splits = sorted({r["example"].metadata.get("split", "?") for r in rows})
    def summary(subset: list[dict]) -> dict:
        return {**summarize([r["detail"] for r in subset]), "errors": sum(bool(r.get("error")) for r in subset)}

    per_split = {s: summary([r for r in rows if r["example"].metadata.get("split", "?") == s]) for s in splits}
    if len(splits) > 1:
        per_split["all"] = summary(rows)
    return {
        "metrics": per_split,
        "cases": {
            str(r["example"].id): {
                "question": r["example"].inputs["question"], "split": r["example"].metadata.get("split"),
                "topic": r["example"].metadata.get("topic"), "passed": passed(r["detail"]), "error": r.get("error"),
                "scores": r["scores"], "detail": r["detail"],
                "predicted_disagreements": len(r["outputs"].get("disagreements", [])),
                "evidence_doc_ids": r["outputs"].get("evidence_doc_ids", []),
            }
            for r in rows
        },
    }
