"""Frames and conflicts for a relative with the cancer at no stated age of diagnosis (any age, against "before age
65"), a pathway's men "who, after reviewing the decision aid, choose to be tested" and its "...; for Black men ..., the
pathway opens at age 40", a PSA level "or a rise of more than 0.75 ng/mL within a year" that "triggers a repeat test",
a result "higher than expected for men aged 50 to 69", what "the 2015 edition advised", another check's schedule after
", while", "the former treat-to-target goal of an LDL cholesterol below 2.6 mmol/L", a statin that "may be considered"
beyond a recommended band that ends, a measure's "Numerator 1 (good control):" and "At least one HbA1c test every 12
months is required", "clinicians should weigh ... with the patient", and a leaflet's home or worn-monitor average
(``tools/frames/``: ``bands.py``, ``action_cues.py``, ``set_aside.py``, ``extract.py``, ``examinations.py``,
``programme_cues.py``, ``quantity_names.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, PSA, STATIN, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import criteria_map, stop_age
from clinrag.tools.frames.extract import document_frames


def test_a_relative_at_no_stated_age_is_one_diagnosed_at_any_age():
    guideline = _doc("ab-psa", PSA["topic"], "Black men and men with a first-degree relative diagnosed with prostate "
                     "cancer should be offered a baseline PSA from age 45.")
    pathway = _doc("cd-psa", PSA["topic"], "Men with a first-degree relative diagnosed with prostate cancer before age "
                   "65 should be offered PSA testing from age 45.")
    assert criteria_map(document_frames(guideline))["relative's age at diagnosis"][0] == "any"
    assert ("eligibility", ("ab-psa", "cd-psa")) in conflict_facets(guideline, pathway)
    # (two documents that name no age agree)
    leaflet = _doc("ef-psa", PSA["topic"], "If your father or brother has had prostate cancer, you can start this "
                   "conversation from age 45.")
    assert not any(facet == "eligibility" for facet, _ in conflict_facets(guideline, leaflet))
    # (a "strong family history" names no relative, and no age at diagnosis)
    strong = _doc("gh-psa", PSA["topic"], "Clinicians should offer earlier screening, at ages 40 to 45, to people "
                  "with a strong family history.")
    assert "relative's age at diagnosis" not in criteria_map(document_frames(strong))


def test_a_pathway_for_men_who_choose_and_the_age_it_opens_for_others():
    rows = _frames("Step 1, eligibility: asymptomatic men aged 50 to 74 years with a life expectancy of at least 10 "
                   "years who, after reviewing the decision aid, choose to be tested; for Black men and men with a "
                   "first-degree relative diagnosed with prostate cancer before age 65, the pathway opens at age 40.",
                   PSA)
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("individual_decision", 50, 74, ["life expectancy >= 10 years"]),
        ("recommend", 40, None, ["Black ancestry", "relative's age at diagnosis < 65", "family history"])]


def test_a_rise_beside_a_level_is_no_level():
    rows = _frames("Step 3, results: a PSA of 4.0 ng/mL or higher, or a rise of more than 0.75 ng/mL within a year, "
                   "triggers a repeat test within 6 to 8 weeks and then a urology referral.", PSA)
    assert [(r[0], r[7]) for r in rows] == [("recommend", ["PSA >=4 ng/mL"])]


def test_a_result_higher_than_expected_for_an_age_band():
    rows = _frames("A result of 3 ng/mL or more is higher than expected for men aged 50 to 69, and your GP will "
                   "usually arrange a second test and may refer you to a specialist; for men aged 70 and over the "
                   "cut-off is 5 ng/mL.", PSA)
    assert [(r[1], r[2], r[7]) for r in rows] == [(50, 69, ["PSA >=3 ng/mL"]), (70, None, ["PSA >=5 ng/mL"])]


def test_what_the_earlier_edition_advised_is_not_this_ones_threshold():
    rows = _frames("Adults aged 40 to 84 with a 10-year cardiovascular risk of 10 % or more should now be offered "
                   "atorvastatin 20 mg daily, whereas the 2015 edition advised this only for risks of 20 % or more.",
                   STATIN)
    assert [r[7] for r in rows] == [["10-year CVD risk >=10 %"]]


def test_another_checks_schedule_after_while_is_not_the_risk_estimates():
    rows = _frames("In adults not started on a statin, the risk estimate should be repeated every 4 to 6 years, while "
                   "treated patients need a lipid panel 4 to 12 weeks after starting and then every 3 to 12 months.",
                   STATIN)
    assert [(r[5], r[0]) for r in rows] == [(48, "recommend")]


def test_the_former_goal_of_an_ldl_below_a_value_is_replaced():
    rows = _frames("The former treat-to-target goal of an LDL cholesterol below 2.6 mmol/L has been replaced: the "
                   "panel now advises aiming for a reduction in non-HDL cholesterol of more than 40 % from baseline.",
                   STATIN)
    assert [r[8] for r in rows] == [["non-HDL-C reduction >40 %"]]


def test_a_consideration_beyond_a_recommended_band_that_ends_is_no_open_end():
    guideline = _doc("gh-statin", STATIN["topic"], "Adults aged 40 to 84 with a 10-year cardiovascular risk of 10 % or "
                     "more should be offered atorvastatin 20 mg daily. For people aged 85 or over, atorvastatin 20 mg "
                     "may be considered because it may reduce the risk of non-fatal myocardial infarction.")
    assert stop_age(document_frames(guideline))[0] == 84
    # (a later recommended band left open still is one)
    open_band = _doc("ij-statin", STATIN["topic"], "Offer a statin to adults aged 40 to 74 with a 10-year risk of 10 % "
                     "or more. Adults aged 75 or over should also be offered a statin.")
    assert stop_age(document_frames(open_band))[0] == "no upper age limit"


def test_a_measures_numbered_numerator_and_required_frequency():
    assert [(r[0], r[8]) for r in _frames("Numerator 1 (good control): patients whose most recent HbA1c in the "
                                          "measurement year is less than 8.0 %.", A1C)] == [
        ("recommend", ["A1C <8 %"])]
    assert [(r[0], r[5]) for r in _frames("At least one HbA1c test every 12 months is required for a patient to count "
                                          "as assessed.", A1C)] == [("recommend", 12)]


def test_weighing_with_the_patient_is_an_individual_decision():
    rows = _frames("For women aged 75 years or older, the current evidence is insufficient to assess the balance of "
                   "benefits and harms of continuing screening (grade I), and clinicians should weigh health status "
                   "and prior results with the patient.", BREAST)
    assert [r[0] for r in rows] == ["insufficient_evidence", "individual_decision"]


def test_a_leaflets_home_or_worn_monitor_average_is_out_of_office():
    rows = _frames("You have high blood pressure if your readings at the surgery are 140/90 or higher and your average "
                   "at home, or over a day wearing a monitor, is 135/85 or higher.", BP)
    assert [r[7] for r in rows] == [["hypertension >=140/90 mm Hg", "hypertension (home) >=135/85 mm Hg"]]
    assert [r[7] for r in _frames("You have high blood pressure if your reading at the surgery is 140/90 or higher "
                                  "and your average over a day wearing a monitor is 135/85 or higher.", BP)] == [
        ["hypertension >=140/90 mm Hg", "hypertension (ambulatory) >=135/85 mm Hg"]]
