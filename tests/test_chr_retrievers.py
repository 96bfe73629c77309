"""CHR and the baseline retrievers on a tiny corpus where the mimic dominates a plain dense search."""

from __future__ import annotations

import numpy as np
import pytest
from chr_fixtures import MIMIC, MIMIC_DOCS, OPTIONS, QUESTION, TARGET, TARGET_DOCS, write_corpus

from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.retrieval.option_support import answer_from_passages
from clinrag.tools.retrieval.retrievers import (
    RETRIEVERS,
    bm25_search,
    chr_search,
    dense_search,
    evidence_items,
    hyde_search,
    mimic_share,
    query2doc_search,
    retrieve,
    rrf_search,
)


@pytest.fixture(scope="module")
def tiny_index(tmp_path_factory):
    from clinrag.tools.index.store import get_index

    return get_index(str(write_corpus(tmp_path_factory.mktemp("chr"))))


def docs(index, found) -> list[str]:
    return found.doc_ids(index)


def test_chr_ranking_differs_from_dense_when_the_mimic_attracts_dense(tiny_index):
    dense = dense_search(tiny_index, QUESTION, 5)
    assert set(docs(tiny_index, dense)[:2]) <= set(MIMIC_DOCS)  # the mimic owns the dense top
    chr_ = chr_search(tiny_index, QUESTION, TARGET, MIMIC, lam=1.0, pool=50, k=5)
    assert set(docs(tiny_index, chr_)[:2]) == set(TARGET_DOCS)
    assert not set(docs(tiny_index, chr_)) & set(MIMIC_DOCS)  # ruled out entirely at lambda = 1
    assert mimic_share(tiny_index, dense.rows, TARGET, MIMIC) >= 0.6
    assert mimic_share(tiny_index, chr_.rows, TARGET, MIMIC) == 0.0
    # ...and the option-support answerer follows the retrieved evidence.
    assert answer_from_passages(tiny_index, OPTIONS, dense.rows)[0] == "A"
    assert answer_from_passages(tiny_index, OPTIONS, chr_.rows)[0] == "B"


def test_chr_scores_are_target_similarity_minus_lambda_mimic_similarity(tiny_index):
    found = chr_search(tiny_index, QUESTION, TARGET, MIMIC, lam=0.5, pool=50, k=5)
    t, m = embed_cached([TARGET, MIMIC])
    vecs = tiny_index.vectors[found.rows]
    assert np.allclose(found.scores, vecs @ t - 0.5 * (vecs @ m), atol=1e-5)
    assert found.scores == sorted(found.scores, reverse=True)


def test_lambda_controls_how_many_mimic_passages_survive(tiny_index):
    shares = [mimic_share(tiny_index, chr_search(tiny_index, QUESTION, TARGET, MIMIC, lam, 50, 5).rows, TARGET, MIMIC)
              for lam in (0.0, 0.5, 1.0)]
    assert shares[0] > shares[2] and shares == sorted(shares, reverse=True)


def test_chr_pool_and_missing_hypotheses(tiny_index):
    dense = dense_search(tiny_index, QUESTION, 10)
    small_pool = chr_search(tiny_index, QUESTION, TARGET, MIMIC, lam=1.0, pool=3, k=3)
    assert set(small_pool.rows) == set(dense.rows[:3])  # re-scoring never leaves the first-stage pool
    no_hyp = chr_search(tiny_index, QUESTION, None, None, lam=1.0, pool=50, k=5)
    assert no_hyp.rows == dense.rows[:5]  # without hypotheses: query order (lambda = 0)
    target_only = chr_search(tiny_index, QUESTION, TARGET, None, lam=1.0, pool=50, k=5)
    assert np.allclose(target_only.scores, tiny_index.vectors[target_only.rows] @ embed_cached([TARGET])[0], atol=1e-5)


def test_bm25_ranks_by_exact_terms(tiny_index):
    found = bm25_search(tiny_index, "voltage-gated calcium channels presynaptic", 3)
    assert docs(tiny_index, found)[0] == "lems-3"
    assert bm25_search(tiny_index, "the of and", 3).rows == []  # stop words only: nothing to match


def test_hyde_averages_query_and_passage_embeddings(tiny_index):
    found = hyde_search(tiny_index, QUESTION, [TARGET], 5)
    q, t = embed_cached([QUESTION, TARGET])
    mean = (q + t) / np.linalg.norm(q + t)
    assert np.allclose(found.scores, tiny_index.vectors[found.rows] @ mean, atol=1e-5)
    assert docs(tiny_index, found)[0] in TARGET_DOCS  # the hypothesis pulls the target up...
    assert set(docs(tiny_index, found)) & set(MIMIC_DOCS)  # ...but nothing pushes the mimic out
    two = hyde_search(tiny_index, QUESTION, [TARGET, MIMIC], 5)
    assert two.rows != found.rows


def test_query2doc_embeds_query_and_passage_together(tiny_index):
    found = query2doc_search(tiny_index, QUESTION, TARGET, 5)
    vec = embed_cached([f"{QUESTION} [SEP] {TARGET}"])[0]
    assert np.allclose(found.scores, tiny_index.vectors[found.rows] @ vec, atol=1e-5)


def test_rrf_fuses_reciprocal_ranks(tiny_index):
    queries = [QUESTION, TARGET]
    found = rrf_search(tiny_index, queries, k=5, rrf_k=60, depth=50)
    expected: dict[int, float] = {}
    for q in queries:
        for rank, row in enumerate(dense_search(tiny_index, q, 50).rows, start=1):
            expected[row] = expected.get(row, 0.0) + 1 / (60 + rank)
    assert np.allclose(found.scores, [expected[r] for r in found.rows])
    assert found.scores == sorted(expected.values(), reverse=True)[:5]
    sharper = rrf_search(tiny_index, queries, k=5, rrf_k=1, depth=50)
    assert max(sharper.scores) > max(found.scores)  # a smaller constant weights the top ranks more


def test_retrieve_dispatches_by_name_and_defaults_expansions_to_the_target(tiny_index):
    for name in RETRIEVERS:
        found = retrieve(tiny_index, name, QUESTION, target=TARGET, mimic=MIMIC, k=4)
        assert len(found.rows) == 4 and len(set(found.rows)) == 4
    assert (retrieve(tiny_index, "hyde", QUESTION, target=TARGET).rows
            == hyde_search(tiny_index, QUESTION, [TARGET], 5).rows)
    # no generated text and no target: an expansion retriever is plain dense
    assert retrieve(tiny_index, "query2doc", QUESTION).rows == dense_search(tiny_index, QUESTION, 5).rows
    assert retrieve(tiny_index, "rrf", QUESTION, expansions=["ptosis and diplopia"]).rows == \
        rrf_search(tiny_index, [QUESTION, "ptosis and diplopia"], 5).rows
    with pytest.raises(ValueError, match="unknown retriever"):
        retrieve(tiny_index, "colbert", QUESTION)


def test_evidence_items_keep_retrieved_order_with_support(tiny_index):
    found = chr_search(tiny_index, QUESTION, TARGET, MIMIC, lam=1.0, pool=50, k=3)
    items = evidence_items(tiny_index, QUESTION, found)
    assert [i.doc_id for i in items] == docs(tiny_index, found)
    assert all(0 <= i.support_score <= 1 for i in items) and items[0].score == pytest.approx(found.scores[0], abs=1e-6)
