"""Recommendation frames, the rule layer: how one guideline sentence's intervention, population, action, interval,
thresholds and targets, and strength are read (``tools/frames/rules.py``, ``quantities.py``, ``lexicon.py``)."""

from __future__ import annotations

import pytest

from clinrag.tools.frames.extract import extract_frames


def one(sentence: str):
    frames = extract_frames(sentence)
    assert len(frames) == 1, frames
    return frames[0]


def test_biennial_mammography_frame():
    f = one("The USPSTF recommends biennial screening mammography for women aged 50 to 74 years (grade B).")
    assert (f.intervention, f.action, f.strength) == ("screening mammography", "recommend", "grade B")
    assert (f.population.sex, f.population.age_min, f.population.age_max) == ("female", 50, 74)
    assert (f.interval_months.min, f.interval_months.max) == (24, 24)


def test_grade_i_is_insufficient_evidence_never_against():
    f = one("The USPSTF concludes that the evidence is insufficient to recommend for or against screening "
            "mammography in women aged 75 years and older (grade I).")
    assert f.action == "insufficient_evidence"
    assert (f.population.age_min, f.population.age_max) == (75, None)


@pytest.mark.parametrize(
    ("sentence", "interval"),
    [("ACOG says to screen with mammography every 1 or 2 years.", (12, 24)),
     ("Annual low-dose CT screening is recommended for adults aged 50 to 80 years.", (12, 12)),
     ("Co-testing every 3 to 5 years may be considered for women aged 30 to 65.", (36, 60)),
     ("The ACS recommends colonoscopy every 10 years for adults aged 45 to 75.", (120, 120))],
)
def test_intervals(sentence, interval):
    f = one(sentence)
    assert (f.interval_months.min, f.interval_months.max) == interval


@pytest.mark.parametrize(
    ("sentence", "bounds"),
    [("Adults 45 years and older should be screened for colorectal cancer.", (45, None)),
     ("The ACS discourages colorectal cancer screening for people over age 85.", (86, None)),
     ("Screening mammography is not recommended for women older than 75.", (76, None)),
     ("The USPSTF recommends against cervical cancer screening in women younger than 21 (grade D).", (None, 20)),
     ("Women at ages 40-49 may choose to begin screening mammography.", (40, 49)),
     ("The ACS recommends that cervical cancer screening start at age 25.", (25, None))],
)
def test_age_bounds(sentence, bounds):
    f = one(sentence)
    assert (f.population.age_min, f.population.age_max) == bounds


def test_blood_pressure_target_and_threshold_values():
    target = one("The guideline sets a treatment target under 130/80 mm Hg for most adults (class I).")
    assert target.intervention == "blood-pressure target"
    assert [(q.op, q.value, q.unit) for q in target.targets] == [("<", "130/80", "mm Hg")]
    assert target.strength == "class I"
    threshold = one("The guideline defines stage 2 hypertension as a systolic pressure of 140 mmHg or higher or a "
                    "diastolic pressure of 90 mmHg or higher.")
    assert threshold.intervention == "blood-pressure threshold"
    assert [(q.op, q.value, q.unit) for q in threshold.thresholds] == [(">=", "140/90", "mm Hg")]


@pytest.mark.parametrize(
    ("sentence", "action"),
    [("The ACS does not recommend clinical breast examination for breast cancer screening.", "recommend_against"),
     ("The ACP suggests that clinicians consider not screening adults aged 45 to 49 for colorectal cancer.",
      "discourage"),
     ("For men aged 55 to 69 years, PSA-based screening should be an individual decision.", "individual_decision"),
     ("Clinicians may selectively offer a statin at a 10-year cardiovascular risk of 7.5% to under 10% (grade C).",
      "individual_decision"),
     ("Low-dose aspirin might be considered in adults aged 40 to 70 at higher cardiovascular risk (class IIb).",
      "suggest_or_consider")],
)
def test_actions(sentence, action):
    assert one(sentence).action == action


@pytest.mark.parametrize(
    "sentence",
    ["The USPSTF issued its breast cancer screening recommendation for women aged 40 and older in 2016.",
     "Compared with its 2016 recommendation, the 2024 USPSTF recommendation moved the starting age from 50 to 40.",
     "A grade D means the USPSTF recommends against offering the service.",
     "Breast cancer screening reduces mortality in women in their 60s.",
     "Dense breast tissue is defined as heterogeneously or extremely dense tissue on mammography.",
     "Cohort data suggest that an A1C above 8% is associated with more complications in adults with diabetes.",
     "Trials suggest that statins reduce coronary events in adults aged 40 to 75."],
)
def test_sentences_without_a_recommendation_yield_nothing(sentence):
    assert extract_frames(sentence) == []


def test_a_finding_given_as_the_reason_for_a_recommendation_keeps_it():
    frame = one("Because trials show a mortality benefit, the USPSTF recommends annual LDCT for adults aged 50 to 80 "
                "who smoke (grade B).")
    assert (frame.intervention, frame.action) == ("low-dose CT lung cancer screening", "recommend")


@pytest.mark.parametrize(
    ("sentence", "interval"),
    [("FIT at 1-year intervals is recommended for adults aged 50 to 75.", (12, 12)),
     ("Clinical breast examination at 1- to 3-year intervals may be offered to women aged 25 to 39.", (12, 36)),
     ("LDCT at 12-month intervals should be offered to adults aged 50 to 80 who smoke.", (12, 12)),
     ("Women aged 30 to 65 should have cervical cancer screening with hrHPV testing at intervals of 5 years.",
      (60, 60))],
)
def test_intervals_stated_as_intervals(sentence, interval):
    f = one(sentence)
    assert (f.interval_months.min, f.interval_months.max) == interval


@pytest.mark.parametrize(
    ("sentence", "bounds"),
    [("Men aged ≥ 55 y should be offered a discussion about PSA testing.", (55, None)),
     ("Women between 40 and 49 years should have the opportunity to begin screening mammography.", (40, 49)),
     ("The society suggests offering PSA testing starting at 45 to men at high risk.", (45, None)),
     ("LDCT screening should cease when a person turns 81.", (81, None))],
)
def test_age_bounds_in_symbols_and_events(sentence, bounds):
    f = one(sentence)
    assert (f.population.age_min, f.population.age_max) == bounds


@pytest.mark.parametrize(
    ("sentence", "action"),
    [("Whether to continue colorectal cancer screening at ages 76 to 85 should be decided case by case.",
      "individual_decision"),
     ("For adults older than 75, starting a statin should be a shared decision between patient and clinician.",
      "individual_decision"),
     ("Men aged 50 and older should be offered a discussion about PSA-based screening.", "individual_decision"),
     ("Lung cancer screening with LDCT should cease at age 81.", "recommend_against")],
)
def test_actions_of_shared_decisions_and_stopping(sentence, action):
    assert one(sentence).action == action


@pytest.mark.parametrize(
    ("sentence", "bounds"),
    [("People in their 50s should be screened for colorectal cancer.", (50, 59)),
     ("Aspirin may be considered for adults in their 40s and 50s at high cardiovascular risk.", (40, 59)),
     ("Screening mammography every 2 years is recommended for women ≥ 50 years of age.", (50, None)),
     ("Men ≤ 69 years old may be offered PSA-based screening.", (None, 69))],
)
def test_age_bounds_in_decades_and_symbols_before_years(sentence, bounds):
    f = one(sentence)
    assert (f.population.age_min, f.population.age_max) == bounds


@pytest.mark.parametrize(
    ("sentence", "action"),
    [("Men aged 50 to 69 should talk with their doctor about whether PSA testing is right for them.",
      "individual_decision"),
     ("It is reasonable to stop colorectal cancer screening after age 75 in adults with adequate prior screening.",
      "discourage"),
     ("Cervical cancer screening is not needed for women under 21 (D recommendation).", "recommend_against")],
)
def test_actions_of_talks_with_a_doctor_reasonable_stops_and_letter_grades(sentence, action):
    assert one(sentence).action == action


def test_a_letter_grade_in_parentheses_is_the_stated_strength():
    assert one("Adults aged 50 to 80 who smoke should have yearly LDCT (B recommendation).").strength == "grade B"
    assert one("A recommendation to screen women aged 50 to 74 with mammography was issued.").strength is None


def test_smoking_criteria_as_still_smoking_and_quitting_no_more_than():
    f = one("Adults aged 50 to 80 with 20 pack-years who still smoke or quit no more than 15 years ago should have "
            "annual LDCT.")
    assert f.population.criteria == ["pack-years >= 20", "years since quitting <= 15",
                                     "smoking status: current or former"]


def test_an_i_statement_is_grade_i():
    frame = one("The evidence is insufficient to assess PSA screening in men 70 and older (I statement).")
    assert (frame.action, frame.strength) == ("insufficient_evidence", "grade I")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [("You should do a faecal immunochemical test every 2 years if you are aged 50 to 74.",
      ("colorectal cancer screening", "FIT", "recommend", 50, 74)),
     ("Women should have an HPV DNA test every 5 years from the age of 30 to the age of 65.",
      ("cervical cancer screening", "hrHPV testing", "recommend", 30, 65)),
     ("From 50 up to the age of 64 you should have cervical screening every five years.",
      ("cervical cancer screening", None, "recommend", 50, 64)),
     ("The task force recommends not screening men younger than 55 with the PSA test.",
      ("PSA-based screening", None, "recommend_against", None, 54))],
)
def test_british_spellings_dna_tests_bare_start_ages_and_recommending_not_to(sentence, expected):
    f = one(sentence)
    assert (f.intervention, f.test, f.action, f.population.age_min, f.population.age_max) == expected


def test_level_after_a_class_and_certainty_as_written():
    assert one("Initiating a statin is reasonable for adults aged 40 to 75 with diabetes (Class IIa, Level B)."
               ).strength == "class IIa; LOE B"
    assert one("We suggest FIT every 2 years for adults aged 50 to 74 (conditional recommendation, "
               "moderate-certainty evidence).").strength == "conditional; moderate-certainty evidence"


def test_lowering_the_pressure_to_below_a_value_is_a_target():
    f = one("In most adults with hypertension, lowering office blood pressure to below 130/80 mm Hg is "
            "recommended.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets]) == ("blood-pressure target", [("<", "130/80")])


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [("Cervical screening is not necessary for women who have had a hysterectomy.",
      ("cervical cancer screening", "discourage")),
     ("We recommend that every woman's breast cancer risk be assessed by age 30.",
      ("breast cancer risk assessment", "recommend")),
     ("If you're 50 to 64 you'll be invited for cervical screening every 5 years.",
      ("cervical cancer screening", "recommend")),
     ("If you are a Black man, start talking with your doctor at age 45 about whether PSA testing is right for you.",
      ("PSA-based screening", "individual_decision"))],
)
def test_patient_voice_and_not_necessary(sentence, expected):
    f = one(sentence)
    assert (f.intervention, f.action) == expected


def test_a_limit_restated_in_other_units_keeps_its_comparator_and_capital_grades():
    f = one("An A1C goal below 7% (53 mmol/mol) is reasonable for many adults with diabetes.")
    assert [(q.op, q.value, q.unit) for q in f.targets] == [("<", "7", "%"), ("<", "53", "mmol/mol")]
    assert one("Adults aged 50 to 80 who smoke should have yearly LDCT (Grade B).").strength == "grade B"
    assert one("You do not need to go for cervical screening if you have had a total hysterectomy.").action == (
        "discourage")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [("Offer rosuvastatin for primary prevention to adults with a 10-year risk of 10% or more.",
      ("statin", "recommend")),
     ("Clinicians should use a familial risk assessment tool for women with a family history of breast cancer.",
      ("breast cancer risk assessment", "recommend")),
     ("Women who have had a hysterectomy do not need to continue cervical screening.",
      ("cervical cancer screening", "discourage")),
     ("If you are a man aged 55 to 69, talk with your doctor about the benefits and harms of a PSA test.",
      ("PSA-based screening", "individual_decision"))],
)
def test_drug_names_familial_risk_tools_no_need_and_talks_about_benefits_and_harms(sentence, expected):
    f = one(sentence)
    assert (f.intervention, f.action) == expected


def test_between_two_ages_without_years():
    f = one("If you're between 45 and 75, a stool DNA test every 3 years is an option you can consider.")
    assert (f.population.age_min, f.population.age_max, f.test) == (45, 75, "mt-sDNA")


def test_supplemental_imaging_is_what_a_sentence_naming_it_is_about_and_purpose_clause_ages():
    frame = one("For women whose screening mammogram is negative but who have dense breasts, evidence is "
                "insufficient to assess supplemental ultrasonography.")
    assert (frame.intervention, frame.action) == ("supplemental breast imaging", "insufficient_evidence")
    frame = one("Clinicians should perform a breast cancer risk assessment beginning at age 25 to identify women who "
                "may benefit from screening before age 40.")
    assert (frame.population.age_min, frame.population.age_max) == (25, None)


def test_a_comparator_after_a_restatement_in_parentheses():
    f = one("Most people with diabetes will be advised to aim for an HbA1c of 48mmol/mol (6.5%) or below.")
    assert [(q.op, q.value, q.unit) for q in f.targets] == [("<=", "48", "mmol/mol"), ("<=", "6.5", "%")]


def test_a_bare_letter_decides_the_action_only_when_no_word_does():
    f = one("A reasonable A1C goal for many nonpregnant adults with diabetes is below 7% (A).")
    assert (f.action, f.strength) == ("suggest_or_consider", "grade A")  # ADA: (A) is a level of evidence
    assert one("Colorectal cancer screening for adults aged 50 to 75 years (A).").action == "recommend"


def test_strength_keeps_the_evidence_grading_and_the_stated_abbreviation():
    assert one("We suggest biennial mammography for women aged 40 to 49 (weak recommendation, low-quality "
               "evidence).").strength == "weak; low-quality evidence"
    assert one("Aspirin may be considered in adults aged 40 to 69 with diabetes (conditional recommendation, low "
               "certainty).").strength == "conditional; low certainty"
    assert one("Statins are recommended for adults aged 40 to 75 with diabetes (Class I, LOE A).").strength == (
        "class I; LOE A")
    assert one("Statins are recommended for adults aged 40 to 75 with diabetes (class I; level of evidence "
               "B-R).").strength == "class I; level of evidence B-R"


def test_a1c_in_ifcc_units_and_a_risk_range_to_less_than():
    a1c = one("Aim for an HbA1c below 53 mmol/mol in most adults with type 2 diabetes.")
    assert (a1c.intervention, [(q.name, q.op, q.value, q.unit) for q in a1c.targets]) == (
        "A1C target", [("A1C", "<", "53", "mmol/mol")])
    statin = one("Clinicians may consider a statin for adults aged 40 to 75 with a 10-year CVD risk of 7.5% to less "
                 "than 10%.")
    assert [(q.op, q.value, q.unit) for q in statin.thresholds] == [("range", "7.5-10", "%")]


def test_hr_hpv_names_cervical_screening():
    frame = one("Primary screening with hrHPV testing every 5 years is preferred for women aged 30 to 65.")
    assert (frame.intervention, frame.test, frame.action, frame.interval_months.min) == (
        "cervical cancer screening", "hrHPV testing", "recommend", 60)


def test_supplemental_breast_imaging_is_named_before_the_mammogram_it_follows():
    f = one("Evidence is insufficient to assess supplemental breast imaging with MRI in women with dense breasts "
            "and a negative mammogram (grade I).")
    assert (f.intervention, f.action) == ("supplemental breast imaging", "insufficient_evidence")


@pytest.mark.parametrize(
    ("sentence", "intervention", "test"),
    [("Adjunctive breast MRI may be considered for women with dense breasts.", "supplemental breast imaging", None),
     ("Clinicians should assess each woman's breast cancer risk from age 30.", "breast cancer risk assessment", None),
     ("People aged 25 to 64 should have a screening test that looks for HPV every 5 years.",
      "cervical cancer screening", "hrHPV testing")],
)
def test_named_in_other_words(sentence, intervention, test):
    f = one(sentence)
    assert (f.intervention, f.test, f.action) == (intervention, test, f.action)
    assert f.action in ("recommend", "suggest_or_consider")


def test_an_imperative_after_an_opening_phrase_is_a_recommendation():
    f = one("In people with type 2 diabetes, offer a statin when the 10-year cardiovascular risk is 10% or more.")
    assert (f.intervention, f.action) == ("statin", "recommend")
    assert [(q.op, q.value, q.unit) for q in f.thresholds] == [(">=", "10", "%")]
    f = one("Confirm hypertension when the daytime home average is 135/85 mmHg or higher.")
    assert (f.intervention, f.action) == ("blood-pressure threshold", "recommend")
    assert [(q.op, q.value) for q in f.thresholds] == [(">=", "135/85")]


def test_treated_to_is_a_target_and_kdigo_grades_are_strengths():
    f = one("We suggest that adults with diabetes be treated to a systolic blood pressure below 130 mm Hg (2C).")
    assert (f.intervention, f.action, f.strength) == ("blood-pressure target", "suggest_or_consider", "2C")
    assert [(q.op, q.value) for q in f.targets] == [("<", "130")]


def test_a_threshold_and_a_goal_joined_by_and_should_are_two_frames():
    frames = extract_frames("In adults 65 years and older, clinicians should start treatment when systolic blood "
                            "pressure is 160 mm Hg or higher and should treat to a systolic goal below 140 mm Hg "
                            "(strong recommendation).")
    assert [(f.intervention, [(q.op, q.value) for q in f.thresholds + f.targets], f.strength) for f in frames] == [
        ("blood-pressure threshold", [(">=", "160")], "strong"), ("blood-pressure target", [("<", "140")], "strong")]
    assert all(f.population.age_min == 65 for f in frames)


def test_is_indicated_is_a_recommendation():
    assert one("A high-intensity statin is indicated for adults aged 40 to 75 with diabetes.").action == "recommend"


def test_ages_by_decade_word_and_between_without_years():
    f = one("Consider tomosynthesis for women in their forties.")
    assert (f.intervention, f.population.age_min, f.population.age_max) == ("digital breast tomosynthesis", 40, 49)
    f = one("People between 50 and 74 should do a bowel cancer screening test every 2 years.")
    assert (f.intervention, f.population.age_min, f.population.age_max) == ("colorectal cancer screening", 50, 74)
    # a value between two numbers with a unit is not an age band
    f = one("Adults with hypertension should be treated to a systolic pressure between 120 and 129 mm Hg.")
    assert (f.population.age_min, f.population.age_max) == (None, None)


def test_estimating_breast_cancer_risk_and_wont_need_screening():
    f = one("GPs should estimate each woman's breast cancer risk from age 30 and review it every 3 to 5 years.")
    assert (f.intervention, f.population.age_min, f.interval_months.min, f.interval_months.max) == (
        "breast cancer risk assessment", 30, 36, 60)
    f = one("After a total hysterectomy you won't need cervical screening.")
    assert (f.action, f.population.conditions) == ("discourage", ["hysterectomy"])


def test_reaching_a_value_is_a_target_but_a_pressure_that_reaches_one_is_a_threshold():
    f = one("In adults with type 2 diabetes, help the person to reach an HbA1c level below 53 mmol/mol.")
    assert (f.intervention, f.action, [(q.op, q.value, q.unit) for q in f.targets]) == (
        "A1C target", "recommend", [("<", "53", "mmol/mol")])
    f = one("Start drug treatment for adults aged 60 or older once systolic blood pressure reaches 150 mm Hg.")
    assert (f.intervention, f.targets) == ("blood-pressure threshold", [])
    f = one("Systolic blood pressure should be lowered into a range of 130 to 139 mm Hg in adults aged 65 or older.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets]) == ("blood-pressure target", [("range", "130-139")])


def test_ages_written_in_words():
    f = one("People aged forty-five to seventy-four should do a faecal immunochemical test every two years.")
    assert (f.population.age_min, f.population.age_max, f.test, f.interval_months.min) == (45, 74, "FIT", 24)


def test_two_age_bands_that_do_not_meet_joined_by_or_are_two_populations():
    frames = extract_frames("Clinicians should not screen men younger than 50 or aged 75 and over with PSA (grade D).")
    assert [(f.population.age_min, f.population.age_max, f.action) for f in frames] == [
        (None, 49, "recommend_against"), (75, None, "recommend_against")]


def test_patient_wording_get_screened_and_ask_your_doctor():
    assert one("If you are 50 to 74, get screened for bowel cancer every 2 years.").action == "recommend"
    f = one("If your father or brother had prostate cancer, ask your doctor about starting PSA testing at 40.")
    assert (f.action, f.population.age_min, f.population.criteria) == ("individual_decision", 40, ["family history"])


def test_comparators_at_or_below_and_reaches():
    f = one("NICE: support adults with type 2 diabetes to keep their HbA1c at or below 48 mmol/mol.")
    assert (f.intervention, f.action, [(q.op, q.value) for q in f.targets]) == (
        "A1C target", "recommend", [("<=", "48")])
    f = one("Drug treatment is recommended for adults aged 65 and over once blood pressure reaches 140/90 mm Hg.")
    assert [(q.op, q.value) for q in f.thresholds] == [(">=", "140/90")]


def test_immunochemical_faecal_occult_blood_test_is_fit_and_a_decade_list_is_one_band():
    f = one("Adults aged 50 to 74 should be offered an immunochemical faecal occult blood test every other year.")
    assert (f.intervention, f.test, f.interval_months.min) == ("colorectal cancer screening", "FIT", 24)
    f = one("People in their fifties, sixties or seventies who smoke should have a low-dose CT scan every year.")
    assert (f.population.age_min, f.population.age_max) == (50, 79)


def test_beginning_shared_decision_making_about_screening_is_an_individual_decision():
    f = one("Men should begin shared decision-making with their clinician about PSA-based screening at age 55.")
    assert (f.action, f.population.age_min) == ("individual_decision", 55)
