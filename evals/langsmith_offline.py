"""Running a LangSmith evaluation with nothing leaving the machine (the default of every ``clinrag eval``)."""

from __future__ import annotations


def result_rows(results) -> list[dict]:
    """One row per evaluated example: the example, the target's outputs, each evaluator's score by key and the
    comments the evaluators gave."""
    rows = []
    for r in results:
        feedback = r["evaluation_results"]["results"]
        rows.append({"example": r["example"], "outputs": r["run"].outputs or {},
                     "scores": {e.key: e.score for e in feedback},
                     "comments": [e.comment for e in feedback if e.comment]})
    return rows


def evaluate_offline(target, data, evaluators: list) -> list:
    """``langsmith.evaluate`` over local examples, offline; returns the result rows.

    The client cannot send (no background tracing thread, an address that is never contacted), runs are not
    uploaded and tracing is off around the whole evaluation, so neither the target's runs nor the evaluators'
    reach a tracer that sends.
    """
    import warnings

    from langsmith import Client, evaluate, tracing_context

    warnings.filterwarnings("ignore", message=".*upload_runs.*beta")
    offline_client = Client(api_url="http://127.0.0.1:9", api_key="clinrag-offline", auto_batch_tracing=False)
    with tracing_context(enabled=False):
        results = evaluate(target, data=data, evaluators=evaluators, upload_runs=False, max_concurrency=0,
                           disable_evaluator_tracing=True, client=offline_client)
        return list(results)
