"""The disagreement benchmark as a LangSmith experiment, run offline: the graph as the target (with the NLI-only
baseline computed on the same evidence), one evaluator per headline metric, and the per-split report that
``clinrag eval disagreements --json-out`` writes. The dataset and the scoring are in
:mod:`clinrag.evals.disagreements`."""

from __future__ import annotations

from typing import Any

from clinrag.context import Context
from clinrag.evals.cases import to_examples
from clinrag.evals.disagreements import (
    Case,
    as_plain,
    passed,
    ratio,
    result_outputs,
    score_case,
    summarize,
    value_of,
)


def _case_of(example) -> Case:
    return Case(id=example.id, inputs=example.inputs, outputs=example.outputs, metadata=example.metadata or {})


def _comment(part: dict) -> str:
    bits = [f"missed {part['missed']}"] * bool(part["missed"]) + [f"false {part['false']}"] * bool(part["false"])
    return "; ".join(bits)


# Feedback per case: (key, path of score_case, counts summed above the line, counts summed below it or None for a
# plain count, whether the comment lists the missed and false pairs). The NLI path has no kinds, so its recall counts
# changes with disagreements.
_FEEDBACK = (
    ("frames_recall", "frames", ("hit",), ("gold",), True),
    ("frames_precision", "frames", ("correct",), ("predicted",), False),
    ("frames_false_flags", "frames", ("false_flags",), None, False),
    ("frames_change_recall", "frames", ("change_hit",), ("gold_changes",), False),
    ("nli_recall", "nli", ("hit", "change_hit"), ("gold", "gold_changes"), True),
    ("nli_precision", "nli", ("correct",), ("predicted",), False),
    ("nli_false_flags", "nli", ("false_flags",), None, False),
)


def disagreement_feedback(run, example) -> dict:
    """The LangSmith evaluator: one :func:`score_case` per case, reported as the :data:`_FEEDBACK` keys."""
    scored = score_case(_case_of(example), run.outputs or {})
    results = []
    for key, path, above, below, commented in _FEEDBACK:
        part = scored[path]
        count = sum(part[k] for k in above)
        result = {"key": key, "score": ratio(count, sum(part[k] for k in below)) if below else count}
        if commented:
            result["comment"] = _comment(part)
        results.append(result)
    return {"results": results}


EVALUATORS = [disagreement_feedback]


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
    for e in value_of(result, "evidence") or []:  # several passages of one document count as one document
        doc_id, text = value_of(e, "doc_id"), value_of(e, "text") or ""
        texts[doc_id] = f"{texts[doc_id]} {text}" if doc_id in texts else text
    if len(texts) < 2:
        return []
    backend = primed_backend(get_index(ctx.corpus_path, ctx.index_dir), ctx.nli_backend)
    edges, _ = contradiction_graph(texts, backend, ctx.pair_similarity_threshold)
    return [as_plain(e) for e in edges]


def make_target(ctx: Context, offline: bool = True):
    """The graph as a LangSmith target: question in, ``result_outputs`` plus ``nli_baseline`` edges out."""
    from langsmith import tracing_context

    from clinrag.run import ask

    def target(inputs: dict) -> dict:
        with tracing_context(enabled=not offline):
            result = ask(inputs["question"], ctx)
        return {**result_outputs(result, ctx.contradiction_threshold), "nli_baseline": nli_baseline_edges(result, ctx)}

    return target


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
