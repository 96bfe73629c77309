"""CHR and the baseline retrievers on a tiny corpus where the mimic dominates a plain dense search."""

from __future__ import annotations

import numpy as np
import pytest
from chr_fixtures import MIMIC, MIMIC_DOCS, OPTIONS, QUESTION, TARGET, TARGET_DOCS, write_corpus

from clinrag import options
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.index.text import content_tokens
from clinrag.tools.retrieval.hybrid import hybrid_search, pool_size
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
    assert len(set(docs(tiny_index, chr_)) & set(MIMIC_DOCS)) <= 1  # at most one of the four mimic passages
    assert mimic_share(tiny_index, dense.rows, TARGET, MIMIC) >= 0.6
    assert mimic_share(tiny_index, chr_.rows, TARGET, MIMIC) <= 0.2
    # ...and the option-support answerer follows the retrieved evidence.
    assert answer_from_passages(tiny_index, OPTIONS, dense.rows)[0] == "A"
    assert answer_from_passages(tiny_index, OPTIONS, chr_.rows)[0] == "B"


def test_chr_fuses_contrastive_dense_rank_with_bm25_of_the_target(tiny_index):
    scored = hybrid_search(tiny_index, QUESTION, target=TARGET, mimic=MIMIC, lam=0.5)
    t, m = embed_cached([TARGET, MIMIC])
    vecs = tiny_index.vectors[[s.row for s in scored]]
    assert np.allclose([s.dense for s in scored], vecs @ t - 0.5 * (vecs @ m), atol=1e-5)
    bm25_target = tiny_index.bm25.get_scores(content_tokens(TARGET))
    assert np.allclose([s.bm25 for s in scored], [bm25_target[s.row] for s in scored])
    dense_rank = {s.row: i for i, s in enumerate(sorted(scored, key=lambda s: (-s.dense, s.row)))}
    bm25_rank = {s.row: i for i, s in enumerate(sorted(scored, key=lambda s: (-s.bm25, s.row)))}  # ties: row order
    assert np.allclose([s.fused for s in scored],
                       [1 / (61 + dense_rank[s.row]) + 1 / (61 + bm25_rank[s.row]) for s in scored])
    found = chr_search(tiny_index, QUESTION, TARGET, MIMIC, lam=0.5, pool=50, k=5)
    assert found.rows == [s.row for s in scored[:5]] and found.scores == [s.fused for s in scored[:5]]


def test_lambda_controls_how_many_mimic_passages_survive(tiny_index):
    shares = [mimic_share(tiny_index, chr_search(tiny_index, QUESTION, TARGET, MIMIC, lam, 50, 5).rows, TARGET, MIMIC)
              for lam in (0.0, 1.0, 2.0)]
    assert shares[0] > shares[2] and shares == sorted(shares, reverse=True)


def test_first_stage_holds_passages_only_the_target_hypothesis_reaches(tiny_index, monkeypatch):
    monkeypatch.setattr(options, "POOL_FRACTION", 0.0)  # pool = exactly the given minimum
    q_top = (docs(tiny_index, dense_search(tiny_index, QUESTION, 1))
             + docs(tiny_index, bm25_search(tiny_index, QUESTION, 1)))
    assert set(q_top) == {"lems-4"}  # the question alone reaches only the mimic...
    plain = {s.passage.doc_id for s in hybrid_search(tiny_index, QUESTION, pool=1)}
    assert plain == {"lems-4"}
    with_target = {s.passage.doc_id for s in hybrid_search(tiny_index, QUESTION, target=TARGET, mimic=MIMIC, pool=1)}
    assert with_target - plain and with_target - plain <= set(TARGET_DOCS)  # ...H+ adds the target's passage
    assert docs(tiny_index, chr_search(tiny_index, QUESTION, TARGET, MIMIC, 1.0, 1, 1))[0] in TARGET_DOCS


def test_pool_grows_with_the_corpus_between_floor_and_cap():
    assert pool_size(10) == 10 and pool_size(100) == options.CANDIDATE_POOL == 50  # small corpora: the floor
    sizes = [pool_size(n) for n in (2_500, 10_000, 20_000, 40_000)]
    assert sizes == [50, 200, 400, 800] and sizes == sorted(sizes)  # 2% of the corpus
    assert pool_size(10**7) == options.POOL_CAP == 1000
    assert pool_size(100, minimum=80) == 80 and pool_size(50_000, minimum=1500) == 1500  # a larger floor wins


def test_chr_without_hypotheses_is_question_hybrid_ranking(tiny_index):
    no_hyp = chr_search(tiny_index, QUESTION, None, None, lam=1.0, pool=50, k=5)
    assert no_hyp.rows == [s.row for s in hybrid_search(tiny_index, QUESTION)[:5]]
    target_only = hybrid_search(tiny_index, QUESTION, target=TARGET, lam=1.0)
    assert np.allclose([s.dense for s in target_only],
                       tiny_index.vectors[[s.row for s in target_only]] @ embed_cached([TARGET])[0], atol=1e-5)


def test_graph_and_harness_run_the_same_chr_function(tiny_index, monkeypatch):
    from clinrag.tools.retrieval import org_diverse

    calls = []
    real = org_diverse.org_diverse_hybrid_search

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(org_diverse, "org_diverse_hybrid_search", spy)
    harness = retrieve(tiny_index, "chr", QUESTION, target=TARGET, mimic=MIMIC, lam=1.0, k=5)
    graph = org_diverse.org_diverse_search_passages(tiny_index, QUESTION, k=5, target=TARGET, mimic=MIMIC, lam=1.0)
    assert len(calls) == 2 and calls[0] == calls[1]
    assert [e.passage_id for e in graph] == harness.passage_ids(tiny_index)
    assert [e.score for e in graph] == pytest.approx(harness.scores, abs=1e-6)


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
