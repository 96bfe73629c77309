"""Uploading a benchmark to LangSmith: create or update its dataset, then the experiment is run against it.

The dataset is kept in step with the cases file rather than appended to: it is created with input and output
JSON schemas (or its schemas and description are updated when they changed), examples keep their stable uuid5
ids, new cases are created, changed ones updated, and each example carries its split (LangSmith's
``dataset_split``) so the canonical and holdout splits can be filtered in the UI.

Nothing here runs without ``LANGSMITH_API_KEY``: ``require_api_key`` refuses before any client is built, so an
offline run has nothing that could send.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

from pydantic import BaseModel


class DatasetSync(BaseModel):
    """What an upload changed."""

    name: str
    dataset_id: str
    created: bool
    schema_updated: bool
    examples_created: int
    examples_updated: int
    examples_unchanged: int


def experiment_metadata(ctx, case_metadata: list[dict]) -> dict:
    """What an experiment ran with: the clinrag Context (no local paths), the corpus file name, the clinrag version,
    the splits and the number of cases."""
    from clinrag import __version__

    settings = {k: v for k, v in dataclasses.asdict(ctx).items() if k not in {"corpus_path", "index_dir"}}
    return {**settings, "corpus": Path(ctx.corpus_path).name, "clinrag_version": __version__,
            "splits": sorted({m.get("split", "?") for m in case_metadata}), "cases": len(case_metadata)}


def require_api_key() -> None:
    if not os.environ.get("LANGSMITH_API_KEY"):
        raise ValueError("--upload needs LANGSMITH_API_KEY; without it nothing leaves this machine")


def _unchanged(existing, example: dict) -> bool:
    metadata = existing.metadata or {}
    return (
        existing.inputs == example["inputs"]
        and (existing.outputs or {}) == example["outputs"]
        and all(metadata.get(k) == v for k, v in example.get("metadata", {}).items())
        and (not example.get("split") or example["split"] in (metadata.get("dataset_split") or []))
    )


def _as_create(example: dict) -> dict:
    """``create_examples`` calls reference outputs ``reference_outputs`` (``update_examples`` says ``outputs``)."""
    create = {k: v for k, v in example.items() if k != "outputs"}
    return {**create, "reference_outputs": example["outputs"]}


def sync_dataset(
    name: str, examples: list[dict], *, description: str, inputs_schema: dict, outputs_schema: dict, client=None
) -> DatasetSync:
    """Create or update dataset ``name`` so it holds ``examples`` (dicts: id, inputs, outputs, metadata, split)."""
    require_api_key()
    from langsmith import Client
    from langsmith.utils import LangSmithNotFoundError

    client = client or Client()
    created = schema_updated = False
    try:
        dataset = client.read_dataset(dataset_name=name)
    except LangSmithNotFoundError:
        dataset = client.create_dataset(
            name, description=description, inputs_schema=inputs_schema, outputs_schema=outputs_schema
        )
        created = True
    if not created and (dataset.inputs_schema, dataset.outputs_schema, dataset.description) != (
        inputs_schema, outputs_schema, description
    ):
        # The SDK has no call for this; the REST API's dataset update takes the same fields as create.
        response = client.request_with_retries(
            "PATCH", f"/datasets/{dataset.id}", headers={"Content-Type": "application/json"},
            data=json.dumps({"description": description, "inputs_schema_definition": inputs_schema,
                             "outputs_schema_definition": outputs_schema}),
        )  # fmt: skip
        response.raise_for_status()
        schema_updated = True
    existing = {} if created else {str(e.id): e for e in client.list_examples(dataset_id=dataset.id)}
    new = [e for e in examples if str(e["id"]) not in existing]
    changed = [e for e in examples if str(e["id"]) in existing and not _unchanged(existing[str(e["id"])], e)]
    if new:
        client.create_examples(dataset_id=dataset.id, examples=[_as_create(e) for e in new])
    if changed:
        client.update_examples(dataset_id=dataset.id, updates=changed)
    return DatasetSync(
        name=name, dataset_id=str(dataset.id), created=created, schema_updated=schema_updated,
        examples_created=len(new), examples_updated=len(changed),
        examples_unchanged=len(examples) - len(new) - len(changed),
    )  # fmt: skip
