"""Frames for an edition's change list that the document's own recommendations contradict, a leaflet's "decide on
together" and "talk to their doctor", "not already taking aspirin", a pathway's "outside this pathway" and "are not
assessed", a measure's "record a decision to stop", and a goal for a non-HDL cholesterol reduction against an LDL
level (``tools/frames/extract.py``, ``action_cues.py``, ``subgroups.py``, ``quantity_names.py``,
``value_comparison.py``)."""

from __future__ import annotations

from frame_fixtures import ASPIRIN, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.extract import document_frames, extract_frames


def _rows(sentence: str, meta: dict) -> list[tuple]:
    return [(f.action, f.population.age_min, f.population.age_max, f.population.conditions)
            for f in extract_frames(sentence, doc_meta=meta)]


def test_a_change_list_yields_to_the_documents_own_recommendation_for_the_ages_it_names():
    text = ("What's new in this edition: the Board no longer recommends routine aspirin for adults in their fifties "
            "and now advises against starting aspirin from age 60. For adults aged 40 to 59 years with a 10-year "
            "cardiovascular risk of 10% or greater, the decision to start low-dose aspirin should be an individual one "
            "(Grade C). The Board recommends against starting low-dose aspirin in adults 60 years or older (Grade D).")
    frames = document_frames(_doc("gp-asp", ASPIRIN["topic"], text))
    assert ("recommend_against", 50, 59) not in [(f.action, f.population.age_min, f.population.age_max)
                                                 for f in frames]
    leaflet = _doc("ip-asp", ASPIRIN["topic"], "If you are between 40 and 59 and your chance of a heart attack or "
                   "stroke in the next ten years is 10 percent or higher, taking a low-dose aspirin each day is "
                   "something you and your doctor can decide on together. If you are 60 or older and not already "
                   "taking aspirin, you should not start it.")
    assert [(f.action, f.population.age_min, f.population.conditions) for f in document_frames(leaflet)] == [
        ("individual_decision", 40, []), ("recommend_against", 60, [])]
    assert ("action", ("gp-asp", "ip-asp")) not in _facets(_doc("gp-asp", ASPIRIN["topic"], text), leaflet)


def test_where_a_pathway_or_a_leaflet_stops():
    assert _rows("Step 5: Patients aged 75 and over are outside this pathway and should be referred for an individual "
                 "review.", STATIN) == [("recommend_against", 75, None, [])]
    assert _rows("Step 2: Calculate 10-year cardiovascular risk; people aged 85 or over are not assessed with the "
                 "calculator.", STATIN)[-1][:2] == ("recommend_against", 85)
    assert _rows("People over 75 should talk to their doctor, because there is less research on starting statins at "
                 "that age.", STATIN) == [("individual_decision", 76, None, [])]
    assert _rows("Practices should review the screening status of eligible men at the 70th birthday and record a "
                 "decision to stop.", PSA)[0][:2] == ("discourage", 70)


def test_a_non_hdl_reduction_goal_against_an_ldl_level_is_a_change():
    old = _doc("ov-statin", STATIN["topic"], "Step 4: Titrate therapy to bring LDL cholesterol below 100 mg/dL.",
               status="superseded", superseded_by="ov2-statin")
    new = _doc("ov2-statin", STATIN["topic"], "Step 4: Aim for a reduction in non-HDL cholesterol of more than 40% "
               "from baseline at three months.", issued="2024-01-01")
    old["org"] = new["org"] = "OV"
    [goal] = document_frames(new)
    assert [f"{q.name} {q.text()}" for q in goal.targets] == ["non-HDL-C reduction >40 %"]
    assert ("target", ("ov-statin", "ov2-statin")) in _facets(old, new)
