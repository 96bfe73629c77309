"""Frames for a pathway's "do not offer screening to patients older than 75, including those who have never been
screened", FIT that "may be offered after a discussion of the smaller absolute benefit" to patients who ask, an order
set's laboratory orders that schedule other checks after the A1C's, its "Default HbA1c target: ...; select the
alternative target of ... for patients with frailty", and a question that names a band by its numbers alone ("and
screening at 76 to 85") (``tools/frames/``: ``subgroups.py``, ``action_cues.py``, ``examinations.py``;
``clinrag/question/understanding.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, CRC, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.question.understanding import asked_ages, narrowed_facets
from clinrag.tools.frames.bands import start_age
from clinrag.tools.frames.extract import document_frames


def test_people_included_among_everyone_are_no_subgroup():
    rows = _frames("Step 4, stopping: do not offer screening to patients older than 75, including those who have never "
                   "been screened, and remove them from the recall list.", CRC)
    assert [(r[0], r[1], r[4]) for r in rows] == [("recommend_against", 76, [])]
    # (a catch-up offer for them stays theirs)
    assert [r[4] for r in _frames("Adults aged 76 to 85 who have never been screened may be offered a FIT.", CRC)] == [
        ["never screened"]]
    pathway = _doc("ab-crc", CRC["topic"], "Do not offer screening to patients older than 75, including those who have "
                   "never been screened.")
    statement = _doc("cd-crc", CRC["topic"], "For adults aged 76 to 85, clinicians should selectively offer screening "
                     "(grade C).")
    assert ("action", ("ab-crc", "cd-crc")) in conflict_facets(pathway, statement)


def test_a_test_offered_to_those_who_ask_after_hearing_the_smaller_benefit_is_their_decision():
    sentence = ("Patients aged 45 to 49 who ask about screening may be offered FIT after a discussion of the smaller "
                "absolute benefit at that age.")
    assert [(r[0], r[1], r[2]) for r in _frames(sentence, CRC)] == [("individual_decision", 45, 49)]
    pathway = _doc("ef-crc", CRC["topic"], "Asymptomatic patients at average risk from age 50 until age 75 should be "
                   "offered a FIT every two years. " + sentence)
    assert start_age(document_frames(pathway))[0] == 50


def test_an_order_sets_other_checks_are_not_the_a1cs_schedule():
    rows = _frames("Laboratory orders: HbA1c every 3 months until the individual target is reached, then every 6 "
                   "months; urine albumin-to-creatinine ratio and eGFR once a year; lipid profile once a year.", A1C)
    assert [(r[0], r[5]) for r in rows] == [("recommend", 3)]
    assert [(f.interval_months.min, f.interval_months.max) for f in document_frames(_doc(
        "gh-dm", A1C["topic"], "Laboratory orders: HbA1c every 3 months until the individual target is reached, then "
        "every 6 months; urine albumin-to-creatinine ratio and eGFR once a year."))] == [(3, 6)]
    # (the A1C's own yearly check stays)
    assert [(f.interval_months.min, f.interval_months.max) for f in document_frames(_doc(
        "ij-dm", A1C["topic"], "Check HbA1c every 3 months until the target is reached; thereafter check HbA1c once a "
        "year."))] == [(3, 12)]


def test_an_order_sets_default_goal_and_the_alternative_it_offers():
    rows = _frames("Default HbA1c target: below 7.0% (53 mmol/mol) for most adults; select the alternative target of "
                   "below 8.0% (64 mmol/mol) for patients with frailty, dementia or a life expectancy under 10 years.",
                   A1C)
    assert [(r[0], r[4], r[8]) for r in rows] == [
        ("recommend", [], ["A1C <7 %", "A1C <53 mmol/mol"]),
        ("recommend", ["limited life expectancy", "frailty"], ["A1C <8 %", "A1C <64 mmol/mol"])]


def test_a_question_names_a_band_by_its_numbers():
    question = ("What changed between KVHC's 2018 and 2024 colorectal cancer screening recommendations on the start "
                "and stop ages, how often to screen, and screening at 76 to 85?")
    assert asked_ages(question, None) == (76, 85)
    assert "action" in narrowed_facets(question, (76, 85), None)
    # (values are not ages)
    assert asked_ages("Do they agree on treating a systolic pressure in 130 to 139 mm Hg?", None) is None
    assert asked_ages("Is an A1C in 7 to 8 percent the goal?", None) is None
