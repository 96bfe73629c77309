"""Frames and conflicts for a programme's first invitation "within six months of their 50th birthday", a letter's
addressee, "another scan two years later", "once per calendar year", a reason that names a test, "no right or wrong
answer", leaving a pathway, "no recommendation is made", "lower than the 7% goal", an insurer's frequency limit, who
else "may enter from age 40", and what follows a result (``tools/frames/ages.py``, ``no_stance.py``,
``intervals.py``, ``examinations.py``, ``action_cues.py``, ``set_aside.py``, ``rules.py``, ``programme_cues.py``,
``pairing.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BREAST, CERVICAL, CRC, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.extract import extract_frames


def test_a_programmes_first_invitation_and_a_letters_addressee_set_the_start_age():
    assert _summary("Women are first invited within six months of their 50th birthday and are then recalled every 24 "
                    "months up to and including age 69.", BREAST) == [("recommend", None, 50, 69, 24)]
    old = {**_doc("nd-2017", CRC["topic"], "Dear resident, the bowel screening programme is writing to you because you "
                  "are now aged between 60 and 74. We will post you a home stool test kit every two years."),
           "status": "superseded", "superseded_by": "nd-2024"}
    new = {**_doc("nd-2024", CRC["topic"], "Dear resident, you are receiving this letter because you are aged 50 to "
                  "74. A FIT kit will be posted to you every other year."), "issued": "2024-01-01"}
    assert ("start_age", ("nd-2017", "nd-2024")) in _facets(old, new)


def test_another_scan_later_and_once_per_calendar_year_are_schedules():
    assert _summary("If your first scan is clear, you will be invited back for another scan two years later.",
                    LUNG) == [("recommend", None, None, None, 24)]
    frames = extract_frames("Screening colonoscopy is covered no more than once every ten years, and FIT once per "
                            "calendar year, for members aged 45 through 75.", doc_meta=CRC)
    assert {f.test: f.interval_months.min for f in frames} == {"colonoscopy": 120, "FIT": 12}


def test_a_reason_names_no_test():
    """"..., because a negative HPV result in older women means a very low risk" says why the interval is longer: the
    leaflet still names no test, so its schedule is compared with a statement's HPV testing."""
    sentence = ("If you are 25 to 49 we will invite you every 3 years, and if you are 50 to 65 we will invite you "
                "every 5 years, because a negative HPV result in older women means a very low risk.")
    assert [f.test for f in extract_frames(sentence, doc_meta=CERVICAL)] == [None, None]
    leaflet = _doc("hc-cx", CERVICAL["topic"], sentence)
    statement = _doc("dg-cx", CERVICAL["topic"], "The Society recommends primary high-risk HPV testing every 5 years "
                     "for women aged 25 through 65 (grade A).")
    assert ("interval", ("dg-cx", "hc-cx")) in _facets(leaflet, statement)


def test_stances_in_leaflets_and_pathways():
    assert [f.action for f in extract_frames("If you are aged 50 to 69, you can choose to have the test after talking "
                                             "it through with your doctor; there is no right or wrong answer.",
                                             doc_meta=PSA)] == ["individual_decision"]
    assert _summary("Step 5: men older than 75 leave the pathway and are not recalled.", PSA) == [
        ("recommend_against", None, 76, None, None)]
    assert extract_frames("As in the previous edition, no recommendation is made about starting statins after age 75.",
                          doc_meta=STATIN) == []


def test_a_goal_named_as_the_usual_one_is_no_new_goal():
    """"achieving A1C levels lower than the 7% goal may be acceptable" refers to the goal of 7%: it states no goal of
    7% without a comparator, so an edition that keeps "<7%" has not changed its goal."""
    [frame] = extract_frames("On the basis of provider judgement and patient preference, achieving A1C levels lower "
                             "than the 7% goal may be acceptable, if it can be done safely.", doc_meta=A1C)
    assert frame.targets == []
    old = {**_doc("od-2014", A1C["topic"], "Lowering A1C to below 7.0% (53 mmol/mol) is the recommended goal for many "
                  "nonpregnant adults with type 2 diabetes (grade A)."), "status": "superseded",
           "superseded_by": "od-2021"}
    new = {**_doc("od-2021", A1C["topic"], "An A1C goal for many nonpregnant adults of less than 7% (53 mmol/mol) is "
                  "appropriate (grade A). Achieving A1C levels lower than the 7% goal may be acceptable if it can be "
                  "done safely."), "issued": "2021-01-01"}
    assert _facets(old, new) == set()


def test_an_insurers_frequency_limit_is_how_often_it_covers():
    assert _summary("One screening mammogram is covered per 12-month period; a second screening study within 12 "
                    "months of the last is considered not medically necessary.", BREAST) == [
        ("recommend", None, None, None, 12)]


def test_who_else_may_enter_a_pathway_is_a_recommendation_of_its_own():
    """"men aged 45 to 75 ...; men of Black ancestry or with a father or brother diagnosed with prostate cancer may
    enter from age 40": from 45 for every man (the start age compared with others), from 40 for the higher-risk
    groups (the age follows the men's verb, so it is not the relatives' age at diagnosis)."""
    frames = extract_frames("Step 1: check eligibility: men aged 45 to 75 with a life expectancy of at least ten "
                            "years; men of Black ancestry or with a father or brother diagnosed with prostate cancer "
                            "may enter from age 40.", doc_meta=PSA)
    assert [(f.action, f.population.age_min, sorted(f.population.criteria)) for f in frames] == [
        ("recommend", 45, ["life expectancy >= 10 years"]), ("recommend", 40, ["Black ancestry", "family history"])]


def test_what_follows_a_result_takes_no_stance():
    """A decision aid's "a repeat test every two years is enough" and "A raised PSA usually leads to an MRI scan
    before a biopsy is considered" say what happens after a result; its stance is the individual decision it states,
    which agrees with a statement's grade C."""
    aid = _doc("rm-psa", PSA["topic"], "Whether to have a PSA test is your choice, made together with your doctor, if "
               "you are aged 55 to 69. If your first result is normal, a repeat test every two years is enough for "
               "most men. A raised PSA usually leads to an MRI scan before a biopsy is considered.")
    statement = _doc("sp-psa", PSA["topic"], "For men aged 55 to 69 years, the decision to undergo periodic PSA-based "
                     "screening should be an individual one (grade C).")
    assert "action" not in {facet for facet, _ in _facets(aid, statement)}
