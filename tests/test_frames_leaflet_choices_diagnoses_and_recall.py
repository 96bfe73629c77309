"""Frames for a leaflet's "you can choose whether ... after talking it through", a result "usually followed by a second
test", a pathway's scope, a diabetes diagnosis and the prediabetes band beside it, a leaflet's goal that "will usually
be higher", a time in range, frailty among several illnesses, recall that "stops at the 65th birthday", an interval
replaced "rather than three-yearly for those under 50", a measure's "documented discussion of the potential benefits
and harms", a leaflet's "have your blood pressure checked" and "your readings are normal", and a decision aid's
"Use this decision aid with ..." and "Step 1: explain that, out of 1,000 men ..." (``tools/frames/``:
``action_cues.py``, ``no_stance.py``, ``ages.py``, ``populations.py``, ``quantity_names.py``, ``set_aside.py``,
``rules.py``, ``subgroups.py``, ``value_comparison.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CERVICAL, CRC, LUNG, PSA, STATIN, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import start_age, stop_age
from clinrag.tools.frames.extract import document_frames


def test_a_leaflets_choice_and_a_second_test():
    rows = _frames("If you are a man between 50 and 70, you can choose whether to have the test after talking it "
                   "through with your doctor or nurse.", PSA)
    assert [r[:3] for r in rows] == [("individual_decision", 50, 70)]
    assert _frames("A result of 4 ng/mL or more is usually followed by a second test and, if it is still high, a scan "
                   "or a referral to a specialist.", PSA) == [
        ("recommend", None, None, [], [], None, None, ["PSA >=4 ng/mL"], [])]
    # (a faecal haemoglobin in ng/mL is no PSA)
    assert _frames("A faecal haemoglobin concentration of 120 ng/mL or more should be followed by colonoscopy.",
                   CRC)[0][7] == ["ng/mL value >=120 ng/mL"]


def test_a_pathways_scope_bounds_its_steps():
    pathway = _doc("kh-statin", STATIN["topic"], "Pathway scope: adults aged 40 to 84 without established "
                   "cardiovascular disease. Step 2: if the 10-year risk is 15% or higher, offer atorvastatin 20 mg "
                   "once daily; this applies equally to patients aged 75 to 84.")
    frames = document_frames(pathway)
    assert start_age(frames)[0] == 40 and stop_age(frames)[0] == 84


def test_a_diagnosis_of_diabetes_and_the_prediabetes_band():
    rows = _frames("Diabetes is diagnosed when your HbA1c is 48 mmol/mol (6.5%) or above, and a result from 42 to 47 "
                   "mmol/mol (6.0% to 6.4%) means you are at higher risk of getting diabetes, sometimes called "
                   "prediabetes.", A1C)
    # (values, not ages; a result's meaning, not a higher-risk group)
    assert rows == [("recommend", None, None, [], [], None, None,
                     ["A1C >=48 mmol/mol", "A1C >=6.5 %", "A1C 42-47 mmol/mol", "A1C 6-6.4 %"], [])]
    leaflet = _doc("ke-dm", A1C["topic"], "Diabetes is diagnosed when your HbA1c is 48 mmol/mol (6.5%) or above, and "
                   "a result from 42 to 47 mmol/mol (6.0% to 6.4%) means you are at higher risk of getting diabetes.")
    report = _doc("id-dm", A1C["topic"], "Prediabetes is defined by an A1C of 5.7% to 6.4%, and diabetes by an A1C of "
                  "6.5% or higher on two occasions.")
    same = _doc("gs-dm", A1C["topic"], "Prediabetes is defined by an A1C of 6.0% to 6.4%, and diabetes by an A1C of "
                "6.5% or higher.")
    # the bands differ, the diabetes limit is the same
    assert ("threshold", ("id-dm", "ke-dm")) in conflict_facets(leaflet, report)
    assert not {f for f, _ in conflict_facets(leaflet, same) if f == "threshold"}


def test_a_leaflets_looser_goal_and_a_time_in_range():
    rows = _frames("If you are older and frail or live with several other long-term illnesses, your target will "
                   "usually be higher: below 69 mmol/mol (8.5%), so that you are less likely to have hypos.", A1C)
    assert [(r[0], r[4], r[8]) for r in rows] == [
        ("recommend", ["multiple chronic illnesses", "frailty"], ["A1C <69 mmol/mol", "A1C <8.5 %"])]
    rows = _frames("For people using continuous glucose monitoring, a time in range (3.9 to 10.0 mmol/L) of more than "
                   "70% is now included as a complementary goal.", A1C)
    assert rows[0][8] == ["mmol/L value 3.9-10 mmol/L", "time in range >70 % of readings"]  # (no A1C of 70 %)
    rows = _frames("For older adults with multiple chronic illnesses, frailty or cognitive impairment, a goal of less "
                   "than 8% (64 mmol/mol) is appropriate.", A1C)
    assert rows[0][4] == ["multiple chronic illnesses", "frailty"]


def test_recall_that_stops_and_an_interval_replaced():
    rows = _frames("The age range is unchanged: invitations start at 25 and routine recall stops at the 65th "
                   "birthday, provided the most recent test was negative.", CERVICAL)
    assert [r[:3] for r in rows] == [("recommend_against", 65, None)]
    rows = _frames("Screening ends at the 65th birthday for anyone whose last three tests were negative.", CERVICAL)
    assert [r[:3] for r in rows] == [("recommend_against", 65, None)]
    # (a stop by a criterion, years since quitting, is no stop age: "fifteen years since quitting" is no age 15)
    assert _frames("Screening stops once a person reaches fifteen years since quitting, turns 81, or develops a "
                   "condition that limits life expectancy.", LUNG) == []
    assert _frames("Screening ends when 15 years have passed since the last cigarette.", LUNG) == []
    rows = _frames("Everyone aged 25 to 64 who tests HPV-negative is now recalled every five years, rather than "
                   "three-yearly for those under 50 as in the sixth edition.", CERVICAL)
    assert [(r[1], r[2], r[5]) for r in rows] == [(25, 64, 60)]


def test_a_measure_of_a_documented_discussion():
    rows = _frames("Description: percentage of patients aged 50 to 59 years at elevated cardiovascular risk who had a "
                   "documented discussion of the potential benefits and harms of low-dose aspirin for primary "
                   "prevention.", ASPIRIN)
    assert [r[:3] for r in rows] == [("individual_decision", 50, 59)]


def test_a_leaflets_checks_for_normal_readings():
    assert _frames("If you are 40 or over, have your blood pressure checked at least once a year.", BP) == [
        ("recommend", 40, None, [], [], 12, None, [], [])]
    assert _frames("If you are younger and your readings are normal, a check every three to five years is enough.",
                   BP)[0][4:6] == (["normal blood pressure"], 36)
    society = _doc("qc-htn", BP["topic"], "Adults aged 40 or older should have their blood pressure measured at least "
                   "once a year; healthy adults aged 18 to 39 with normal blood pressure should be screened every 3 to "
                   "5 years.")
    leaflet = _doc("vh-htn", BP["topic"], "If you are 40 or over, have your blood pressure checked at least once a "
                   "year. If you are younger and your readings are normal, a check every three to five years is "
                   "enough.")
    assert not {f for f, _ in conflict_facets(society, leaflet) if f == "interval"}


def test_a_decision_aids_audience_and_the_outcomes_it_explains():
    aid = _doc("rp-psa", PSA["topic"], "Use this decision aid with men aged 45 to 69 who have no symptoms and are "
               "weighing up PSA screening. Step 1: explain that, out of 1,000 men screened for about 13 years, roughly "
               "one death from prostate cancer is avoided and several men are treated for cancers that would never "
               "have harmed them. Step 3: record his choice; whether to be tested is an individual decision.")
    leaflet = _doc("rp-psa-2016", PSA["topic"], "If you are a man aged 55 to 69, you can choose whether or not to have "
                   "the test after talking it through with your doctor.", status="superseded", issued="2016-01-01",
                   superseded_by="rp-psa")
    aid["supersedes"] = "rp-psa-2016"
    # (whom the aid is for and the outcomes it explains take no stance: both leave the test to the man's decision)
    assert _frames("Step 1: explain that, out of 1,000 men screened for about 13 years, roughly one death from "
                   "prostate cancer is avoided.", PSA) == []
    assert "action" not in {facet for facet, _ in conflict_facets(leaflet, aid)}
