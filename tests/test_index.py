"""Chunking, the on-disk index, its manifest, and rebuilds that never leave a half-written index."""

from __future__ import annotations

import json

import pytest

from clinrag.documents import CorpusError, load_documents
from clinrag.tools.index.store import CorpusIndex, build_index, chunk_document, stale_reason

DOCS = [
    {"doc_id": "a", "source_type": "guideline", "org": "A", "title": "Alpha screening", "issued": "2020-01-01",
     "topic": "t", "text": "Alpha recommends screening at 50. " * 3},
    {"doc_id": "b", "source_type": "guideline", "org": "B", "title": "Beta screening", "issued": "2021-01-01",
     "topic": "t", "text": "Beta recommends screening at 45. Beta says stop at 75."},
]


def write_corpus(path, docs):
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return path


def test_chunks_are_whole_sentences_and_keep_metadata():
    doc = load_documents()[0]
    passages = chunk_document(doc, max_words=30)
    assert len(passages) > 1
    assert " ".join(p.text for p in passages) == " ".join(doc.text.split())
    assert all(p.meta == doc and p.doc_id == doc.doc_id for p in passages)
    assert [p.passage_id for p in passages] == [f"{doc.doc_id}#{i}" for i in range(len(passages))]


def test_index_manifest_and_staleness(tmp_path):
    corpus = write_corpus(tmp_path / "c.jsonl", DOCS)
    out = build_index(corpus, tmp_path / "idx")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dimension"] == 384 and manifest["n_documents"] == 2
    assert "all-MiniLM-L6-v2" in manifest["embedding_model"]
    docs = load_documents(corpus)
    assert stale_reason(out, docs) is None

    changed = [{**DOCS[0], "text": "Alpha now recommends screening at 40."}, DOCS[1]]
    assert "corpus_hash" in stale_reason(out, load_documents(write_corpus(tmp_path / "c2.jsonl", changed)))

    manifest["embedding_model"] = "some-other-encoder"
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert "embedding_model" in stale_reason(out, docs)
    index = CorpusIndex.load(corpus, out)  # a foreign index is rebuilt, not used
    assert json.loads((out / "manifest.json").read_text())["embedding_model"] != "some-other-encoder"
    assert len(index.passages) == index.vectors.shape[0] == 2


def test_bad_corpus_leaves_existing_index_intact(tmp_path):
    corpus = write_corpus(tmp_path / "c.jsonl", DOCS)
    out = build_index(corpus, tmp_path / "idx")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bad = write_corpus(tmp_path / "bad.jsonl", [DOCS[0], {**DOCS[1], "issued": "yesterday"}])
    with pytest.raises(CorpusError, match=r"bad.jsonl:2: field 'issued'"):
        build_index(bad, out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".idx")] == []


def test_guideline_index_has_every_document(guideline_index):
    assert set(guideline_index.docs) == {p.doc_id for p in guideline_index.passages}
    assert guideline_index.sentence_vectors.shape[0] == len(guideline_index.sentence_rows)


def test_stored_bm25_scores_equal_bm25s(guideline_index):
    """The weights stored at build give bm25s's own scores, without importing bm25s at query time."""
    import bm25s
    import numpy as np

    from clinrag.tools.index.store import embedding_text
    from clinrag.tools.index.text import content_tokens

    reference = bm25s.BM25()
    reference.index([content_tokens(embedding_text(p)) for p in guideline_index.passages], show_progress=False)
    for question in ("When should women start mammography screening?", "aspirin bleeding risk aspirin",
                     "blood pressure target 130/80", "zebra unicorn"):
        terms = content_tokens(question)
        expected = reference.get_scores(terms) if any(t in reference.vocab_dict for t in terms) else 0.0
        assert np.allclose(guideline_index.bm25.get_scores(terms), expected, atol=1e-5)
    assert guideline_index.bm25.get_scores(content_tokens("mammography")).max() > 0


def test_exact_numpy_search_equals_faiss_flat():
    """Small corpora are searched with numpy at query time: the same rows and scores as FAISS IndexFlatIP."""
    import faiss
    import numpy as np

    from clinrag.tools.index.exact import ExactIndex

    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(300, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    queries = vecs[:5] + 0.1 * rng.normal(size=(5, 384)).astype(np.float32)
    flat = faiss.IndexFlatIP(384)
    flat.add(vecs)
    for k in (1, 10, 300, 305):
        expected_scores, expected_rows = flat.search(queries, k)
        scores, rows = ExactIndex(vecs).search(queries, k)
        assert (rows == expected_rows).all()
        assert np.allclose(scores[rows >= 0], expected_scores[expected_rows >= 0], atol=1e-5)


def test_small_index_loads_without_faiss(guideline_index):
    from clinrag.tools.index.exact import ExactIndex

    assert isinstance(guideline_index.faiss_index, ExactIndex) and guideline_index.faiss_index.ntotal == 47
