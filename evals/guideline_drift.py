"""The guideline-drift benchmark: a LangSmith dataset run through ``langsmith.evaluate``.

Rows are LangSmith examples::

    {"id": uuid5, "inputs": {"question"}, "outputs": {"decision", "abstain_reason", "required_doc_ids",
     "must_mention", "must_not_say"}, "metadata": {"split", "topic", "kind"}}

Metrics: complete-evidence-set recall (every required document among the returned evidence), abstention
accuracy on answerable and on unanswerable cases separately, superseded-shown-as-current errors, and the
answer checks (must mention / must not say). Runs offline unless ``--upload`` is given with a LangSmith key.
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field

from clinrag.context import Context
from clinrag.evals.cases import BenchmarkCase, CaseFile, to_examples
from clinrag.evals.langsmith_offline import evaluate_offline, result_rows
from clinrag.evals.langsmith_upload import DatasetSync, experiment_metadata, require_api_key, sync_dataset

CASE_NAMESPACE = uuid.UUID("6f1c1f5e-2f0a-4b8e-9a53-2b1c6d0e7a10")
DATASET_NAME = "clinrag-guideline-drift"
DATASET_DESCRIPTION = (
    "clinrag guideline-drift benchmark: which organizations disagree, how guidance changed (superseded versions "
    "must be retrieved and labelled), insufficient evidence, out-of-scope and unanswerable questions."
)


class CaseInputs(BaseModel):
    question: str = Field(min_length=1)


class CaseOutputs(BaseModel):
    decision: Literal["answer", "abstain"]
    abstain_reason: Literal["out_of_scope", "insufficient_support"] | None = None
    required_doc_ids: list[str] = Field(default_factory=list)
    must_mention: list[str] = Field(default_factory=list)
    must_not_say: list[str] = Field(default_factory=list)


Case = BenchmarkCase[CaseInputs, CaseOutputs]
CASE_FILE = CaseFile("guideline_drift.jsonl", Case, CASE_NAMESPACE)
case_id, default_cases_path, load_cases = CASE_FILE.case_id, CASE_FILE.default_path, CASE_FILE.load


# ---------------------------------------------------------------- per-case checks (LangSmith evaluators)

def _expected(example) -> CaseOutputs:
    return CaseOutputs.model_validate(example.outputs)


def decision_correct(run, example) -> dict:
    exp, out = _expected(example), run.outputs or {}
    ok = out.get("decision") == exp.decision and (
        exp.decision == "answer" or out.get("abstain_reason") == exp.abstain_reason)
    return {"key": "decision_correct", "score": int(ok)}


def evidence_complete(run, example) -> dict:
    exp, out = _expected(example), run.outputs or {}
    if exp.decision != "answer":
        return {"key": "evidence_complete", "score": None}
    got = {e["doc_id"] for e in out.get("evidence", [])}
    missing = sorted(set(exp.required_doc_ids) - got)
    return {"key": "evidence_complete", "score": int(not missing), "comment": f"missing {missing}" if missing else ""}


def superseded_errors(run, example) -> dict:
    """Superseded documents labelled current in the evidence, or cited in the answer without saying so."""
    out = run.outputs or {}
    errors = []
    answer_lines = out.get("answer", "").splitlines()
    for e in out.get("evidence", []):
        if e.get("corpus_status") == "superseded":
            if e["status"] != "superseded":
                errors.append(f"{e['doc_id']} labelled current")
            for line in answer_lines:
                if f"[{e['doc_id']}]" in line and "superseded" not in line.lower():
                    errors.append(f"{e['doc_id']} cited without 'superseded'")
    return {"key": "superseded_as_current", "score": len(errors), "comment": "; ".join(errors)}


def answer_checks(run, example) -> dict:
    exp, out = _expected(example), run.outputs or {}
    text = out.get("answer", "").lower()
    missing = [m for m in exp.must_mention if m.lower() not in text]
    forbidden = [m for m in exp.must_not_say if m.lower() in text]
    comment = "; ".join([f"missing {missing}"] * bool(missing) + [f"says {forbidden}"] * bool(forbidden))
    return {"key": "answer_checks", "score": int(not missing and not forbidden), "comment": comment}


EVALUATORS = [decision_correct, evidence_complete, superseded_errors, answer_checks]


def make_target(ctx: Context, offline: bool = True):
    from langsmith import tracing_context

    from clinrag.run import ask
    from clinrag.tools.index.corpus_store import open_store

    index = open_store(ctx)  # the embedded index or the PostgreSQL corpus, as the Context says

    def target(inputs: dict) -> dict:
        # evaluate() traces the target in "local" mode even with upload_runs=False; the graph's own runs must
        # not reach a tracer that would try to send them.
        with tracing_context(enabled=not offline):
            result = ask(inputs["question"], ctx)
        evidence = [
            {**e, "corpus_status": index.docs[e["doc_id"]].status} for e in result.evidence if e["doc_id"] in index.docs
        ]
        return {
            "decision": result.decision,
            "abstain_reason": result.abstain_reason,
            "evidence": evidence,
            "best_support": max((e["support_score"] for e in result.evidence), default=None),
            "answer": result.answer,
        }

    return target


def run_experiment(
    cases: list[Case], ctx: Context, upload: bool = False, dataset_name: str = DATASET_NAME, on_upload=None
) -> list[dict]:
    """Run every case through ``langsmith.evaluate``; offline (no network) unless ``upload``.

    With ``upload`` (needs LANGSMITH_API_KEY, checked before anything runs) the dataset is created or updated
    first, then the experiment runs on exactly these cases' examples and is uploaded; ``on_upload(sync,
    experiment_name)`` reports what was sent.
    """
    from langsmith import evaluate

    if upload:
        require_api_key()
    target = make_target(ctx, offline=not upload)
    if upload:
        from langsmith import Client

        client = Client()
        sync = upload_dataset(cases, dataset_name, client=client)
        results = evaluate(
            target, data=client.list_examples(dataset_id=sync.dataset_id, example_ids=[c.id for c in cases]),
            evaluators=EVALUATORS, experiment_prefix=dataset_name,
            metadata=experiment_metadata(ctx, [c.metadata for c in cases]),
            description="clinrag guideline-drift benchmark run", max_concurrency=0, client=client,
        )  # fmt: skip
        client.flush()  # runs and feedback leave through a background thread: send them before returning
        if on_upload is not None:
            on_upload(sync, results.experiment_name)
    else:
        results = evaluate_offline(target, to_examples(cases), EVALUATORS)
    return result_rows(results)


def upload_dataset(cases: list[Case], name: str = DATASET_NAME, client=None) -> DatasetSync:
    """Create or update the LangSmith dataset: input/output schemas, stable example ids, one split per example."""
    examples = [
        {"id": c.id, "inputs": c.inputs.model_dump(), "outputs": c.outputs.model_dump(), "metadata": c.metadata,
         "split": c.metadata.get("split")}
        for c in cases
    ]  # fmt: skip
    return sync_dataset(
        name, examples, description=DATASET_DESCRIPTION, inputs_schema=CaseInputs.model_json_schema(),
        outputs_schema=CaseOutputs.model_json_schema(), client=client,
    )  # fmt: skip


def summarize(rows: list[dict]) -> dict:
    def rate(values: list) -> float | None:
        values = [v for v in values if v is not None]
        return round(sum(values) / len(values), 4) if values else None

    answerable = [r for r in rows if r["example"].outputs["decision"] == "answer"]
    unanswerable = [r for r in rows if r["example"].outputs["decision"] == "abstain"]
    support_answerable = [r["outputs"].get("best_support") for r in answerable
                          if r["outputs"].get("best_support") is not None]
    support_unanswerable = [
        r["outputs"].get("best_support") for r in unanswerable
        if r["example"].outputs.get("abstain_reason") == "insufficient_support"
        and r["outputs"].get("best_support") is not None
    ]
    return {
        "n": len(rows),
        "evidence_recall": rate([r["scores"].get("evidence_complete") for r in answerable]),
        "abstention_accuracy_answerable": rate([r["scores"]["decision_correct"] for r in answerable]),
        "abstention_accuracy_unanswerable": rate([r["scores"]["decision_correct"] for r in unanswerable]),
        "superseded_as_current_errors": sum(r["scores"]["superseded_as_current"] for r in rows),
        "answer_checks": rate([r["scores"]["answer_checks"] for r in answerable]),
        "cases_passed": sum(passed(r) for r in rows),
        "min_support_answerable": round(min(support_answerable), 4) if support_answerable else None,
        "max_support_not_covered": round(max(support_unanswerable), 4) if support_unanswerable else None,
    }


def passed(row: dict) -> bool:
    """Whether a case passed every check."""
    s = row["scores"]
    return (s["decision_correct"] == 1 and s.get("evidence_complete") in (1, None)
            and s["superseded_as_current"] == 0 and s["answer_checks"] == 1)


def results_payload(rows: list[dict]) -> dict:
    """Metrics per split and per-case results, as written by ``--json-out``."""
    splits = sorted({r["example"].metadata.get("split", "?") for r in rows})
    per_split = {s: summarize([r for r in rows if r["example"].metadata.get("split", "?") == s]) for s in splits}
    return {
        "metrics": per_split,
        "cases": {
            str(r["example"].id): {
                "question": r["example"].inputs["question"], "split": r["example"].metadata.get("split"),
                "passed": passed(r), "scores": r["scores"], "comments": r["comments"],
                "decision": r["outputs"].get("decision"), "abstain_reason": r["outputs"].get("abstain_reason"),
                "best_support": r["outputs"].get("best_support"),
                "evidence_doc_ids": [e["doc_id"] for e in r["outputs"].get("evidence", [])],
            }
            for r in rows
        },
    }
