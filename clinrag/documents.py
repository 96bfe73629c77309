"""Loading and validating corpora (JSONL of :class:`~clinrag.schema.Document`) and their scope declarations."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import ValidationError

from clinrag.paths import BUILTIN_CORPUS, scope_path_for
from clinrag.schema import Document, ScopeDeclaration


class CorpusError(ValueError):
    """A corpus or scope file is malformed; the message names the file, line and field."""


def _describe(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        field = ".".join(str(p) for p in e["loc"]) or "(record)"
        parts.append(f"field '{field}': {e['msg']}")
    return "; ".join(parts)


def load_documents(path: Path | str = BUILTIN_CORPUS) -> list[Document]:
    """Read and validate every line; raise :class:`CorpusError` on the first bad line, before anything is indexed."""
    path = Path(path)
    docs, seen = read_documents(path)
    _check_links(path, docs, seen)
    return complete_links(docs)


def complete_links(docs: list[Document]) -> list[Document]:
    """The version links made two-way: a corpus may name a replacement only on the older version
    (``superseded_by``) or only on the newer one (``supersedes``); retrieval walks both directions (a newer
    version's predecessors are shown beside it when a question asks what changed), so the missing side is filled in.
    A link that names another document already is left as written."""
    older_of = {d.superseded_by: d.doc_id for d in docs if d.superseded_by}
    newer_of = {d.supersedes: d.doc_id for d in docs if d.supersedes}
    out = []
    for d in docs:
        update = {}
        if d.supersedes is None and d.doc_id in older_of:
            update["supersedes"] = older_of[d.doc_id]
        if d.superseded_by is None and d.doc_id in newer_of:
            update["superseded_by"] = newer_of[d.doc_id]
        out.append(d.model_copy(update=update) if update else d)
    return out


def read_documents(path: Path | str) -> tuple[list[Document], dict[str, int]]:
    """The documents of a JSONL file, each line validated (JSON object, schema, no duplicate doc_id), and the line
    of each doc_id; links between documents are not checked (:func:`load_documents` checks them within a corpus,
    ``clinrag corpus add`` against the corpus database). Raises :class:`CorpusError` naming file, line and field."""
    path = Path(path)
    if not path.is_file():
        raise CorpusError(f"{path}: corpus file not found")
    docs: list[Document] = []
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                raise CorpusError(f"{path}:{lineno}: invalid JSON ({e.msg} at column {e.colno})") from None
            if not isinstance(record, dict):
                raise CorpusError(f"{path}:{lineno}: expected a JSON object, got {type(record).__name__}")
            try:
                doc = Document.model_validate(record)
            except ValidationError as e:
                raise CorpusError(f"{path}:{lineno}: {_describe(e)}") from None
            if doc.doc_id in seen:
                raise CorpusError(
                    f"{path}:{lineno}: field 'doc_id': duplicate '{doc.doc_id}' (first on line {seen[doc.doc_id]})"
                )
            seen[doc.doc_id] = lineno
            docs.append(doc)
    if not docs:
        raise CorpusError(f"{path}: corpus is empty")
    return docs, seen


def _check_links(path: Path, docs: list[Document], lines: dict[str, int]) -> None:
    for doc in docs:
        for field in ("supersedes", "superseded_by"):
            target = getattr(doc, field)
            if target and target not in lines:
                raise CorpusError(
                    f"{path}:{lines[doc.doc_id]}: field '{field}': unknown doc_id '{target}'"
                )


def corpus_hash(docs: list[Document]) -> str:
    """Content hash of a corpus: any change to any record changes it (used to detect stale indexes)."""
    h = hashlib.sha256()
    for doc in docs:
        h.update(doc.model_dump_json().encode())
        h.update(b"\n")
    return h.hexdigest()


def load_scope(corpus_path: Path | str = BUILTIN_CORPUS) -> ScopeDeclaration | None:
    """The scope declaration beside a corpus, or None when the corpus declares none."""
    path = scope_path_for(Path(corpus_path))
    if not path.is_file():
        return None
    import yaml  # only here: a corpus without a scope declaration never needs it

    try:
        # libyaml's safe loader when PyYAML has it (same result, ~10x faster than the pure-Python one)
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        return ScopeDeclaration.model_validate(raw)
    except yaml.YAMLError as e:
        raise CorpusError(f"{path}: invalid YAML ({e})") from None
    except ValidationError as e:
        raise CorpusError(f"{path}: {_describe(e)}") from None
