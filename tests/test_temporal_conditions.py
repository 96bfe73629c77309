"""Retrieval conditions (most-similar / most- / least-contradictory) on a small abstract corpus; HNSW index."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clinrag.schema import Document
from clinrag.tools.index import store as index_mod
from clinrag.tools.index.store import CorpusIndex, build_index, make_faiss_index
from clinrag.tools.retrieval.retrieval_conditions import check_condition, condition_search

ABSTRACTS = [
    (2001, "Fixturol lowered systolic blood pressure by 10 mmHg in adults with hypertension."),
    (2004, "Fixturol did not lower systolic blood pressure in adults with hypertension."),
    (2008, "Fixturol lowered systolic blood pressure by 25 mmHg in older adults with hypertension."),
    (2012, "Fixturol lowered blood pressure in adults with hypertension, with dizziness in some patients."),
    (2015, "In adults with hypertension, fixturol reduced blood pressure and was well tolerated."),
    (2019, "Fixturol is taken once daily with water, with or without food."),
    (2021, "Knee replacement surgery outcomes in elderly patients with osteoarthritis."),
    (2023, "Blood pressure lowering with fixturol in hypertension: a cohort of adults."),
]


@pytest.fixture(scope="module")
def abstract_index(tmp_path_factory):
    root = tmp_path_factory.mktemp("abstracts")
    docs = [Document(doc_id=f"pmid:{100 + i}", source_type="abstract", org="J Test", title=f"Fixture abstract {i}",
                     year=year, text=text, pmid=str(100 + i)) for i, (year, text) in enumerate(ABSTRACTS)]
    docs.append(Document(doc_id="leaflet:fixturol", source_type="leaflet", org="EMA", title="Fixturol leaflet",
                         text="Fixturol lowers blood pressure in adults with hypertension."))
    corpus = root / "abstracts.jsonl"
    corpus.write_text("".join(d.model_dump_json(exclude_none=True) + "\n" for d in docs))
    build_index(corpus, root / "index", faiss_index_kind="hnsw")
    return CorpusIndex.load(corpus, root / "index")


QUERY = "Does fixturol lower blood pressure in adults with hypertension?"
NO_LEAFLET = frozenset({"label", "leaflet"})


def test_hnsw_index_recorded_in_manifest(abstract_index):
    manifest = json.loads((abstract_index.index_dir / "manifest.json").read_text())
    assert manifest["faiss_index"] == "hnsw"
    assert manifest["hnsw"]["M"] == 16 and manifest["hnsw"]["efConstruction"] == 200
    assert hasattr(abstract_index.faiss_index, "hnsw")


def test_auto_index_kind_by_size(monkeypatch):
    vecs = np.eye(4, 384, dtype=np.float32)
    assert not hasattr(make_faiss_index(vecs), "hnsw")
    monkeypatch.setattr(index_mod, "HNSW_MIN_PASSAGES", 3)
    hnsw = make_faiss_index(vecs)
    assert hasattr(hnsw, "hnsw") and hnsw.hnsw.efConstruction == 200
    _, ids = hnsw.search(vecs[2:3], 1)
    assert ids[0][0] == 2
    with pytest.raises(ValueError):
        make_faiss_index(vecs, "ivf")


def test_most_similar_is_top_k_by_s_one_passage_per_document(abstract_index):
    result = condition_search(abstract_index, QUERY, "most-similar", k=4, exclude_source_types=NO_LEAFLET)
    ids = [e.doc_id for e in result.evidence]
    assert ids == [c.doc_id for c in result.pool[:4]] and len(set(ids)) == 4
    assert [round(e.score, 6) for e in result.evidence] == [round(c.s, 6) for c in result.pool[:4]]
    assert "pmid:106" not in ids  # the knee-surgery abstract is not relevant
    assert not result.edges  # salience is not computed for most-similar


def test_contradiction_conditions_order_by_salience(abstract_index):
    most = condition_search(abstract_index, QUERY, "most-contradictory", k=3, exclude_source_types=NO_LEAFLET)
    least = condition_search(abstract_index, QUERY, "least-contradictory", k=3, exclude_source_types=NO_LEAFLET)
    sal = {c.doc_id: c.salience for c in most.pool}
    assert max(sal.values()) > min(sal.values())
    most_sal = [e.contradiction_salience for e in most.evidence]
    least_sal = [e.contradiction_salience for e in least.evidence]
    assert most_sal == sorted(most_sal, reverse=True) and least_sal == sorted(least_sal)
    assert most_sal[0] == pytest.approx(max(sal.values()), abs=1e-4)
    assert least_sal[0] == pytest.approx(min(sal.values()), abs=1e-4)
    assert "pmid:101" in {e.doc_id for e in most.evidence}  # "did not lower": contradicts the others
    assert {e.doc_id for e in most.evidence}.isdisjoint({e.doc_id for e in least.evidence})
    assert most.edges and most.edges[0].score >= most.edges[-1].score


def test_ground_truth_leaflet_never_returned(abstract_index):
    for condition in ("most-similar", "most-contradictory", "least-contradictory"):
        result = condition_search(abstract_index, QUERY, condition, k=9, exclude_source_types=NO_LEAFLET)
        assert "leaflet:fixturol" not in {e.doc_id for e in result.evidence} | {c.doc_id for c in result.pool}
    unfiltered = condition_search(abstract_index, QUERY, "most-similar", k=9)
    assert "leaflet:fixturol" in {e.doc_id for e in unfiltered.evidence}  # it would be found without the filter


def test_unknown_condition_is_an_error():
    with pytest.raises(ValueError, match="most-similar"):
        check_condition("most-recent")


def test_temporal_search_tool_takes_condition_from_argument_or_context(abstract_index, monkeypatch):
    from clinrag.tools import temporal_search

    monkeypatch.setenv("CLINRAG_CORPUS_PATH", str(abstract_index.corpus_path))
    monkeypatch.setenv("CLINRAG_INDEX_DIR", str(abstract_index.index_dir))
    rows = temporal_search.invoke({"query": QUERY, "k": 3, "condition": "most-contradictory"})
    assert len(rows) == 3 and rows[0]["contradiction_salience"] >= rows[-1]["contradiction_salience"] > 0
    monkeypatch.setenv("CLINRAG_RETRIEVAL_CONDITION", "least-contradictory")
    least = temporal_search.invoke({"query": QUERY, "k": 3})
    assert least[0]["contradiction_salience"] <= rows[-1]["contradiction_salience"]
    assert len({r["doc_id"] for r in least}) == 3  # one passage per document under a condition


def test_ask_cli_retrieves_under_a_condition(abstract_index, capsys):
    from clinrag.cli.main import main

    args = ["ask", "--json", "-k", "3", "--corpus", str(abstract_index.corpus_path), "--index-dir",
            str(abstract_index.index_dir), QUERY]
    assert main([*args[:1], "--condition", "most-contradictory", *args[1:]]) == 0
    out = json.loads(capsys.readouterr().out)
    ids = [e["doc_id"] for e in out["evidence"]]
    assert len(ids) == 3 == len(set(ids)) and "pmid:101" in ids  # the contradicting abstract is brought in
    assert main([*args[:1], "--condition", "least-contradictory", *args[1:]]) == 0
    least = [e["doc_id"] for e in json.loads(capsys.readouterr().out)["evidence"]]
    assert "pmid:101" not in least
