"""Frames for what other countries do and an option turned down, a PSA "in nanograms per millilitre" and a GP who
"will usually repeat the test", a test ordered "only after a documented shared decision", an order set's indication,
a vote share "agreed (92 %)", a decision for a band of risk, a class IIb start "after discussing", a limit "lowered
from below 7.5 % to below 7.0 %", an inverse measure's limits, a measure's level "to discourage overtreatment", a
laboratory that "cannot provide" a test, a leaflet's "you can now have a scan", "it no longer matters how long ago"
and "stopped less than 15 years ago", a bleeding risk that "is not raised", a class I recommendation turned into a
class IIb suggestion, and a target that "remains a clinic blood pressure below ..." (``tools/frames/rules.py``,
``action_cues.py``, ``programme_cues.py``, ``quantities.py``, ``set_aside.py``, ``examinations.py``,
``subgroups.py``, ``populations.py``, ``bands.py``, ``conflicts.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CERVICAL, CRC, LUNG, PSA, STATIN, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import start_age
from clinrag.tools.frames.extract import document_frames


def test_what_other_countries_do_and_an_option_turned_down_are_no_stance():
    assert _frames("Some countries now start bowel screening at 45, and our advisory board is reviewing the evidence; "
                   "we will write to you if the starting age changes.", CRC) == []
    # (the document's own stance beside what others do stays)
    assert [r[:3] for r in _frames("Some countries start screening at 45; we recommend starting at 50.", CRC)] == [
        ("recommend", 50, None)]
    assert _frames("The Society considered, and rejected, the lower 130/80 mm Hg threshold adopted by some North "
                   "American bodies, judging that it would label an extra 14% of adults as hypertensive.", BP) == []


def test_a_psa_in_words_and_a_gp_who_repeats_the_test():
    assert _frames("If your PSA is 3 nanograms per millilitre (ng/mL) or higher, your GP will usually repeat the test "
                   "and may refer you for an MRI scan of your prostate.", PSA) == [
        ("recommend", None, None, [], [], None, None, ["PSA >=3 ng/mL"], [])]


def test_a_test_ordered_only_after_a_documented_shared_decision():
    rows = _frames("Step 1, eligibility: men aged 50 to 69 without urinary symptoms who ask about PSA testing should "
                   "be given the network's decision aid, and a PSA test should be ordered only after a documented "
                   "shared decision.", PSA)
    assert [r[:3] for r in rows] == [("individual_decision", 50, 69)]
    # (not a coverage policy's visit before the first scan, a step of the screening it covers)
    assert _frames("Low-dose CT is covered for members aged 50 to 80; the first screening must be preceded by a "
                   "documented shared decision-making visit.", LUNG)[0][0] == "recommend"


def test_an_order_sets_indication_and_a_vote_share():
    assert _frames("Indication for the default statin order: age 40 to 75 years, no documented ASCVD, and a calculated "
                   "10-year ASCVD risk of 7.5 % or higher; the default selection is atorvastatin 10 to 20 mg.",
                   STATIN) == [("recommend", 40, 75, [], [], None, None, ["10-year CVD risk >=7.5 %"], [])]
    assert _frames("The panel agreed (92 %) that adults aged 40 to 75 years without cardiovascular disease whose "
                   "estimated 10-year risk of a cardiovascular event is 10 % or greater should be offered a statin.",
                   STATIN)[0][7] == ["10-year CVD risk >=10 %"]
    assert _frames("A modified Delphi panel of 24 clinicians voted over three rounds, with consensus defined in "
                   "advance as at least 75 % agreement.", STATIN) == []


def test_a_decision_for_a_band_of_risk_does_not_move_the_start_age():
    plan = _doc("sd-statin", STATIN["topic"], "The plan covers statins with no cost sharing for members aged 40 "
                "through 75 years who have a calculated 10-year risk of a cardiovascular event of 10 % or greater. "
                "Members aged 40 through 75 with a calculated risk of 7.5 % to less than 10 % are covered when the "
                "prescriber attests that a shared decision was made. Statins for members older than 75 are covered at "
                "the standard copayment without any risk criterion.")
    assert start_age(document_frames(plan))[0] == 40
    panel = _doc("nl-statin", STATIN["topic"], "Adults aged 40 to 75 years whose estimated 10-year risk is 10 % or "
                 "greater should be offered a statin. For adults older than 75, the decision to start a statin should "
                 "be individualized.")
    assert "start_age" not in {facet for facet, _ in conflict_facets(plan, panel)}


def test_a_class_iib_start_after_discussing_is_an_individual_decision():
    rows = _frames("In adults older than 75 without ASCVD, initiating a statin may be reasonable after discussing "
                   "potential benefit, adverse effects, drug interactions and competing risks (class IIb; LOE B-R).",
                   STATIN)
    assert [r[:3] for r in rows] == [("individual_decision", 76, None)]


def test_a_limit_moved_from_one_value_to_another_is_the_new_one():
    rows = _frames("The general A1C goal for most non-pregnant adults has been lowered from below 7.5 % to below 7.0 % "
                   "(53 mmol/mol), provided it can be reached without significant hypoglycaemia (grade A).", A1C)
    assert [r[8] for r in rows] == [["A1C <7 %", "A1C <53 mmol/mol"]]


def test_an_inverse_measures_limits_are_thresholds():
    poor = _frames("Measure DM-2 (poor control, an inverse measure) reports the share of the same population whose "
                   "most recent A1C was above 9.0 % or missing, so that a lower rate is better.", A1C)
    assert [(r[7], r[8]) for r in poor] == [(["A1C >9 %"], [])]
    over = _frames("Measure DM-3 (potential overtreatment) reports the share of patients aged 65 to 75 treated with "
                   "insulin or a sulfonylurea whose most recent A1C was below 6.5 %, and a lower rate is better.", A1C)
    assert [(r[1], r[2], r[7], r[8]) for r in over] == [(65, 75, ["A1C <6.5 %"], [])]
    # (a measure of control states the goal)
    control = _frames("Measure DM-1 reports the percentage of patients aged 18 to 75 years with diabetes whose most "
                      "recent A1C in the measurement year was below 8.0 %.", A1C)
    assert [r[8] for r in control] == [["A1C <8 %"]]


def test_a_measures_new_level_with_its_purpose():
    rows = _frames("The numerator threshold has been relaxed: a patient now meets the measure when the most recent "
                   "HbA1c is below 8.0% (64 mmol/mol), to discourage overtreatment in older and frail patients.", A1C)
    # (discouraging overtreatment is the purpose of the level, and the frail patients it names are whom it protects)
    assert [(r[0], r[4], r[8]) for r in rows] == [("recommend", [], ["A1C <8 %", "A1C <64 mmol/mol"])]


def test_a_fallback_test_a_laboratory_cannot_provide():
    rows = _frames("Step 2, test: order primary hrHPV testing every 5 years from 25 to 65; if the laboratory cannot "
                   "provide primary HPV testing, order cytology alone every 3 years.", CERVICAL)
    assert [(r[6], r[5]) for r in rows] == [("hrHPV testing", 60), ("cytology", 36)]


def test_a_leaflets_scan_and_smoking_history():
    assert _frames("From this year, more people can have one: you can now have a scan every year from age 50 until age "
                   "80 if you have smoked at least 20 pack-years.", LUNG) == [
        ("recommend", 50, 80, ["pack-years >= 20"], [], 12, None, [], [])]
    assert _frames("It no longer matters how long ago you stopped smoking, so people who quit 15 years ago or more are "
                   "now included.", LUNG)[0][3] == ["years since quitting: any"]
    assert _frames("You can have a scan once a year if you are aged 55 to 80, you have smoked at least 30 pack-years, "
                   "and you still smoke or stopped less than 15 years ago.", LUNG)[0][3] == [
        "pack-years >= 30", "years since quitting <= 15", "smoking status: current or former"]


def test_a_bleeding_risk_not_raised_and_a_raised_one():
    rows = _frames("For selected adults aged 40 to 69 years whose 10-year cardiovascular risk is 15% or more and whose "
                   "bleeding risk is not raised, clinicians may consider low-dose aspirin (Class IIb; LOE A).", ASPIRIN)
    assert [r[:4] for r in rows] == [("suggest_or_consider", 40, 69, ["not at increased bleeding risk"])]
    rows = _frames("People with a raised bleeding risk should not receive aspirin for primary prevention, whatever "
                   "their age (Class III: Harm).", ASPIRIN)
    assert [(r[0], r[4]) for r in rows] == [("recommend_against", ["increased bleeding risk"])]


def test_a_class_i_recommendation_turned_into_a_class_iib_suggestion_is_a_change_of_action():
    old = _doc("ov-aspirin-2016", ASPIRIN["topic"], "The Collegium recommends low-dose aspirin for adults aged 50 to "
               "59 years who have a 10-year cardiovascular risk of 10% or greater (Class I; Level of Evidence B).",
               status="superseded", issued="2016-01-01", superseded_by="ov-aspirin-2022")
    new = _doc("ov-aspirin-2022", ASPIRIN["topic"], "For adults aged 40 to 69 years whose 10-year cardiovascular risk "
               "is 10% or more, clinicians may consider low-dose aspirin (Class IIb; LOE A).",
               supersedes="ov-aspirin-2016")
    assert ("action", ("ov-aspirin-2016", "ov-aspirin-2022")) in conflict_facets(old, new)
    # between organizations, a recommendation and a suggestion are one stance
    other = _doc("xy-aspirin", ASPIRIN["topic"], "For adults aged 40 to 69 years whose 10-year cardiovascular risk is "
                 "10% or more, clinicians may consider low-dose aspirin (Class IIb; LOE A).")
    current = dict(old, status="current", superseded_by=None, doc_id="ov-aspirin")
    assert "action" not in {facet for facet, _ in conflict_facets(current, other)}


def test_a_target_that_remains_a_clinic_reading():
    rows = _frames("The treatment target for people under 80 remains a clinic blood pressure below 140/90 mm Hg.", BP)
    assert [(r[2], r[8]) for r in rows] == [(79, ["blood pressure <140/90 mm Hg"])]
