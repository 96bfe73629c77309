"""The ages a question asks about narrow the disagreements shown, through the whole graph on the built-in corpus: a
band ("women aged 75 and older") narrows the stances, a person's age ("my 72 year old dad") every facet."""

from __future__ import annotations

from clinrag.tools.frames.conflicts import ALL_FACETS, find_conflicts
from clinrag.tools.frames.extract import document_frames


def _rows(result) -> dict[str, set[str]]:
    return {d.facet: {v.value for v in d.values} for d in result.disagreements}


def test_a_band_narrows_the_stances_and_keeps_the_other_facets(guideline_index):
    from clinrag.run import ask

    result = ask("Do the USPSTF and the ACS agree on screening mammography for women aged 75 and older?")
    assert result.understood.ages == (75, None)
    rows = _rows(result)
    assert rows["action"] and all("75" in v or "55-up" in v or "45-up" in v or "76-up" in v for v in rows["action"])
    assert not any("40-74" in v or "40-44" in v for v in rows["action"])
    assert "start_age" in rows  # a band may be asked for one part of a question only


def test_a_persons_age_narrows_every_facet(guideline_index):
    from clinrag.run import ask

    dad = ask("Should my 72 year old dad still get PSA tests?")
    assert dad.understood.ages == (72, 72)
    assert set(_rows(dad)) == {"action"}  # start ages of 40 to 55 do not concern a man of 72
    younger = ask("I'm 47, when should I get screened for colorectal cancer?")
    assert "start_age" in _rows(younger)  # 45 against 50 does concern someone of 47


def test_start_and_stop_ages_matter_between_them():
    topic = "colorectal-cancer-screening"
    a = {"doc_id": "a", "org": "A", "issued": "2023-01-01", "status": "current", "topic": topic, "population": None,
         "text": "Screening is recommended for adults aged 45 to 75."}
    b = {**a, "doc_id": "b", "org": "B", "text": "Screening is recommended for adults aged 50 to 70."}
    frames = document_frames(a) + document_frames(b)

    def facets(age):
        return {c.facet for c in find_conflicts(frames, None, (age, age), ALL_FACETS)}

    assert facets(47) == {"start_age"}
    assert facets(60) == set()
    assert facets(73) == {"stop_age"}
    assert {c.facet for c in find_conflicts(frames)} == {"start_age", "stop_age"}
