"""Benchmark files in the LangSmith example format (one JSON object per line: id, inputs, outputs, metadata with
a ``split``), read the same way for every clinrag benchmark."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel, Field, ValidationError

from clinrag.documents import CorpusError

CaseT = TypeVar("CaseT", bound=BaseModel)
InputsT = TypeVar("InputsT")
OutputsT = TypeVar("OutputsT")


class BenchmarkCase(BaseModel, Generic[InputsT, OutputsT]):
    """One example: a stable id, the question's inputs, the expected outputs, and metadata (with its ``split``).
    Each benchmark names its own: ``Case = BenchmarkCase[CaseInputs, CaseOutputs]``."""

    id: uuid.UUID
    inputs: InputsT
    outputs: OutputsT
    metadata: dict = Field(default_factory=dict)


def builtin_path(name: str) -> Path:
    """A benchmark file shipped in ``clinrag/evals/data``."""
    return Path(str(resources.files("clinrag.evals") / "data" / name))


def read_cases(path: Path | str, model: type[CaseT], split: str = "all") -> list[CaseT]:
    """The cases of ``split`` ("all" for every case); a malformed line is an error naming file, line and field."""
    path = Path(path)
    cases = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                cases.append(model.model_validate_json(line))
            except ValidationError as e:
                raise CorpusError(f"{path}:{lineno}: {e.errors()[0]['loc']}: {e.errors()[0]['msg']}") from None
    return [c for c in cases if split == "all" or c.metadata.get("split") == split]


def stable_id(namespace: uuid.UUID, question: str) -> uuid.UUID:
    """Stable example id: uuid5 of the question in the benchmark's namespace (re-uploads update, not duplicate)."""
    return uuid.uuid5(namespace, question)


def to_examples(cases: list[BenchmarkCase]) -> list:
    """The cases as LangSmith examples (inputs, outputs and metadata as plain dicts)."""
    from langsmith.schemas import Example

    dumped = [c.model_dump() for c in cases]
    return [Example(id=c.id, inputs=d["inputs"], outputs=d["outputs"], metadata=d["metadata"])
            for c, d in zip(cases, dumped)]


@dataclass(frozen=True)
class CaseFile(Generic[CaseT]):
    """A benchmark shipped in ``clinrag/evals/data``: its file name, the model of its lines and the namespace of its
    example ids."""

    name: str
    model: type[CaseT]
    namespace: uuid.UUID

    def default_path(self) -> Path:
        return builtin_path(self.name)

    def load(self, path: Path | str | None = None, split: str = "all") -> list[CaseT]:
        """The cases of ``split`` from ``path`` (default: the shipped file)."""
        return read_cases(path or self.default_path(), self.model, split)

    def case_id(self, question: str) -> uuid.UUID:
        """Stable example id: uuid5 of the question."""
        return stable_id(self.namespace, question)
