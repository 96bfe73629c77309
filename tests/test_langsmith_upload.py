"""``clinrag eval guideline-drift --upload`` against a local stand-in LangSmith API that records every request:
the dataset (schemas, uuid5 example ids, splits) is created, then updated rather than duplicated, and the
experiment (runs with their reference examples, feedback per evaluator) is uploaded."""

from __future__ import annotations

import json
import uuid

import pytest
from langsmith_recorder import API_KEY  # what conftest's ``langsmith_api`` fixture puts in the environment

from clinrag.cli.main import main
from clinrag.evals.guideline_drift import (
    DATASET_NAME,
    EVALUATORS,
    CaseInputs,
    CaseOutputs,
    case_id,
    load_cases,
    upload_dataset,
)  # fmt: skip
from clinrag.evals.langsmith_upload import sync_dataset


def _cases(n: int):
    return [c for c in load_cases(split="canonical") if c.metadata["kind"] in {"disagreement", "out-of-scope"}][:n]


def test_eval_upload_creates_the_dataset_and_uploads_the_experiment(langsmith_api, tmp_path, capsys, guideline_index):
    cases = _cases(2)
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(c.model_dump_json() + "\n" for c in cases))
    assert main(["eval", "guideline-drift", "--cases", str(path), "--upload",
                 "--json-out", str(tmp_path / "r.json")]) == 0
    ids = {str(c.id) for c in cases}
    assert len(langsmith_api.feedback) == len(cases) * len(EVALUATORS)  # flushed before the command returned

    (create,) = langsmith_api.calls("POST", "/datasets")
    assert create["body"]["name"] == DATASET_NAME
    assert create["body"]["inputs_schema_definition"] == CaseInputs.model_json_schema()
    assert create["body"]["outputs_schema_definition"] == CaseOutputs.model_json_schema()
    dataset_id = next(iter(langsmith_api.datasets))

    (bulk,) = langsmith_api.calls("POST", "/examples/bulk")
    sent = {e["id"]: e for e in bulk["body"]}
    assert set(sent) == ids == {str(case_id(c.inputs.question)) for c in cases}  # stable uuid5 ids
    for c in cases:
        example = sent[str(c.id)]
        assert uuid.UUID(example["id"]).version == 5 and example["dataset_id"] == dataset_id
        assert example["inputs"] == {"question": c.inputs.question} and example["outputs"] == c.outputs.model_dump()
        assert example["split"] == "canonical" and example["metadata"]["kind"] == c.metadata["kind"]

    (session,) = langsmith_api.sessions.values()
    assert session["reference_dataset_id"] == dataset_id
    metadata = session["extra"]["metadata"]
    assert metadata["support_threshold"] == 0.512 and metadata["splits"] == ["canonical"] and metadata["cases"] == 2
    assert "corpus_path" not in metadata and "index_dir" not in metadata  # no local paths leave the machine

    assert session["name"].startswith(DATASET_NAME)
    roots = [r for r in langsmith_api.runs.values()
             if r["session_name"] == session["name"] and not r.get("parent_run_id")]
    assert sorted(str(r["reference_example_id"]) for r in roots) == sorted(ids)  # one traced run per example
    assert any(r.get("parent_run_id") and r.get("name") == "scope_guard" for r in langsmith_api.runs.values())
    keys = {f["key"] for f in langsmith_api.feedback}
    assert keys == {"decision_correct", "evidence_complete", "superseded_as_current", "answer_checks"}
    assert {str(f["run_id"]) for f in langsmith_api.feedback} <= {str(r["id"]) for r in roots}

    assert all(r["api_key"] == API_KEY for r in langsmith_api.requests)
    assert langsmith_api.unanswered == []
    out = capsys.readouterr().out
    assert f"LangSmith: dataset {DATASET_NAME} (created; examples: 2 new, 0 changed, 0 unchanged)" in out


def test_second_upload_updates_instead_of_duplicating(langsmith_api):
    cases = _cases(3)
    first = upload_dataset(cases)
    assert first.created and first.examples_created == 3

    again = upload_dataset(cases)
    assert (again.created, again.schema_updated, again.examples_created, again.examples_updated,
            again.examples_unchanged) == (False, False, 0, 0, 3)  # fmt: skip
    assert len(langsmith_api.calls("POST", "/datasets")) == 1
    assert len(langsmith_api.calls("POST", "/examples/bulk")) == 1

    edited = cases[0].model_copy(deep=True)
    edited.outputs.must_mention = [*edited.outputs.must_mention, "2024"]
    changed = upload_dataset([edited, *cases[1:]])
    assert (changed.examples_created, changed.examples_updated, changed.examples_unchanged) == (0, 1, 2)
    (patch,) = langsmith_api.calls("PATCH", "/examples/bulk")
    assert [e["id"] for e in patch["body"]] == [str(edited.id)]
    assert patch["body"][0]["outputs"]["must_mention"][-1] == "2024"
    assert len(langsmith_api.examples) == 3


def test_changed_schema_updates_the_dataset(langsmith_api):
    examples = [{"id": str(uuid.uuid4()), "inputs": {"question": "q"}, "outputs": {"decision": "answer"}}]
    sync_dataset("d", examples, description="v1", inputs_schema={"type": "object"}, outputs_schema={"type": "object"})
    schema = {"type": "object", "required": ["decision"]}
    sync = sync_dataset("d", examples, description="v2", inputs_schema={"type": "object"}, outputs_schema=schema)
    assert sync.schema_updated and not sync.created
    (patch,) = [r for r in langsmith_api.calls("PATCH", "/datasets/") if r["path"] != "/datasets"]
    assert patch["body"] == {"description": "v2", "inputs_schema_definition": {"type": "object"},
                             "outputs_schema_definition": schema}
    assert json.dumps(next(iter(langsmith_api.datasets.values()))["outputs_schema_definition"]) == json.dumps(schema)


def test_sync_without_a_key_is_refused(monkeypatch):
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    with pytest.raises(ValueError, match="LANGSMITH_API_KEY"):
        sync_dataset("d", [], description="", inputs_schema={}, outputs_schema={})
