"""Frames and conflicts for a pathway's entry and result steps, ages written "up to and including", "past your 70th
birthday" and "after you turn 65", two age groups joined by "and", a level that is not an age, a quit date written
as "cessation", a stance that is "no longer recommended", what a previous edition said, a higher-risk group's own
start beside the general band, a statement for a band of 10-year risk, a goal suggested beside the recommended one,
and the schedules of two documents that each name one test (``tools/frames/action_cues.py``, ``ages.py``,
``lexicon.py``, ``rules.py``, ``populations.py``, ``pairing.py``, ``conflicts.py``, ``schedules.py``)."""

from __future__ import annotations

import pytest
from frame_fixtures import A1C, ASPIRIN, BP, CERVICAL, CRC, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.ages import age_alternatives, age_bounds
from clinrag.tools.frames.extract import document_frames, extract_frames


@pytest.mark.parametrize("text, bounds", [
    ("Screening should begin at 50 and continue up to and including age 75.", (50, 75)),
    ("Members are covered from age 30 up to and including age 64.", (30, 64)),
    ("Once you are past your 70th birthday, do not start aspirin.", (70, None)),
    ("You can stop having smear tests after you turn 65 if your last three were normal.", (66, None)),
    # a FIT or PSA level is not an age
    ("A FIT result at or above 20 µg haemoglobin per gram should be followed by colonoscopy.", (None, None)),
    ("Refer if the PSA is above 40 ng/mL.", (None, None)),
])
def test_ages_written_as_limits_birthdays_and_turning(text, bounds):
    assert age_bounds(text) == bounds


def test_two_age_groups_joined_by_and_with_a_gap_are_two_populations():
    assert age_alternatives("For adults younger than 40 and adults 75 years or older, the evidence is "
                            "insufficient.") == [(None, 39), (75, None)]
    # bands that meet stay one band; "or" joins any two that do not meet
    assert age_alternatives("for adults aged 50 to 59 years and 60 to 69 years") is None
    assert age_alternatives("men younger than 55 or aged 70 and over") == [(None, 54), (70, None)]
    frames = extract_frames("For adults younger than 40 and adults 75 years or older, the evidence is insufficient "
                            "to assess the balance of benefits and harms (I statement).", doc_meta=ASPIRIN)
    assert [(f.action, f.population.age_min, f.population.age_max) for f in frames] == [
        ("insufficient_evidence", None, 39), ("insufficient_evidence", 75, None)]


def test_a_pathway_entry_step_gives_the_pathways_ages():
    pathway = _doc("dl-statin", STATIN["topic"],
                   "Pathway entry: adults aged 45 to 80 without cardiovascular disease and with a recorded 10-year "
                   "risk estimate. Order: if the 10-year risk is 10% or more, offer atorvastatin 20 mg. For people "
                   "aged 81 or older, consider a statin only as part of a shared decision.")
    frames = document_frames(pathway)
    assert (frames[0].action, frames[0].population.age_min, frames[0].population.age_max) == ("recommend", 45, 80)
    guideline = _doc("ip-statin", STATIN["topic"],
                     "We recommend a statin for adults aged 40 to 75 years with a 10-year risk of 10% or greater "
                     "(grade B).")
    assert ("stop_age", ("dl-statin", "ip-statin")) in _facets(guideline, pathway)


def test_a_statement_for_a_band_of_risk_is_not_refined_by_the_entry_step():
    """"below 10%, do not routinely prescribe" is compared on action with "recommended at 7.5% or higher": the
    pathway's entry step, with ages and no risk band, does not make it a general statement refined by age."""
    pathway = _doc("dl-statin", STATIN["topic"],
                   "Pathway entry: adults aged 40 to 84 without cardiovascular disease. Order: if the 10-year risk is "
                   "10% or more, offer atorvastatin 20 mg. If the 10-year risk is below 10%, do not routinely "
                   "prescribe; give lifestyle advice. For people aged 85 or older, consider a statin only as part of "
                   "a shared decision.")
    statement = _doc("cl-statin", STATIN["topic"],
                     "In adults aged 40 to 75 years with a 10-year ASCVD risk of 7.5% or higher, a moderate-intensity "
                     "statin is recommended (COR I; LOE A).")
    assert ("action", ("cl-statin", "dl-statin")) in _facets(statement, pathway)


def test_a_pathway_result_step_states_a_threshold():
    frames = extract_frames("Step 3 (results): PSA 3.5 ng/mL or above → repeat within 6 weeks and refer for MRI; "
                            "PSA below 1.0 ng/mL → recall in 4 years.", doc_meta=PSA)
    assert [(f.action, [(q.op, q.value, q.unit) for q in f.thresholds]) for f in frames] == [
        ("recommend", [(">=", "3.5", "ng/mL")]), ("recommend", [("<", "1", "ng/mL")])]
    guideline = _doc("su-psa", PSA["topic"], "A PSA of 4.0 ng/mL or higher should be regarded as abnormal.")
    pathway = _doc("mp-psa", PSA["topic"], "Step 3 (results): PSA 3.5 ng/mL or above → repeat within 6 weeks and "
                                           "refer for MRI.")
    assert ("threshold", ("mp-psa", "su-psa")) in _facets(guideline, pathway)


def test_not_offered_is_a_stance_against_and_divides_a_step():
    assert _summary("Routine PSA screening is not offered to men aged 70 and over.", PSA) == [
        ("recommend_against", None, 70, None, None)]
    frames = extract_frames("Step 2 (ordering): if the patient opts in, order a total PSA; routine PSA screening is "
                            "not offered to men aged 72 and over.", doc_meta=PSA)
    assert [(f.action, f.population.age_min) for f in frames] == [("recommend_against", 72)]


def test_a_higher_risk_groups_own_start_beside_the_general_band():
    frames = extract_frames("Step 1 (eligibility): asymptomatic men aged 50 to 69, or from age 40 for Black men and "
                            "men whose father or brother had prostate cancer, are offered a shared decision-making "
                            "conversation about PSA testing.", doc_meta=PSA)
    assert [(f.action, f.population.age_min, f.population.age_max, f.population.criteria) for f in frames] == [
        ("individual_decision", 50, 69, []),
        ("individual_decision", 40, None, ["Black ancestry", "family history"]),
    ]


@pytest.mark.parametrize("text, criterion", [
    ("Coverage requires current smoking or cessation within the past 15 years.", "years since quitting <= 15"),
    ("It does not matter how long ago you stopped: if you meet the pack-year criteria you are eligible.",
     "years since quitting: any"),
])
def test_quit_dates_written_as_cessation_and_as_not_mattering(text, criterion):
    frames = extract_frames(f"We recommend a yearly low-dose CT scan for adults aged 50 to 80. {text}", doc_meta=LUNG)
    assert frames and criterion in frames[-1].population.criteria


def test_no_longer_recommended_is_the_stance_now():
    frames = extract_frames("Low-dose aspirin is no longer recommended for primary prevention in people without "
                            "diabetes, whatever their age (Class III, Level A).", doc_meta=ASPIRIN)
    assert [f.action for f in frames] == ["recommend_against"]
    # what an earlier edition said is not a recommendation of this one
    assert extract_frames("The previous edition had allowed aspirin to be considered in any adult with a high "
                          "estimated risk.", doc_meta=ASPIRIN) == []


def test_a_goal_suggested_beside_the_recommended_one_is_not_compared_with_another_documents_goal():
    guideline = _doc("me-dm", A1C["topic"],
                     "An A1C goal of <7.0% (53 mmol/mol) is appropriate for many nonpregnant adults (A). A lower "
                     "goal, such as <6.5%, may be acceptable if it can be achieved safely (B).")
    leaflet = _doc("zd-dm", A1C["topic"], "For most adults with type 2 diabetes, we recommend keeping your HbA1c "
                                          "below 53 mmol/mol (7.0%).")
    assert ("target", ("me-dm", "zd-dm")) not in _facets(guideline, leaflet)
    # a suggested goal for an age band of its own is that band's goal, and is compared
    older = _doc("eh-bp", BP["topic"], "Blood pressure should then be lowered to 130/80 mm Hg or lower in most "
                                       "patients. In patients aged 80 years and older, a systolic target of 140 to 150 "
                                       "mm Hg is acceptable.")
    lower = _doc("ah-bp", BP["topic"], "A blood pressure target of less than 130/80 mm Hg is recommended, including "
                                       "for adults aged 65 years and older (COR I; LOE B-R).")
    assert ("target", ("ah-bp", "eh-bp")) in _facets(older, lower)


def test_documents_that_each_schedule_one_test_compare_their_schedules():
    leaflet = _doc("fw-cervical", CERVICAL["topic"],
                   "Starting at age 21, you should have a Pap test every three years.")
    guideline = _doc("gc-cervical", CERVICAL["topic"],
                     "For individuals aged 25 to 65 years, we recommend primary hrHPV testing every 5 years.")
    assert ("interval", ("fw-cervical", "gc-cervical")) in _facets(leaflet, guideline)
    # a document that lists several tests is compared test by test: its cytology interval agrees
    several = _doc("ac-cervical", CERVICAL["topic"],
                   "Women aged 21 to 65 should have cytology every 3 years; from 30, hrHPV testing every 5 years "
                   "is an alternative.")
    assert ("interval", ("ac-cervical", "fw-cervical")) not in _facets(leaflet, several)


def test_a_fit_level_does_not_start_the_fit():
    frames = extract_frames("A FIT result at or above 20 µg haemoglobin per gram of faeces should be followed by "
                            "colonoscopy.", doc_meta=CRC)
    assert [(f.test, f.population.age_min) for f in frames] == [("FIT", None)]
