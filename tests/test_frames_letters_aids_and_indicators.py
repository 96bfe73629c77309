"""Frames and conflicts for invitation letters ("you are being invited", "no longer be invited", "receives their
first invitation", "we will write to you again in three years"), decision aids (who the test is meant for, the GP's
usual offer, the stop age of a decision aid's population), pathway steps (the patient who opts in, a referral on a
result), a quality indicator's level of control, co-testing written out, a test replaced by another, numbers in words
in criteria, a family history named as absent, a trend among an age group, and schedules of different tests for the
same ages (``tools/frames/action_cues.py``, ``ages.py``, ``intervals.py``, ``lexicon.py``, ``quantities.py``,
``examinations.py``, ``bands.py``, ``pairing.py``, ``schedules.py``)."""

from __future__ import annotations

import pytest
from frame_fixtures import A1C, BREAST, CERVICAL, CRC, PSA
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _frames

from clinrag.tools.frames.ages import age_bounds
from clinrag.tools.frames.extract import document_frames, extract_frames


def test_an_invitation_letter_says_who_is_invited_and_when_invitations_stop():
    assert _frames("You are being invited for breast screening because you are a woman between the ages of 53 and "
                   "70.", BREAST) == [("recommend", None, 53, 70, None)]
    assert _frames("Once you are over 70 you will no longer be invited automatically.", BREAST) == [
        ("recommend_against", None, 71, None, None)]
    letter = _doc("bh-breast", BREAST["topic"],
                  "You are being invited for breast screening because you are a woman between the ages of 53 and "
                  "70. We invite every woman in this age group once every three years.")
    guideline = _doc("ko-breast", BREAST["topic"], "We recommend biennial screening mammography for women aged 40 to "
                                                   "74 years (grade B).")
    assert {("start_age", ("bh-breast", "ko-breast")), ("interval", ("bh-breast", "ko-breast"))} <= _facets(
        letter, guideline)


def test_a_letters_schedule_by_age_and_its_first_invitation():
    assert _frames("If no HPV is found, we will write to you again in three years while you are aged 25 to 49, and "
                   "in five years once you are aged 50 to 64.", CERVICAL) == [
        ("recommend", "hrHPV testing", 25, 49, 36), ("recommend", "hrHPV testing", 50, 64, 60)]
    assert [f.action for f in extract_frames("Everyone with a cervix receives their first invitation from their 25th "
                                             "birthday.", doc_meta=CERVICAL)] == ["recommend"]


def test_a_decision_aid_its_offer_and_who_the_test_is_meant_for():
    aid = _doc("wk-psa", PSA["topic"],
               "Whether to have a PSA blood test is your own choice, made with your GP. The test is meant only for "
               "men who can expect to live at least another ten years. If you decide to be tested and your result is "
               "normal, your GP will usually offer a repeat test every two years.",
               population="Men aged 55 to 69 who are deciding whether to have a PSA test.")
    frames = document_frames(aid)
    assert [(f.action, f.population.criteria, f.interval_months.min if f.interval_months else None)
            for f in frames] == [("individual_decision", [], None),
                                 ("recommend", ["life expectancy >= 10 years"], None),
                                 ("individual_decision", [], 24)]  # the schedule of those who chose it
    pathway = _doc("rt-psa", PSA["topic"],
                   "Step 1 - Identify eligible patients: men aged 50 up to their 75th birthday with an estimated life "
                   "expectancy of at least 15 years. Step 2 - Hold a shared decision-making conversation and "
                   "record the patient's choice. Step 3 - If the patient opts in, order a total PSA and repeat it "
                   "annually. Step 4 - Refer to urology if the PSA is 3.0 ng/mL or higher, or if the digital rectal "
                   "examination is abnormal. Do not order screening PSA tests for men aged 75 or older.")
    found = _facets(aid, pathway)
    # the decision aid's population gives its start and stop ages
    assert {("start_age", ("rt-psa", "wk-psa")), ("stop_age", ("rt-psa", "wk-psa")),
            ("interval", ("rt-psa", "wk-psa")), ("eligibility", ("rt-psa", "wk-psa"))} <= found
    # the patient who opts in and the referral on a result state no stance against the decision aid's choice
    assert ("action", ("rt-psa", "wk-psa")) not in found


@pytest.mark.parametrize("text, bounds", [
    ("men aged 50 up to their 75th birthday", (50, 74)),
    # a trend among an age group is not a population
    ("all women at average risk should begin screening at 40 rather than 50, reflecting the rising incidence of breast "
     "cancer among women in their forties", (40, None)),
])
def test_ages_up_to_a_birthday_and_a_trend(text, bounds):
    assert age_bounds(text) == bounds


def test_a_quality_indicators_level_of_control_is_a_goal():
    indicator = _doc("mk-a1c", A1C["topic"],
                     "Indicator DM-3 records the percentage of patients on the diabetes register, aged 18 to 79, whose "
                     "most recent HbA1c in the preceding 12 months is 58 mmol/mol (7.5%) or less.")
    frames = document_frames(indicator)
    assert [(f.action, [(q.op, q.value, q.unit) for q in f.targets]) for f in frames] == [
        ("recommend", [("<=", "58", "mmol/mol"), ("<=", "7.5", "%")])]
    guideline = _doc("cr-a1c", A1C["topic"], "For most non-pregnant adults with type 2 diabetes, the panel recommends "
                                             "an A1C goal of less than 7.0% (53 mmol/mol).")
    assert ("target", ("cr-a1c", "mk-a1c")) in _facets(guideline, indicator)


def test_co_testing_written_out_and_a_test_replaced_by_another():
    assert [f.test for f in extract_frames("From 30 to 65, your doctor will usually suggest an HPV test and a Pap test "
                                           "together every 5 years.", doc_meta=CERVICAL)] == ["co-testing"]
    assert [f.test for f in extract_frames("The College now recommends primary testing for high-risk human "
                                           "papillomavirus in place of cytology-based screening.",
                                           doc_meta=CERVICAL)] == ["hrHPV testing"]


def test_a_family_history_named_as_absent_leaves_the_general_population():
    frames = extract_frames("Step 1 – Identify patients aged 45 to 75 years who have no bowel symptoms and no personal "
                            "or strong family history of colorectal neoplasia.", doc_meta=CRC)
    assert [(f.population.age_min, f.population.criteria) for f in frames] == [(45, [])]


def test_schedules_of_different_tests_for_the_ages_both_cover():
    leaflet = _doc("sl-cervix", CERVICAL["topic"],
                   "You should have your first Pap test at age 21, and then one every 3 years until you turn 30. From "
                   "30 to 65, your doctor will usually suggest an HPV test every 5 years.")
    guideline = _doc("tv-cervix", CERVICAL["topic"],
                     "The College recommends a primary hrHPV test every five years for people with a cervix aged 25 "
                     "to 65 years (grade A).")
    # at 25 to 29 one screens with a Pap test every 3 years, the other with an HPV test every 5
    assert ("interval", ("sl-cervix", "tv-cervix")) in _facets(leaflet, guideline)
    # where both schedule the same test for the shared ages, tests are compared test by test
    same = _doc("ag-cervix", CERVICAL["topic"], "Screen people with a cervix aged 30 to 65 with an HPV test every 5 "
                                                "years.")
    assert ("interval", ("ag-cervix", "sl-cervix")) not in _facets(leaflet, same)
