"""Frames for a programme's older people who "may still ask for a kit", a band "considered after discussing the small
absolute benefit", a FIT cut-off "that triggers referral" moved from one value to another with the modelling behind
it in a relative clause, an interval's reason that names another interval ("which produced fewer false-positive
results than annual testing"), a measure's exclusion by an earlier PSA result, an insurer's end of a no-cost benefit,
"you can decide with your doctor", a goal beside the earlier allowance "withdrawn", a leaflet that invites older
people "only if one of your last three tests found something unusual", an order set's "and stop when the patient
turns 81", a definition of the high risk a recommendation names ("whose cardiovascular risk is high"), and a
leaflet's "talk it over together and decide" (``tools/frames/``: ``action_cues.py``, ``set_aside.py``, ``goals.py``,
``quantities.py``, ``rules.py``, ``clauses.py``, ``subgroups.py``, ``populations.py``, ``ages.py``,
``document_passes.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, CERVICAL, CRC, LUNG, PSA, STATIN, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import start_age, start_age_text, stop_age
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames


def test_older_people_who_may_still_ask_for_a_kit_are_past_the_programme_s_stop():
    rows = _frames("The upper age is unchanged: we keep inviting people until their 75th birthday, and anyone aged 75 "
                   "or over may still ask for a kit by phoning the helpline.", CRC)
    assert [r[:3] for r in rows] == [("recommend", None, 74), ("individual_decision", 75, None)]
    doc = _doc("ab-crc", CRC["topic"], "Invitations begin at age 50. The upper age is unchanged: we keep inviting "
               "people until their 75th birthday, and anyone aged 75 or over may still ask for a kit by phoning the "
               "helpline.")
    assert stop_age(document_frames(doc))[0] == 74


def test_a_band_considered_after_discussing_the_benefit_is_an_individual_decision_before_the_routine_start():
    rows = _frames("For adults aged 45 to 49, beginning screening may be considered after discussing the modest "
                   "absolute benefit.", CRC)
    assert [r[:3] for r in rows] == [("individual_decision", 45, 49)]
    consensus = _doc("cd-crc", CRC["topic"], "Adults at average risk should be offered screening from age 50 to 74. "
                     "For adults aged 45 to 49, beginning screening may be considered after discussing the modest "
                     "absolute benefit.")
    frames = document_frames(consensus)
    assert start_age_text(start_age(frames), frames) == "50 (individual decision from 45)"
    # (against a recommendation from 45, a start-age disagreement)
    other = _doc("ef-crc", CRC["topic"], "The Board recommends screening adults aged 45 to 75 years (grade B).")
    assert ("start_age", ("cd-crc", "ef-crc")) in conflict_facets(consensus, other)


def test_a_referral_cut_off_moved_with_its_modelled_reason():
    rows = _frames("The FIT result that triggers referral has been lowered from 150 to 100 µg Hb/g, which modelling "
                   "suggested would detect about 12% more cancers for some 5,000 extra colonoscopies a year.", CRC)
    assert [(r[0], r[6], r[7], r[8]) for r in rows] == [("recommend", "FIT", ["FIT haemoglobin >=100 µg/g"], [])]
    assert [r[7] for r in _frames("A result at or above 150 µg Hb/g is reported as abnormal.", CRC)] == [
        ["FIT haemoglobin >=150 µg/g"]]
    old = _doc("gh-crc-2018", CRC["topic"], "A result at or above 150 µg Hb/g is reported as abnormal.",
               status="superseded", superseded_by="gh-crc-2024", issued="2018-01-01")
    new = _doc("gh-crc-2024", CRC["topic"], "The FIT result that triggers referral has been lowered from 150 to 100 "
               "µg Hb/g, which modelling suggested would detect about 12% more cancers.", supersedes="gh-crc-2018",
               issued="2024-01-01")
    frames = document_frames(old) + document_frames(new)
    found = find_conflicts(frames, {"gh-crc-2018": "2024-01-01"})
    assert [(c.kind, c.facet) for c in found] == [("change", "threshold")]


def test_an_interval_s_reason_that_names_another_interval_is_not_a_second_interval():
    rows = _frames("Men who opt for screening may be tested every two years, which produced fewer false-positive "
                   "results than yearly testing in the trials.", PSA)
    assert [r[5] for r in rows] == [24]
    assert [(r[0], r[6]) for r in _frames(
        "A PSA of 3 ng/mL or higher should lead to an MRI, which the trials showed would avoid many biopsies.", PSA)] \
        == [("recommend", None)]


def test_a_measure_that_excludes_men_by_an_earlier_psa_result():
    rows = _frames("Exclusions for the measure: a previous PSA result of 3.0 ng/mL or higher, treatment with a "
                   "5-alpha-reductase inhibitor, or hospice care.", PSA)
    assert [r[7] for r in rows] == [["PSA >=3 ng/mL"]]
    # (a value the document itself used to state is still no value of its own)
    assert _frames("The previous cut-off of 4.0 ng/mL no longer applies.", PSA) == []


def test_an_insurer_s_no_cost_benefit_ends_and_a_leaflet_s_decision_with_the_doctor():
    rows = _frames("Members older than 75 are not eligible for the no-cost benefit, although statins prescribed for "
                   "them are covered at the standard tier.", STATIN)
    assert [r[:3] for r in rows] == [("recommend_against", 76, None)]
    rows = _frames("If you are 85 or older, a statin may still help, and you can decide with your doctor whether it "
                   "is right for you.", STATIN)
    assert [r[:3] for r in rows] == [("individual_decision", 85, None)]
    leaflet = _doc("ij-statin", STATIN["topic"], "If you are aged 40 to 84 and that chance is 10% or more, you will "
                   "usually be offered a statin. If you are 85 or older, a statin may still help, and you can decide "
                   "with your doctor whether it is right for you.")
    assert stop_age(document_frames(leaflet))[0] == 84


def test_a_goal_beside_the_earlier_allowance_that_was_withdrawn():
    rows = _frames("For older adults with frailty or limited life expectancy, a goal of less than 8% (64 mmol/mol) is "
                   "appropriate, and the earlier allowance of up to 8.5% has been withdrawn (grade B).", A1C)
    assert [(r[0], r[8]) for r in rows] == [("recommend", ["A1C <8 %", "A1C <64 mmol/mol"])]
    # (a sentence that only withdraws is still no advice)
    assert _frames("The earlier allowance of up to 8.5% has been withdrawn.", A1C) == []


def test_older_people_invited_only_after_an_unusual_result_are_a_subgroup():
    rows = _frames("If you are 65 or over, we will only invite you if one of your last three tests found something "
                   "unusual.", CERVICAL)
    assert [(r[1], r[4]) for r in rows] == [(65, ["inadequate prior screening"])]
    leaflet = _doc("kl-cervical", CERVICAL["topic"], "We will send your first invitation when you are 25, and we keep "
                   "inviting people with a cervix until they turn 65. If you are 65 or over, we will only invite you "
                   "if one of your last three tests found something unusual.")
    assert stop_age(document_frames(leaflet))[0] == 64


def test_an_order_set_step_that_repeats_and_then_stops_at_an_age():
    rows = _frames("Step 3: order 'LDCT chest - screening', to be repeated yearly while the patient still meets the "
                   "criteria, and stop when the patient turns 81.", LUNG)
    assert [(r[0], r[1], r[5]) for r in rows] == [("recommend", None, 12), ("recommend_against", 81, None)]
    pathway = _doc("mn-lung", LUNG["topic"], "Step 1: identify patients aged 50 to 80 who have smoked 20 pack-years or "
                   "more. Step 3: order 'LDCT chest - screening', to be repeated yearly while the patient still meets "
                   "the criteria, and stop when the patient turns 81.")
    assert stop_age(document_frames(pathway))[0] == 80


def test_a_definition_of_high_risk_is_the_threshold_of_the_recommendation_that_names_it():
    statement = _doc("op-asa", ASPIRIN["topic"], "The group considers it reasonable to weigh daily low-dose aspirin in "
                     "selected adults from 40 to 70 years of age whose cardiovascular risk is high and whose bleeding "
                     "risk is not increased (class IIb; LOE A). For this purpose, high risk means an estimated 10-year "
                     "ASCVD risk of 20% or more, or a coronary artery calcium score of 100 or above.")
    rows = [(f.action, f.population.age_min, f.population.age_max, [f"{q.name} {q.text()}" for q in f.thresholds])
            for f in document_frames(statement)]
    # (the definition is no recommendation of its own, and a calcium score of 100 is no age)
    assert rows == [("suggest_or_consider", 40, 70, ["10-year CVD risk >=20 %"])]


def test_a_leaflet_that_asks_people_to_talk_it_over_and_decide():
    rows = _frames("If you are aged 40 to 59 and your doctor has worked out that your chance of a heart attack or "
                   "stroke over the next 10 years is 10% or more, you can talk it over together and decide whether "
                   "aspirin is right for you.", ASPIRIN)
    assert [(r[0], r[1], r[2], r[7]) for r in rows] == [("individual_decision", 40, 59, ["10-year CVD risk >=10 %"])]
