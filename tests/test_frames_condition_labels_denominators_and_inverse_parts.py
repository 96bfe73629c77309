"""Frames for a pathway step labelled by its condition ("Step 3: 10-year risk of 7.5% or more: start a statin"), a
decision "to be made individually", a measure's denominator bounded by the measurement year, one part of a measure
document that is an inverse measure, a visit named "annual" that is no schedule, and years since quitting that are
"no longer used to decide eligibility" (``tools/frames/action_cues.py``, ``intervals.py``, ``rules.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.extract import document_frames, extract_frames


def _frames(sentence: str, meta: dict) -> list[tuple]:
    """(action, age_min, age_max, criteria, interval min, thresholds) of each frame."""
    return [(f.action, f.population.age_min, f.population.age_max, f.population.criteria,
             f.interval_months.min if f.interval_months else None, [f"{q.name} {q.text()}" for q in f.thresholds])
            for f in extract_frames(sentence, doc_meta=meta)]


def test_a_step_labelled_by_its_condition_is_an_imperative():
    assert _frames("Step 3: 10-year risk of 7.5% or more: start a moderate-intensity statin unless contraindicated.",
                   STATIN) == [("recommend", None, None, [], None, ["10-year CVD risk >=7.5 %"])]
    pathway = _doc("hl-statin", STATIN["topic"], "Step 1: Eligibility check: aged 40 to 75 years. Step 3: 10-year risk "
                   "of 7.5% or more: start a moderate-intensity statin unless contraindicated.")
    statement = _doc("gc-statin", STATIN["topic"], "The Task Group recommends that clinicians prescribe a statin for "
                     "adults aged 40 to 75 years with an estimated 10-year cardiovascular event risk of 10% or greater "
                     "(Grade B).")
    assert ("threshold", ("gc-statin", "hl-statin")) in _facets(pathway, statement)


def test_a_decision_to_be_made_individually_beside_an_age_not_to_screen():
    assert _frames("Rationale: PSA-based screening in men aged 50 to 74 is a decision to be made individually with the "
                   "clinician, and men aged 75 or older should not be screened.", PSA) == [
        ("individual_decision", 50, 74, [], None, []), ("recommend_against", 75, None, [], None, [])]


def test_a_denominator_bounded_by_the_measurement_year_states_no_schedule():
    assert _frames("Denominator: men aged 50 to 74 with a PSA screening test during the measurement year; Numerator: "
                   "those with documentation of a discussion of benefits and harms.", PSA)[0][4] is None
    assert _frames("Denominator: patients aged 18 to 75 years with type 2 diabetes and at least two outpatient visits "
                   "during the measurement year.", A1C)[0][4] is None
    # a numerator's test during the measurement year is the yearly test the measure expects
    assert _frames("Numerator: patients in the denominator who received a low-dose CT of the chest for lung cancer "
                   "screening during the measurement year.", LUNG)[0][4] == 12
    # nor is a visit named "annual" a schedule
    assert _frames("Bring this leaflet to your annual diabetes review.", A1C)[0][4] is None


def test_one_part_of_a_measure_document_that_is_an_inverse_measure_advises_against():
    measure = _doc("fm-psa", PSA["topic"], "Measure FM-31a (shared decision-making): Denominator: men aged 50 to 74 "
                   "with a PSA screening test during the measurement year; Numerator: those with documentation of a "
                   "discussion of benefits and harms. Measure FM-31b (non-recommended screening, inverse measure): "
                   "Denominator: men aged 75 and older seen in primary care during the measurement year; Numerator: "
                   "those with a screening PSA test, so that a lower rate indicates better care.")
    assert [(f.action, f.population.age_min, f.interval_months) for f in document_frames(measure)] == [
        ("individual_decision", 50, None), ("recommend_against", 75, None)]
    # a sentence that only says what kind of measure it is advises nothing
    assert _frames("This is an inverse measure: a lower rate indicates better quality.", PSA) == []


def test_years_since_quitting_no_longer_used_to_decide_eligibility():
    assert _frames("Unlike earlier guidance, the number of years since quitting is no longer used to decide "
                   "eligibility: former smokers qualify however long ago they stopped.", LUNG) == [
        ("recommend", None, None, ["years since quitting: any", "smoking status: current or former"], None, [])]
