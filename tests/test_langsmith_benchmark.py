"""A few guideline-drift cases as LangSmith pytest tests (``@pytest.mark.langsmith``).

With ``LANGSMITH_TEST_TRACKING=false`` (conftest's default) the plugin runs them as plain tests and sends
nothing; with tracking on and a LangSmith key, the same tests log their inputs, outputs, reference outputs and
the benchmark's evaluator scores as a LangSmith experiment:

    LANGSMITH_TEST_TRACKING=true LANGSMITH_API_KEY=... pytest tests/test_langsmith_benchmark.py
"""

from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest
from langsmith import testing as t

from clinrag.evals.guideline_drift import EVALUATORS, load_cases, make_target

KINDS = ["disagreement", "change-over-time", "insufficient-evidence", "out-of-scope", "not-covered"]


def _first_of_each_kind():
    cases = load_cases(split="canonical")
    return [next(c for c in cases if c.metadata["kind"] == kind) for kind in KINDS]


@pytest.fixture(scope="module")
def target(guideline_index):
    from clinrag.context import Context

    return make_target(Context())


@pytest.fixture
def no_network(monkeypatch):
    """Tracking is off by default: the plugin must not open any connection."""
    attempts = []
    monkeypatch.setattr(socket.socket, "connect", lambda sock, address: attempts.append(address))
    yield attempts
    assert attempts == [], attempts


def test_tracking_is_off_by_default():
    import os

    assert os.environ["LANGSMITH_TEST_TRACKING"] == "false"


@pytest.mark.langsmith
@pytest.mark.parametrize("case", _first_of_each_kind(), ids=KINDS)
def test_benchmark_case(case, target, no_network):
    t.log_inputs(case.inputs.model_dump())
    t.log_reference_outputs(case.outputs.model_dump())
    outputs = target(case.inputs.model_dump())
    t.log_outputs({k: outputs[k] for k in ("decision", "abstain_reason", "answer")})

    run, example = SimpleNamespace(outputs=outputs), SimpleNamespace(outputs=case.outputs.model_dump())
    scores = {r["key"]: r["score"] for r in (evaluate(run, example) for evaluate in EVALUATORS)}
    for key, score in scores.items():
        if score is not None:
            t.log_feedback(key=key, score=score)
    assert scores["decision_correct"] == 1
    assert scores["evidence_complete"] in (1, None) and scores["superseded_as_current"] == 0
    assert scores["answer_checks"] == 1
