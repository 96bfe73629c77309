"""Frames for a threshold moved to a new value ("the diagnostic threshold has been lowered to 130/80 mm Hg"), an
edition's change list whose other items only name a change, a stage band written as "130 to 139 systolic or 80 to 89
diastolic", a stage named just before its value, a second limit that repeats the goal before it, and a quality
measure of a conversation with an inverse companion (``tools/frames/rules.py``, ``quantities.py``, ``readings.py``,
``quantity_names.py``, ``action_cues.py``, ``extract.py``)."""

from __future__ import annotations

from frame_fixtures import ASPIRIN, BP, LUNG, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames import rules
from clinrag.tools.frames.extract import document_frames, extract_frames


def _values(sentence: str, meta: dict) -> list[tuple[str, list[str], list[str]]]:
    return [(f.action, [f"{q.name} {q.text()}" for q in f.thresholds], [f"{q.name} {q.text()}" for q in f.targets])
            for f in extract_frames(sentence, doc_meta=meta)]


def test_a_threshold_moved_to_a_value_states_the_threshold_now():
    assert _values("The diagnostic threshold for hypertension has been lowered to 130/80 mm Hg.", BP) == [
        ("recommend", ["hypertension >=130/80 mm Hg"], [])]
    assert _values("The treatment threshold has been raised to a 10-year risk of 10%.", STATIN) == [
        ("recommend", ["10-year CVD risk >=10 %"], [])]
    # a value to lower a reading to is still a goal
    assert _values("Blood pressure should be lowered to below 130/80 mm Hg.", BP) == [
        ("recommend", [], ["blood pressure <130/80 mm Hg"])]


def test_a_change_list_states_only_its_items_that_say_what_holds():
    sentence = ("What's new in this edition: the diagnostic threshold for hypertension has been lowered to 130/80 mm "
                "Hg, and the age-specific goal of below 150/90 mm Hg for older adults has been withdrawn.")
    assert rules.changed_items(sentence) == ["the diagnostic threshold for hypertension has been lowered to 130/80 mm "
                                             "Hg."]
    assert _values(sentence, BP) == [("recommend", ["hypertension >=130/80 mm Hg"], [])]
    [frame] = extract_frames(sentence, doc_meta=BP)
    assert frame.sentence == sentence  # the frame quotes the whole sentence
    listed = ("What is new in this edition: the treatment threshold has been raised to a 10-year risk of 10%, a band "
              "in which a statin is reasonable has been added below it, and the advice for adults over 75 has been "
              "revised.")
    assert _values(listed, STATIN) == [("recommend", ["10-year CVD risk >=10 %"], [])]
    # a list whose items all state what holds is read as one sentence; a list that only names changes states nothing
    assert rules.changed_items("What's new: the starting age has been lowered from 55 to 50, and the interval has "
                               "been lengthened from yearly to every two years.") is None
    assert _values("What's new in this edition: the wording of the goals has been revised, and a section on "
                   "monitoring has been added.", BP) == []


def test_a_stage_band_in_words_and_a_stage_named_before_its_value():
    assert _values("Blood pressure of 130 to 139 systolic or 80 to 89 diastolic is now classified as stage 1 "
                   "hypertension, and 140/90 mm Hg or higher as stage 2.", BP) == [
        ("recommend", ["stage 1 hypertension 130/80-139/89 mm Hg", "stage 2 hypertension >=140/90 mm Hg"], [])]
    assert _values("Stage 1 hypertension covers 130-139 systolic or 80-89 diastolic, and stage 2 begins at 140/90 mm "
                   "Hg.", BP)[-1][1] == ["stage 2 hypertension >=140/90 mm Hg"]
    # the band a defined stage begins with defines hypertension for the comparison with a plain threshold
    new = _doc("mb-htn", BP["topic"], "Blood pressure of 130 to 139 systolic or 80 to 89 diastolic is now classified "
               "as stage 1 hypertension, and 140/90 mm Hg or higher as stage 2.")
    old = _doc("hc-htn", BP["topic"], "Hypertension is diagnosed when clinic blood pressure is 140/90 mm Hg or higher.")
    assert ("threshold", ("hc-htn", "mb-htn")) in _facets(new, old)


def test_a_second_limit_repeats_the_goal_before_it_whatever_its_strength():
    assert _values("The treatment goal is a blood pressure below 140/90 mm Hg for adults younger than 60, and below "
                   "150/90 mm Hg for those aged 60 or older (Class I; LOE B).", BP) == [
        ("recommend", [], ["blood pressure <140/90 mm Hg"]), ("recommend", [], ["blood pressure <150/90 mm Hg"])]
    assert _values("Drug treatment should aim for a blood pressure below 140/90 mm Hg in most adults (Class I), and "
                   "below 150/90 mm Hg in those aged 80 or older (Class IIa).", BP)[-1] == (
        "suggest_or_consider", [], ["blood pressure <150/90 mm Hg"])


def test_a_measure_of_a_conversation_and_its_inverse_companion():
    """A measure whose numerator counts a documented discussion of benefits and harms expects an individual decision
    for its denominator; its inverse companion measure counts what should not happen, and the companion does not make
    the measure itself inverse."""
    text = ("Quality measure AB-7: shared decision-making about aspirin for primary prevention. Denominator: patients "
            "aged 40 to 59 years without cardiovascular disease whose 10-year cardiovascular risk estimate is 10% or "
            "greater. Numerator: patients in the denominator with a documented discussion of the benefits and harms "
            "of low-dose aspirin. Companion measure AB-8 (inverse): the proportion of patients aged 60 years and older "
            "who have an active aspirin prescription for primary prevention; a lower rate indicates better care.")
    frames = document_frames(_doc("qm-asp", ASPIRIN["topic"], text))
    denominator = [f for f in frames if f.sentence.startswith("Denominator")]
    assert [(f.action, f.population.age_min, f.population.age_max, [q.text() for q in f.thresholds])
            for f in denominator] == [("individual_decision", 40, 59, [">=10 %"])]
    companion = [f for f in frames if f.sentence.startswith("Companion")]
    assert [(f.action, f.population.age_min) for f in companion] == [("recommend_against", 60)]
    # a coverage policy's shared decision-making visit before the first scan is a step of the screening it covers
    [visit] = extract_frames("Before the first screening examination the member must have a documented shared "
                             "decision-making visit that uses one or more decision aids.",
                             doc_meta=LUNG)
    assert visit.action == "recommend"
