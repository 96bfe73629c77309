"""The built-in corpus against its inventory, and corpus validation errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from clinrag.documents import CorpusError, load_documents, load_scope
from clinrag.paths import BUILTIN_CORPUS

INVENTORY = Path(__file__).resolve().parents[2] / "shared" / "corpus-spec" / "guideline_inventory.yaml"


def test_builtin_corpus_matches_inventory():
    if not INVENTORY.is_file():
        pytest.skip("guideline inventory not present beside the repo")
    spec = yaml.safe_load(INVENTORY.read_text())["documents"]
    docs = {d.doc_id: d for d in load_documents()}
    assert [d["doc_id"] for d in spec] == list(docs)
    for entry in spec:
        doc = docs[entry["doc_id"]]
        assert doc.org == entry["org"] and doc.title == entry["title"] and doc.topic == entry["topic"]
        assert doc.issued.isoformat() == str(entry["issued"]) and doc.status == entry["status"]
        assert doc.supersedes == entry.get("supersedes") and doc.superseded_by == entry.get("superseded_by")
        assert doc.population == entry["population"]
        assert 60 <= len(doc.text.split()) <= 240, doc.doc_id


def test_grade_i_is_never_written_as_recommends_against():
    for doc in load_documents():
        for sentence in doc.text.split(". "):
            if "grade I)" in sentence:
                assert "recommends against" not in sentence, (doc.doc_id, sentence)


def test_scope_declaration_travels_with_the_corpus():
    scope = load_scope(BUILTIN_CORPUS)
    ids = {c.id for c in scope.out_of_scope}
    assert {"pregnancy", "emergency", "high_risk_carrier", "dosing_treatment", "symptoms_diagnosis"} <= ids
    emergency = next(c for c in scope.out_of_scope if c.id == "emergency")
    assert "emergency" in emergency.message.lower()


def _write(path: Path, records: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


GOOD = {"doc_id": "d1", "source_type": "guideline", "org": "ORG", "title": "T", "issued": "2020-01-01", "text": "Text."}


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([GOOD, {**GOOD, "doc_id": "d2", "issued": "2020-13-01"}], ":2: field 'issued'"),
        ([GOOD, "{not json"], ":2: invalid JSON"),
        ([{**GOOD, "text": ""}], ":1: field 'text'"),
        ([GOOD, GOOD], ":2: field 'doc_id': duplicate 'd1' (first on line 1)"),
        ([{**GOOD, "status": "superseded"}], "superseded_by is empty"),
        ([{**GOOD, "supersedes": "nope"}], ":1: field 'supersedes': unknown doc_id 'nope'"),
        ([{**GOOD, "colour": "red"}], ":1: field 'colour': Extra inputs are not permitted"),
        ([{**GOOD, "source_type": "blog"}], "field 'source_type'"),
    ],
)
def test_malformed_corpus_names_file_line_and_field(tmp_path, records, message):
    path = _write(tmp_path / "bad.jsonl", records)
    with pytest.raises(CorpusError) as err:
        load_documents(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_year_is_derived_from_issued(tmp_path):
    (doc,) = load_documents(_write(tmp_path / "c.jsonl", [GOOD]))
    assert doc.year == 2020


def test_version_links_named_on_one_side_are_completed(tmp_path):
    """A corpus may name the replacement only on the older version; both directions are filled in, so retrieval
    shows a newer version's predecessor beside it."""
    import json

    from clinrag.documents import load_documents

    base = {"source_type": "guideline", "org": "X", "title": "t", "topic": "lung-cancer-screening", "text": "t"}
    rows = [{**base, "doc_id": "x-2015", "issued": "2015-01-01", "status": "superseded", "superseded_by": "x-2022"},
            {**base, "doc_id": "x-2022", "issued": "2022-01-01", "status": "current"},
            {**base, "doc_id": "y-2020", "issued": "2020-01-01", "status": "current", "supersedes": "y-2010"},
            {**base, "doc_id": "y-2010", "issued": "2010-01-01", "status": "superseded", "superseded_by": "y-2020"}]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    docs = {d.doc_id: d for d in load_documents(path)}
    assert docs["x-2022"].supersedes == "x-2015" and docs["x-2015"].superseded_by == "x-2022"
    assert docs["y-2020"].supersedes == "y-2010" and docs["x-2015"].supersedes is None
