"""Frames and conflicts for a choice left to the reader ("the choice is still yours: talk it through with your
doctor"), an imperative after a "where" clause, a leaflet's errand that is no schedule, "You will usually have the
test every 3 months", and an age group a statement includes without narrowing it (``tools/frames/action_cues.py``,
``ages.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.extract import document_frames, extract_frames


def test_a_choice_left_to_the_reader_is_an_individual_decision():
    assert _summary("If you are 70 or older, the choice is still yours: talk it through with your doctor, who will "
                    "take your general health into account.", PSA) == [("individual_decision", None, 70, None, None)]
    assert _summary("If you are 40 to 44, you can choose to start yearly mammograms now; talk it over with your "
                    "doctor.", BREAST) == [("individual_decision", None, 40, 44, 12)]
    aid = _doc("sp-psa", PSA["topic"], "If you are 70 or older, the choice is still yours: talk it through with your "
               "doctor.")
    statement = _doc("vm-psa", PSA["topic"], "The Society recommends against PSA-based screening in men 70 years and "
                     "older (Grade D).")
    assert ("action", ("sp-psa", "vm-psa")) in _facets(aid, statement)


def test_an_imperative_after_a_where_clause():
    [frame] = extract_frames("Step 3: where the calculated risk is 10% or above, offer atorvastatin 20 mg once daily "
                             "and document the shared discussion.", doc_meta=STATIN)
    assert frame.action == "recommend" and [f"{q.name} {q.text()}" for q in frame.thresholds] == [
        "10-year CVD risk >=10 %"]


def test_a_leaflets_errand_is_no_schedule_and_its_own_schedule_is_read():
    leaflet = _doc("ug-a1c", A1C["topic"], "You will usually have the test every 3 months while your treatment is "
                   "being adjusted, and every 6 months once your level is steady. Bring your latest result to your "
                   "annual diabetes review so you can talk it through.")
    assert [(f.action, f.interval_months.min, f.interval_months.max) for f in document_frames(leaflet)] == [
        ("recommend", 3, 6)]
    consensus = _doc("nd-a1c", A1C["topic"], "A1C should be measured every three months until the goal is met, then "
                     "every six months.")
    assert ("interval", ("nd-a1c", "ug-a1c")) not in _facets(leaflet, consensus)
    # the imperative still reads when it brings a value down
    assert extract_frames("Bring blood pressure below 140/90 mm Hg.", doc_meta=BP)[0].action == "recommend"


def test_an_age_group_a_statement_includes_does_not_narrow_it():
    for sentence in ("For adults with confirmed hypertension, including community-dwelling adults aged 65 or older, a "
                     "target of less than 130/80 mm Hg is recommended (Class I).",
                     "For confirmed hypertension, a target of less than 130/80 mm Hg is recommended, including for "
                     "community-dwelling adults 65 years of age or older (Class I)."):
        [frame] = extract_frames(sentence, doc_meta=BP)
        assert (frame.population.age_min, frame.population.age_max) == (None, None)
    # tests a statement names are its scope: "including opportunistic tests before age 25" is about those ages
    [frame] = extract_frames("Screening outside the programme, including opportunistic tests before age 25, is not "
                             "supported.", doc_meta={"topic": "cervical-cancer-screening"})
    assert frame.population.age_max == 24
