"""Support score, CHR scoring, org-diverse retrieval and temporal ranking."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from clinrag.tools.index.text import temporal_intent
from clinrag.tools.retrieval.hybrid import contrastive_scores, hybrid_search
from clinrag.tools.retrieval.org_diverse import org_diverse_search_passages
from clinrag.tools.retrieval.temporal import mmr_temporal_rank, recency, temporal_search_passages


def test_support_score_is_absolute(guideline_index):
    related = max(s.support for s in hybrid_search(guideline_index,
                                                   "At what age should colorectal cancer screening start?"))
    unrelated = max(s.support for s in hybrid_search(guideline_index, "Which running shoes are best for a marathon?"))
    assert related > 0.6 and unrelated < 0.3
    # not rescaled per query: the best passage of an unrelated question does not get 1.0
    assert unrelated < related / 2


def test_contrastive_score_penalizes_the_mimic():
    docs = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])
    target, mimic = np.array([0.8, 0.6]), np.array([0.0, 1.0])
    assert np.allclose(contrastive_scores(docs, target, mimic, 0.0), docs @ target)
    scores = contrastive_scores(docs, target, mimic, 1.0)
    assert np.allclose(scores, [0.8, 0.96 - 0.8, 0.6 - 1.0])
    assert np.argmax(docs @ target) == 1 and np.argmax(scores) == 0  # the mimic-like doc loses its lead


def test_chr_changes_ranking_when_mimic_attracts_dense_results(guideline_index):
    question = "Who should be screened?"
    target = "Annual low-dose CT screening for lung cancer in adults aged 50 to 80 who smoke."
    mimic = "Screening mammography for breast cancer in women."
    plain = hybrid_search(guideline_index, question, target=target, mimic=mimic, lam=0.0)
    chr_ = hybrid_search(guideline_index, question, target=target, mimic=mimic, lam=1.0)
    breast_plain = sum(s.passage.meta.topic == "breast-cancer-screening"
                       for s in sorted(plain, key=lambda s: -s.dense)[:10])
    breast_chr = sum(s.passage.meta.topic == "breast-cancer-screening"
                     for s in sorted(chr_, key=lambda s: -s.dense)[:10])
    assert breast_chr < breast_plain


def test_org_diverse_returns_every_organization_current_only(guideline_index):
    items = org_diverse_search_passages(guideline_index, "When should average-risk women start mammography?", k=6)
    assert {"USPSTF", "ACS", "ACR", "ACOG"} <= {i.org for i in items}
    assert all(i.status == "current" for i in items)
    orgs_first = [i.org for i in items][:4]
    assert len(set(orgs_first)) == 4  # one passage per organization before any second passage


def test_change_question_includes_labelled_superseded_version(guideline_index):
    items = org_diverse_search_passages(guideline_index, "How did the USPSTF lung cancer screening advice change?", k=6)
    by_id = {i.doc_id: i for i in items}
    assert by_id["uspstf-lung-2013"].status == "superseded"
    assert by_id["uspstf-lung-2013"].superseded_by == "uspstf-lung-2021"
    assert by_id["uspstf-lung-2021"].status == "current"
    plain = org_diverse_search_passages(guideline_index, "Who should get lung cancer screening?", k=6)
    assert "uspstf-lung-2013" not in {i.doc_id for i in plain}


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What did the USPSTF recommend in 2012?", (True, 2012)),
        ("What used to be the threshold?", (True, None)),
        ("How has the advice changed?", (True, None)),
        ("When should screening start?", (False, None)),
        ("Is screening at age 2012 useful?", (False, None)),
        ("Does a former smoker qualify under today's criteria?", (False, None)),  # 'former' is no time cue
    ],
)
def test_temporal_intent(question, expected):
    assert temporal_intent(question) == expected


def test_recency_formula():
    tau = recency(np.array([2000, 2010, 2020]))
    assert np.allclose(tau, [0.0, 10 / (20 + 1e-5), 20 / (20 + 1e-5)])


def test_mmr_temporal_rank_matches_hand_computation():
    q = np.array([1.0, 0.0])
    d = np.array([[1.0, 0.0], [0.995, 0.0998], [0.6, 0.8]])
    d = d / np.linalg.norm(d, axis=1, keepdims=True)
    years = np.array([2000, 2001, 2020])
    ranked = mmr_temporal_rank(q, d, years, k=3, lam=0.7, alpha=0.7)
    tau = recency(years)
    # step 1: no selected docs, S = 0.7 * 0.7 * cos + 0.3 * tau
    s1 = 0.7 * 0.7 * (d @ q) + 0.3 * tau
    assert ranked[0].position == int(np.argmax(s1)) and ranked[0].s == pytest.approx(s1.max())
    # step 2: redundancy against the first pick
    first = ranked[0].position
    mmr2 = 0.7 * (d @ q) - 0.3 * (d @ d[first])
    s2 = 0.7 * mmr2 + 0.3 * tau
    s2[first] = -np.inf
    assert ranked[1].position == int(np.argmax(s2)) and ranked[1].mmr == pytest.approx(mmr2[ranked[1].position])
    assert sorted(r.position for r in ranked) == [0, 1, 2]


def test_alpha_one_is_pure_mmr_and_alpha_zero_is_pure_recency():
    q = np.array([1.0, 0.0])
    d = np.array([[1.0, 0.0], [0.0, 1.0]])
    years = np.array([2000, 2020])
    assert mmr_temporal_rank(q, d, years, k=1, alpha=1.0)[0].position == 0
    assert mmr_temporal_rank(q, d, years, k=1, alpha=0.0)[0].position == 1


def test_temporal_search_filters_and_as_of(guideline_index):
    old = temporal_search_passages(guideline_index, "prostate cancer PSA screening", k=5, year_to=2012)
    assert old and all(i.year <= 2012 for i in old)
    as_of = temporal_search_passages(
        guideline_index, "prostate cancer PSA screening", k=5, as_of=dt.date(2013, 1, 1), include_superseded=False
    )
    ids = {i.doc_id for i in as_of}
    assert "uspstf-prostate-2012" in ids  # current on that date, superseded only in 2018
    assert "uspstf-prostate-2018" not in ids and "aua-prostate-2023" not in ids
    today = temporal_search_passages(guideline_index, "prostate cancer PSA screening", k=5, include_superseded=False)
    assert "uspstf-prostate-2012" not in {i.doc_id for i in today}


def test_langchain_tools(guideline_index):
    from clinrag.tools import org_diverse_search, temporal_search

    rows = org_diverse_search.invoke({"query": "Should adults take aspirin for primary prevention?", "k": 4})
    # only the question's topic is eligible: its two current documents, not padding from other topics
    assert {r["doc_id"] for r in rows} == {"uspstf-aspirin-2022", "accaha-prevention-2019"}
    assert all(r["status"] in {"current", "superseded"} for r in rows)
    rows = temporal_search.invoke({"query": "aspirin primary prevention", "k": 3, "year_from": 2019})
    assert rows and all(r["year"] >= 2019 for r in rows)
    assert "query" in org_diverse_search.args and "as_of" in temporal_search.args


def test_filtered_dense_search_is_exact_over_the_admitted_passages(guideline_index):
    from clinrag.tools.index.corpus_store import PassageFilter
    from clinrag.tools.index.embeddings import embed_cached

    q = embed_cached(["prostate cancer screening with PSA"])[0]
    where = PassageFilter(issued_by=dt.date(2013, 1, 1))
    rows = guideline_index.dense_search_where(q, 3, where)
    admitted = [r for r in range(guideline_index.passage_count()) if where.admits(guideline_index.passage(r).meta)]
    expected = sorted(admitted, key=lambda r: -float(guideline_index.passage_vectors([r])[0] @ q))[:3]
    assert rows == expected and len(rows) == 3
    assert {guideline_index.passage(r).doc_id for r in rows} <= {"uspstf-prostate-2012", "acs-prostate-2010",
                                                                 "uspstf-cervical-2012"}
    years = PassageFilter(orgs=("USPSTF",), year_from=2018, year_to=2018)
    assert {guideline_index.passage(r).doc_id for r in guideline_index.dense_search_where(q, 50, years)} == {
        d.doc_id for d in guideline_index.docs.values() if d.org == "USPSTF" and d.year == 2018}
    assert guideline_index.dense_search_where(q, 3, PassageFilter(orgs=("nobody",))) == []


def test_a_filter_adds_candidates_the_unfiltered_pool_misses(guideline_index):
    from clinrag.tools.index.corpus_store import PassageFilter

    question = "When should average-risk women start mammography screening?"
    plain = hybrid_search(guideline_index, question, pool=3)
    assert "ACP" not in {s.passage.meta.org for s in plain}
    filtered = hybrid_search(guideline_index, question, pool=3, where=PassageFilter(orgs=("ACP",)))
    assert {s.row for s in plain} < {s.row for s in filtered}
    assert {s.passage.meta.org for s in filtered if s.row not in {p.row for p in plain}} == {"ACP"}
    # the pool is the whole corpus: a filter changes nothing
    whole = guideline_index.passage_count()
    assert [s.row for s in hybrid_search(guideline_index, question, pool=whole)] == \
        [s.row for s in hybrid_search(guideline_index, question, pool=whole, where=PassageFilter(orgs=("ACP",)))]
