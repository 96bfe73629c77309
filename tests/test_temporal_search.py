"""temporal_search with an as-of date: status at that date, each document once, never another topic's documents."""

from __future__ import annotations

import datetime as dt


def test_as_of_labels_status_then_and_stays_on_topic(guideline_index):
    from clinrag.tools import temporal_search

    rows = temporal_search.invoke({"query": "prostate cancer PSA screening", "as_of": "2013-01-01", "k": 5})
    ids = [r["doc_id"] for r in rows]
    assert len(ids) == len(set(ids))  # each document once
    assert {r["topic"] for r in rows} == {"prostate-cancer-screening"}  # no cervical padding
    status = {r["doc_id"]: r["status"] for r in rows}
    assert status["uspstf-prostate-2012"] == "current"  # replaced only in 2018
    assert "uspstf-prostate-2018" not in status and "aua-prostate-2023" not in status


def test_as_of_after_the_replacement_labels_superseded(guideline_index):
    from clinrag.tools.retrieval.temporal import temporal_search_passages

    items = temporal_search_passages(guideline_index, "prostate cancer PSA screening", k=5,
                                     as_of=dt.date(2019, 1, 1), per_document=True)
    status = {i.doc_id: i.status for i in items}
    assert status.get("uspstf-prostate-2012") == "superseded" and status.get("uspstf-prostate-2018") == "current"


def test_as_of_before_every_document_is_empty(guideline_index):
    from clinrag.tools.retrieval.temporal import temporal_search_passages

    assert temporal_search_passages(guideline_index, "breast cancer screening mammography",
                                    as_of=dt.date(2005, 1, 1)) == []
