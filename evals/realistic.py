"""The realistic-questions benchmark: questions written the way people type them, in the LangSmith format.

Rows (``evals/data/realistic.jsonl``)::

    {"id": uuid5, "inputs": {"question"}, "outputs": {"decision", "abstain_reason", "required_doc_ids",
     "forbidden_doc_ids", "must_mention", "must_not_say"}, "metadata": {"split", "kind"}}

Kinds: lay words, typos, personal context with ages, multi-part questions, change over time, a named
organization, as-of dates, other languages, out-of-scope situations and topics the corpus does not cover. The
holdout split (``metadata.split == "holdout"``, 43 cases) was frozen before any tuning.

Metrics per split: **answerable recall** (answered, with every required document among the evidence),
**abstention accuracy** (abstained, for the expected reason), documents returned that the question rules out
(``forbidden_doc_ids``: another organization when one is named, a version issued after an as-of date), and
superseded-as-current errors judged at the question's as-of date (a version replaced only later was current
then). The same run measures the baseline: the graph with question understanding switched off.
"""

from __future__ import annotations

import datetime as dt
import uuid

from pydantic import Field

from clinrag.context import Context
from clinrag.evals import guideline_drift as drift
from clinrag.evals.cases import BenchmarkCase, CaseFile, to_examples
from clinrag.evals.guideline_drift import answer_checks, decision_correct, evidence_complete
from clinrag.evals.langsmith_offline import evaluate_offline, result_rows

CASE_NAMESPACE = uuid.UUID("3d0b9c4e-8f57-4b8a-a3c1-7e2f5a9d1c64")
DATASET_NAME = "clinrag-realistic-questions"


class CaseOutputs(drift.CaseOutputs):
    """The guideline-drift expectations, plus the documents the question rules out."""

    forbidden_doc_ids: list[str] = Field(default_factory=list,
                                         description="Documents the question rules out (other org, later version).")


Case = BenchmarkCase[dict, CaseOutputs]
CASE_FILE = CaseFile("realistic.jsonl", Case, CASE_NAMESPACE)
case_id, default_cases_path, load_cases = CASE_FILE.case_id, CASE_FILE.default_path, CASE_FILE.load


def forbidden_returned(run, example) -> dict:
    """Documents in the evidence that the question rules out."""
    got = {e["doc_id"] for e in (run.outputs or {}).get("evidence", [])}
    bad = sorted(got & set(example.outputs.get("forbidden_doc_ids") or []))
    return {"key": "forbidden_returned", "score": len(bad), "comment": f"returned {bad}" if bad else ""}


def superseded_errors_as_of(run, example) -> dict:
    """A document superseded at the question's as-of date (today without one) labelled current."""
    errors = [f"{e['doc_id']} labelled current" for e in (run.outputs or {}).get("evidence", [])
              if e.get("status_then") == "superseded" and e["status"] != "superseded"]
    return {"key": "superseded_as_current", "score": len(errors), "comment": "; ".join(errors)}


EVALUATORS = [decision_correct, evidence_complete, forbidden_returned, superseded_errors_as_of, answer_checks]


def status_then(doc, docs: dict, as_of: dt.date | None) -> str:
    """A document's status at ``as_of``: superseded only when its successor was issued by then."""
    if doc.status != "superseded" or as_of is None:
        return doc.status
    successor = docs.get(doc.superseded_by or "")
    return "superseded" if successor is None or successor.issued is None or successor.issued <= as_of else "current"


def make_target(ctx: Context, understanding: bool = True):
    from langsmith import tracing_context

    from clinrag.question.understanding import understanding_switched
    from clinrag.run import ask
    from clinrag.tools.index.store import get_index

    index = get_index(ctx.corpus_path, ctx.index_dir)

    def target(inputs: dict) -> dict:
        # evaluate() traces the target locally even offline: the graph's runs must not reach a sending tracer
        with tracing_context(enabled=False), understanding_switched(understanding):
            result = ask(inputs["question"], ctx)
        understood = result.understood.model_dump(mode="json") if getattr(result, "understood", None) else None
        as_of = dt.date.fromisoformat(understood["as_of"]) if understood and understood.get("as_of") else None
        evidence = [{**e, "status_then": status_then(index.docs[e["doc_id"]], index.docs, as_of)}
                    for e in result.evidence if e["doc_id"] in index.docs]
        return {"decision": result.decision, "abstain_reason": result.abstain_reason, "reason": result.reason,
                "evidence": evidence, "answer": result.answer, "understood": understood}

    return target


def run_experiment(cases: list[Case], ctx: Context, understanding: bool = True) -> list[dict]:
    """Every case through ``langsmith.evaluate``, offline; ``understanding=False`` is the baseline."""
    return result_rows(evaluate_offline(make_target(ctx, understanding), to_examples(cases), EVALUATORS))


def answered_complete(row: dict) -> bool:
    return row["scores"]["decision_correct"] == 1 and row["scores"].get("evidence_complete") == 1


def passed(row: dict) -> bool:
    """Every check: decision (and reason), complete evidence, nothing ruled out, no superseded shown as current."""
    s = row["scores"]
    return (s["decision_correct"] == 1 and s.get("evidence_complete") in (1, None) and s["forbidden_returned"] == 0
            and s["superseded_as_current"] == 0)


def summarize(rows: list[dict]) -> dict:
    answerable = [r for r in rows if r["example"].outputs["decision"] == "answer"]
    abstain = [r for r in rows if r["example"].outputs["decision"] == "abstain"]

    def rate(values: list) -> float | None:
        return round(sum(values) / len(values), 4) if values else None

    return {
        "n": len(rows),
        "answerable_recall": rate([answered_complete(r) for r in answerable]),
        "abstention_accuracy": rate([r["scores"]["decision_correct"] == 1 for r in abstain]),
        "forbidden_returned": sum(r["scores"]["forbidden_returned"] for r in rows),
        "superseded_as_current_errors": sum(r["scores"]["superseded_as_current"] for r in rows),
        "cases_passed": sum(passed(r) for r in rows),
    }


def per_split(rows: list[dict]) -> dict:
    splits = sorted({r["example"].metadata.get("split", "?") for r in rows})
    return {s: summarize([r for r in rows if r["example"].metadata.get("split", "?") == s]) for s in splits}


def failure_line(row: dict) -> str:
    out = row["outputs"]
    got = [e["doc_id"] for e in out.get("evidence", [])]
    return (f"[{row['example'].metadata.get('split')}/{row['example'].metadata.get('kind')}] "
            f"{row['example'].inputs['question']!r}: {out.get('decision')}/{out.get('abstain_reason')} "
            f"evidence={got} {'; '.join(row['comments'])}")


def results_payload(rows: list[dict], baseline: list[dict] | None = None) -> dict:
    """Metrics per split (new and baseline) and per-case results, as written by ``--json-out``."""
    base_by_id = {str(r["example"].id): r for r in baseline or []}
    return {
        "metrics": per_split(rows),
        "baseline_metrics": per_split(baseline) if baseline else None,
        "cases": {
            str(r["example"].id): {
                "question": r["example"].inputs["question"], "split": r["example"].metadata.get("split"),
                "kind": r["example"].metadata.get("kind"), "passed": passed(r),
                "baseline_passed": passed(base_by_id[str(r["example"].id)]) if str(r["example"].id) in base_by_id
                else None,
                "scores": r["scores"], "comments": r["comments"], "decision": r["outputs"].get("decision"),
                "abstain_reason": r["outputs"].get("abstain_reason"), "reason": r["outputs"].get("reason"),
                "understood": r["outputs"].get("understood"),
                "evidence_doc_ids": [e["doc_id"] for e in r["outputs"].get("evidence", [])],
            }
            for r in rows
        },
    }
