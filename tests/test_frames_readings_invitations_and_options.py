"""Frames and conflicts for blood-pressure readings without their unit in a document about blood pressure, a leaflet's
definition with the reading after it, a reading that calls for ambulatory monitoring, a systolic goal against a
systolic and diastolic one, invitations that continue to a birthday, long opening phrases, rescans, an insurer's
criteria sentence, a new population "extended" to an age band, an insurer's exclusion, asking the doctor whether, a
choice made with the doctor and a leaflet's options (``tools/frames/quantities.py``, ``quantity_names.py``,
``value_comparison.py``, ``action_cues.py``, ``intervals.py``, ``set_aside.py``)."""

from __future__ import annotations

from frame_fixtures import BP, BREAST, CRC, LUNG, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.extract import extract_frames
from clinrag.tools.frames.readings import readings_in_mm_hg
from clinrag.tools.frames.schema import Quantity
from clinrag.tools.frames.value_comparison import targets_differ


def _quantities(text: str, meta: dict) -> list[tuple]:
    return [(f.population.age_min, f.population.age_max, [(q.name, q.op, q.value) for q in f.thresholds],
             [(q.name, q.op, q.value) for q in f.targets]) for f in extract_frames(text, doc_meta=meta)]


def test_readings_in_mm_hg_where_the_document_is_about_blood_pressure():
    assert readings_in_mm_hg("the aim is below 150/90", about_bp=True) == "the aim is below 150/90 mm Hg"
    assert readings_in_mm_hg("keep it below 135 over 85") == "keep it below 135 over 85"  # nothing says blood pressure
    assert readings_in_mm_hg("keep your blood pressure below 135 over 85") == (
        "keep your blood pressure below 135/85 mm Hg")
    # not a reading: a date, a dose ratio, a diastolic above the systolic
    assert readings_in_mm_hg("updated on 12/03 with 80/120 splits", about_bp=True) == (
        "updated on 12/03 with 80/120 splits")
    assert _quantities("If you are under 80, your doctor will aim to bring your clinic reading below 140/90; if you "
                       "are 80 or over, the aim is below 150/90.", BP) == [
        (None, 79, [], [("blood pressure", "<", "140/90")]), (80, None, [], [("blood pressure", "<", "150/90")])]


def test_the_definition_of_high_blood_pressure_in_a_leaflet_and_a_pathway():
    assert _quantities("You have high blood pressure if your reading at the surgery is 140/90 or more and a home "
                       "check confirms it at 135/85 or more.", BP) == [
        (None, None, [("hypertension", ">=", "140/90"), ("hypertension (home)", ">=", "135/85")], [])]
    assert _quantities("Step 1: if clinic blood pressure is 140/90 mm Hg or higher, offer ambulatory monitoring.",
                       BP) == [(None, None, [("hypertension", ">=", "140/90")], [])]
    leaflet = _doc("lf-bp", BP["topic"], "You have high blood pressure if your reading at the surgery is 140/90 or "
                   "more.")
    statement = _doc("st-bp", BP["topic"], "In adults, hypertension is defined as a clinic blood pressure of 130/80 "
                     "mm Hg or higher.")
    assert ("threshold", ("lf-bp", "st-bp")) in _facets(leaflet, statement)


def test_a_systolic_goal_agrees_with_the_same_systolic_part():
    systolic = [Quantity(name="systolic blood pressure", op="<", value="130", unit="mm Hg")]
    both = [Quantity(name="blood pressure", op="<", value="130/80", unit="mm Hg")]
    other = [Quantity(name="blood pressure", op="<", value="140/90", unit="mm Hg")]
    assert not targets_differ(systolic, both)
    assert targets_differ(systolic, other)
    assert targets_differ(both, other)


def test_invitations_to_a_birthday_rescans_and_an_insurers_criteria():
    assert _summary("You will continue to be invited until your 71st birthday.", BREAST) == [
        ("recommend", None, None, 70, None)]
    assert _summary("Step 3: people with a negative baseline scan are rescanned at 24 months.", LUNG) == [
        ("recommend", None, None, None, 24)]
    f = extract_frames("The member is 50 through 77 years of age and has a smoking history of at least 20 pack-years.",
                       doc_meta=LUNG)
    assert [(x.action, x.population.age_min, x.population.age_max, x.population.criteria) for x in f] == [
        ("recommend", 50, 77, ["pack-years >= 20"])]
    # a long opening phrase before the imperative
    f = extract_frames("Step 2: at the nurse-led check, calculate the risk with a validated model and offer a low-dose "
                       "CT scan to those with a 6-year risk of 1.5% or more.", doc_meta=LUNG)
    assert [x.action for x in f] == ["recommend"]


def test_a_new_population_and_an_age_named_only_as_the_one_replaced():
    f = extract_frames("This edition also extends risk assessment to everyone aged 30 to 84, rather than starting at "
                       "forty.", doc_meta=STATIN)
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [("recommend", 30, 84)]


def test_an_insurers_exclusion_asking_the_doctor_whether_and_a_leaflets_options():
    assert _summary("For members older than 85, screening is not considered medically necessary.", CRC) == [
        ("recommend_against", None, 86, None, None)]
    assert _summary("After 75, ask your doctor whether carrying on is right for you.", CRC) == [
        ("individual_decision", None, 76, None, None)]
    assert _summary("If you are between 45 and 49, screening is a choice you can make with your doctor.", CRC) == [
        ("individual_decision", None, 45, 49, None)]
    assert [f.action for f in extract_frames(
        "Whether to take it is a decision you and your doctor should make together.",
        doc_meta={"topic": "aspirin-primary-prevention"})] == ["individual_decision"]
    assert _summary("The simplest option is a home stool test (FIT), which you do every two years; a colonoscopy only "
                    "needs repeating every ten years.", CRC) == [
        ("suggest_or_consider", "FIT", None, None, 24), ("suggest_or_consider", "colonoscopy", None, None, 120)]


def test_a_warning_against_stopping_a_drug_is_no_individual_decision():
    assert [f.action for f in extract_frames(
        "Never stop aspirin that was prescribed after a heart attack, stent or stroke without talking to your doctor.",
        doc_meta={"topic": "aspirin-primary-prevention"})] == []
    # a test taken only after a discussion is one
    assert _summary("No man should have a PSA test without first discussing what a raised result could lead to.",
                    {"topic": "prostate-cancer-screening"}) == [("individual_decision", None, None, None, None)]
