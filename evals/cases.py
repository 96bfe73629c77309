"""Benchmark files in the LangSmith example format (one JSON object per line: id, inputs, outputs, metadata with
a ``split``), read the same way for every clinrag benchmark."""

from __future__ import annotations

import uuid
from importlib import resources
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from clinrag.documents import CorpusError

CaseT = TypeVar("CaseT", bound=BaseModel)


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
