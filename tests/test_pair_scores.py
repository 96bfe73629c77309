"""Index-time sentence-pair scores: which pairs are precomputed, the bounded cache, and the lookup at query time."""

from __future__ import annotations

import numpy as np
import pytest

from clinrag.tools.nli import pair_scores
from clinrag.tools.nli.pair_scores import (
    candidate_pairs,
    forget_pair_scores,
    load_pair_scores,
    precompute_pair_scores,
    score_pairs,
)


class CountingBackend:
    """p_contradiction = 0.1 * len(a) mod 1, deterministic; counts what it is asked to score."""

    def __init__(self, name="counting", fingerprint="counting:1"):
        self.name, self.fingerprint, self.seen = name, fingerprint, []

    def predict(self, pairs):
        self.seen += list(pairs)
        out = np.zeros((len(pairs), 3))
        for i, (a, b) in enumerate(pairs):
            c = (len(a) % 7) / 10
            out[i] = (0.5 - c / 2, 0.5 - c / 2, c)
        return out


@pytest.fixture(autouse=True)
def empty_cache():
    forget_pair_scores()
    yield
    forget_pair_scores()


def _unit(*rows):
    v = np.array(rows, dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_candidates_are_cross_document_related_and_similar():
    sentences = ["a1", "a2", "b1", "c1"]
    docs = ["A", "A", "B", "C"]
    vectors = _unit([1, 0, 0], [0.9, 0.1, 0], [1, 0.05, 0], [0, 0, 1])
    pairs = candidate_pairs(sentences, docs, vectors, {"A": "t", "B": "t", "C": None}, pair_threshold=0.6, neighbours=1)
    assert sorted(pairs) == [(0, 2), (1, 2)]  # never within document A; C is similar to nothing


def test_neighbour_documents_count_without_topics():
    vectors = _unit([1, 0, 0], [0.95, 0.3, 0], [0, 1, 0], [0, 0.9, 0.4])
    docs = ["A", "B", "C", "D"]
    no_topics = dict.fromkeys(docs)
    assert candidate_pairs(["a", "b", "c", "d"], docs, vectors, no_topics, 0.5, neighbours=1) == [(0, 1), (2, 3)]
    assert candidate_pairs(["a", "b", "c", "d"], docs, vectors, no_topics, 0.99, neighbours=1) == []


def test_score_pairs_scores_each_pair_once_and_keeps_order():
    backend = CountingBackend()
    pairs = [("x", "yy"), ("xxx", "y"), ("x", "yy")]
    first = score_pairs(backend, pairs)
    assert backend.seen == [("x", "yy"), ("xxx", "y")]  # the repeat inside one call is scored once
    again = score_pairs(backend, list(reversed(pairs)))
    assert len(backend.seen) == 2  # nothing new scored
    np.testing.assert_allclose(again, first[::-1])
    assert first[1, 2] == pytest.approx(0.3)


def test_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(pair_scores, "_CACHE_MAX", 3)
    backend = CountingBackend()
    score_pairs(backend, [(str(i), "b") for i in range(5)])
    assert len(pair_scores._cache) == 3
    score_pairs(backend, [("0", "b")])  # evicted, scored again
    assert backend.seen.count(("0", "b")) == 2


def test_precomputed_scores_round_trip_and_are_keyed_by_fingerprint(tmp_path):
    sentences, docs = ["alpha x", "beta yy", "gamma zzz"], ["A", "B", "C"]
    vectors = _unit([1, 0], [1, 0.1], [0, 1])
    backend = CountingBackend()
    n = precompute_pair_scores(tmp_path, sentences, docs, vectors, dict.fromkeys(docs), backend, 0.6)
    assert n == 2 and set(backend.seen) == {("alpha x", "beta yy"), ("beta yy", "alpha x")}  # both directions
    forget_pair_scores()
    assert load_pair_scores(tmp_path, sentences, CountingBackend(fingerprint="counting:2")) == 0  # other weights
    fresh = CountingBackend()
    assert load_pair_scores(tmp_path, sentences, fresh) == 2
    probs = score_pairs(fresh, [("beta yy", "alpha x")])
    assert fresh.seen == [] and probs[0, 2] == pytest.approx(0.0)  # len 7 % 7 = 0, served from the file


def test_guideline_index_precomputes_the_contradiction_checks_pairs(guideline_index):
    """A topic's documents meet the contradiction check without a single pair scored at query time."""
    from clinrag.context import Context
    from clinrag.tools.nli.contradiction import contradiction_graph
    from clinrag.tools.nli.pair_scores import primed_backend

    ctx = Context()
    backend = primed_backend(guideline_index, ctx.nli_backend)
    spy = CountingBackend(name=backend.name, fingerprint=pair_scores.fingerprint(backend))
    topic_docs = {d.doc_id: d.text for d in guideline_index.docs.values() if d.topic == "breast-cancer-screening"}
    assert len(topic_docs) >= 3
    edges, _ = contradiction_graph(topic_docs, spy, ctx.pair_similarity_threshold)
    assert edges and spy.seen == []
    assert edges == contradiction_graph(topic_docs, backend, ctx.pair_similarity_threshold)[0]


def test_candidates_keep_the_most_similar_pairs_under_the_cap():
    vectors = _unit([1, 0, 0], [1, 0.05, 0], [1, 0.5, 0], [1, 0.6, 0.1])
    docs = ["A", "B", "C", "D"]
    every = candidate_pairs(["a", "b", "c", "d"], docs, vectors, dict.fromkeys(docs), 0.5, neighbours=3)
    capped = candidate_pairs(["a", "b", "c", "d"], docs, vectors, dict.fromkeys(docs), 0.5, neighbours=3, max_pairs=2)
    sims = {(i, j): float(vectors[i] @ vectors[j]) for i, j in every}
    assert len(every) > 2 and len(capped) == 2
    assert sorted(sims[p] for p in capped) == sorted(sims.values())[-2:]


def test_index_build_can_skip_pair_scores(tmp_path, guideline_index):
    from clinrag.tools.index.store import CorpusIndex, build_index
    from clinrag.tools.nli.pair_scores import PAIR_SCORES_FILE

    assert (guideline_index.index_dir / PAIR_SCORES_FILE).is_file()
    out = build_index(guideline_index.corpus_path, tmp_path / "idx", pair_scores=False)
    assert not (out / PAIR_SCORES_FILE).exists()
    loaded = CorpusIndex.load(guideline_index.corpus_path, out)  # still a valid, current index
    assert loaded.sentences == guideline_index.sentences
