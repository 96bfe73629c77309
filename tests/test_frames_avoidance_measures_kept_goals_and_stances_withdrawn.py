"""Frames for a measure that "assesses the avoidance of" a service (its numerator and denominator recommend nothing),
a companion measure of the conversation before a test, a class IIb start "after weighing life expectancy", goals
stated as what they are ("is an appropriate target", "is now below 7.0%", "is unchanged"), a stance withdrawn in one
part of a sentence ("co-testing is no longer endorsed"), "no limit on years since quitting", a reading that a home
average confirms, a definition "from 130/80", a tighter goal "early in the disease", and values that are reasons
("increased all-cause mortality by 22%") (``tools/frames/extract.py``, ``action_cues.py``, ``rules.py``,
``subgroups.py``, ``quantity_names.py``, ``quantities.py``, ``set_aside.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, CERVICAL, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.extract import document_frames

_MEASURE = ("Measure VQ-17 assesses the avoidance of PSA-based screening in older men. Denominator: men aged 70 years "
            "and older with at least one primary care visit during the 12-month measurement period. Numerator: men in "
            "the denominator who had no screening PSA test during the measurement period. A higher rate indicates "
            "better quality, reflecting the programme's position that screening men aged 70 or older is not "
            "recommended. A companion measure, VQ-18, counts men aged 55 to 69 who had a documented shared "
            "decision-making conversation before any screening PSA test.")


def _doc_rows(doc: dict) -> list[tuple]:
    return [(f.action, f.population.age_min, f.population.age_max) for f in document_frames(doc)]


def test_a_measure_that_assesses_avoidance_counts_no_screening_in_its_numerator_or_denominator():
    rows = _doc_rows(_doc("vq-psa", PSA["topic"], _MEASURE))
    assert ("recommend", 70, None) not in rows  # the denominator is who is counted, not who should be screened
    assert ("recommend_against", 70, None) in rows
    assert ("individual_decision", 55, 69) in rows  # the companion measure's conversation before the test
    # the same denominator in a measure of screening done is who should be screened
    done = _doc("dq-psa", PSA["topic"], "Measure DQ-2 assesses PSA-based screening in men. Denominator: men aged 55 to "
                "69 years with at least one primary care visit.")
    assert ("recommend", 55, 69) in _doc_rows(done)


def test_a_class_iib_start_after_weighing_life_expectancy_is_an_individual_decision():
    sentence = ("In adults older than 75, initiating a statin may be considered after weighing life expectancy, "
                "frailty and the patient's wishes (Class IIb; LOE C-LD).")
    assert _frames(sentence, STATIN) == [("individual_decision", 76, None, [], [], None, None, [], [])]
    # without the weighing, a class IIb is an option
    assert _frames("In adults older than 75, initiating a statin may be considered (Class IIb).", STATIN)[0][0] == (
        "suggest_or_consider")


def test_goals_stated_as_what_they_are():
    assert _frames("For most non-pregnant adults with type 2 diabetes, the panel agreed that an A1C below 7.0% "
                   "(53 mmol/mol) is an appropriate target.", A1C) == [
        ("recommend", None, None, [], [], None, None, [], ["A1C <7 %", "A1C <53 mmol/mol"])]
    assert _frames("The general HbA1c goal for most non-pregnant adults with type 2 diabetes is now below 7.0% "
                   "(53 mmol/mol).", A1C) == [
        ("recommend", None, None, [], [], None, None, [], ["A1C <7 %", "A1C <53 mmol/mol"])]
    assert _frames("For older adults with frailty, multiple comorbidities or limited life expectancy, the goal of "
                   "below 8.0% (64 mmol/mol) is unchanged.", A1C) == [
        ("recommend", None, None, [], ["limited life expectancy", "frailty"], None, None, [],
         ["A1C <8 %", "A1C <64 mmol/mol"])]
    # a goal named for patients "early in the disease" is the tighter goal of a short duration
    assert _frames("In carefully selected patients, such as those early in the disease who are treated with lifestyle "
                   "or metformin alone, aiming below 48 mmol/mol (6.5%) is reasonable if it can be achieved safely.",
                   A1C)[0][4] == ["short diabetes duration"]


def test_a_kept_goal_and_a_new_goal_are_a_change():
    old = _doc("zg-a1c-2015", A1C["topic"], "For most non-pregnant adults with type 2 diabetes, the panel agreed that "
               "an A1C below 7.0% (53 mmol/mol) is an appropriate target.", status="superseded",
               superseded_by="zg-a1c-2024")
    new = _doc("zg-a1c-2024", A1C["topic"], "For most adults with type 2 diabetes, clinicians should aim for an A1C "
               "between 7% and 8% (53 to 64 mmol/mol).", issued="2024-01-01")
    assert ("target", ("zg-a1c-2015", "zg-a1c-2024")) in _facets(old, new)


def test_a_stance_withdrawn_in_one_part_keeps_the_other_part():
    assert _frames("Primary HPV testing at five-yearly intervals is the recommended strategy; cytology alone or "
                   "co-testing is no longer endorsed where validated HPV assays are available.", CERVICAL) == [
        ("recommend", None, None, [], [], 60, "hrHPV testing", [], []),
        ("recommend_against", None, None, [], [], None, "cytology", [], [])]
    # values given as the reason for a withdrawn goal are no values of it
    assert _frames("What's new in this edition: the sub-7% goal of the 2017 statement is no longer endorsed, after "
                   "trials in which intensive control increased all-cause mortality by 22% without reducing "
                   "cardiovascular events.", A1C) == [("recommend_against", None, None, [], [], None, None, [],
                                                      ["A1C <7 %"])]


def test_no_limit_on_years_since_quitting_is_any_time_since_quitting():
    criteria = _frames("Denominator: patients aged 50 to 80 years at the end of the measurement period with a "
                       "documented smoking history of 20 or more pack-years, whether they currently smoke or formerly "
                       "smoked, with no limit on years since quitting.", LUNG)[0][3]
    assert "years since quitting: any" in criteria and "pack-years >= 20" in criteria


def test_a_reading_a_home_average_confirms_and_a_definition_from_a_reading():
    step = ("Step 1: If clinic blood pressure is 130/80 mm Hg or higher, confirm with home monitoring; a home average "
            "of 130/80 or above confirms hypertension.")
    assert _frames(step, BP)[0][7] == ["hypertension >=130/80 mm Hg", "hypertension (home) >=130/80 mm Hg"]
    assert _frames("What's new in this edition: hypertension is now defined from 130/80 mm Hg.", BP)[0][7] == [
        "hypertension >=130/80 mm Hg"]
    guideline = _doc("dz-htn", BP["topic"], "Hypertension is diagnosed when the average of readings on two or more "
                     "occasions is 130/80 mm Hg or higher. Drug therapy is recommended for adults with a blood "
                     "pressure of 140/90 mm Hg or above (class I).")
    pathway = _doc("ck-htn", BP["topic"], step + " Step 2: Start a single antihypertensive agent when confirmed blood "
                   "pressure is 140/90 or higher.")
    assert not {f for f, _ in _facets(guideline, pathway)} & {"threshold"}
