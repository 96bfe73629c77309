"""Recommendation frames, the rule layer: how one guideline sentence's intervention, action, interval and strength
are read (``tools/frames/rules.py``, ``lexicon.py``; ages: test_frames_ages.py; thresholds and targets:
test_frames_quantities.py; strength: test_frames_strength.py)."""

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
    ("sentence", "action"),
    [("Men aged 50 to 69 should talk with their doctor about whether PSA testing is right for them.",
      "individual_decision"),
     ("It is reasonable to stop colorectal cancer screening after age 75 in adults with adequate prior screening.",
      "discourage"),
     ("Cervical cancer screening is not needed for women under 21 (D recommendation).", "recommend_against")],
)
def test_actions_of_talks_with_a_doctor_reasonable_stops_and_letter_grades(sentence, action):
    assert one(sentence).action == action


def test_smoking_criteria_as_still_smoking_and_quitting_no_more_than():
    f = one("Adults aged 50 to 80 with 20 pack-years who still smoke or quit no more than 15 years ago should have "
            "annual LDCT.")
    assert f.population.criteria == ["pack-years >= 20", "years since quitting <= 15",
                                     "smoking status: current or former"]


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


def test_supplemental_imaging_is_what_a_sentence_naming_it_is_about_and_purpose_clause_ages():
    frame = one("For women whose screening mammogram is negative but who have dense breasts, evidence is "
                "insufficient to assess supplemental ultrasonography.")
    assert (frame.intervention, frame.action) == ("supplemental breast imaging", "insufficient_evidence")
    frame = one("Clinicians should perform a breast cancer risk assessment beginning at age 25 to identify women who "
                "may benefit from screening before age 40.")
    assert (frame.population.age_min, frame.population.age_max) == (25, None)


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


def test_is_indicated_is_a_recommendation():
    assert one("A high-intensity statin is indicated for adults aged 40 to 75 with diabetes.").action == "recommend"


def test_estimating_breast_cancer_risk_and_wont_need_screening():
    f = one("GPs should estimate each woman's breast cancer risk from age 30 and review it every 3 to 5 years.")
    assert (f.intervention, f.population.age_min, f.interval_months.min, f.interval_months.max) == (
        "breast cancer risk assessment", 30, 36, 60)
    f = one("After a total hysterectomy you won't need cervical screening.")
    assert (f.action, f.population.conditions) == ("discourage", ["hysterectomy"])


def test_patient_wording_get_screened_and_ask_your_doctor():
    assert one("If you are 50 to 74, get screened for bowel cancer every 2 years.").action == "recommend"
    f = one("If your father or brother had prostate cancer, ask your doctor about starting PSA testing at 40.")
    assert (f.action, f.population.age_min, f.population.criteria) == ("individual_decision", 40, ["family history"])


def test_immunochemical_faecal_occult_blood_test_is_fit_and_a_decade_list_is_one_band():
    f = one("Adults aged 50 to 74 should be offered an immunochemical faecal occult blood test every other year.")
    assert (f.intervention, f.test, f.interval_months.min) == ("colorectal cancer screening", "FIT", 24)
    f = one("People in their fifties, sixties or seventies who smoke should have a low-dose CT scan every year.")
    assert (f.population.age_min, f.population.age_max) == (50, 79)


def test_beginning_shared_decision_making_about_screening_is_an_individual_decision():
    f = one("Men should begin shared decision-making with their clinician about PSA-based screening at age 55.")
    assert (f.action, f.population.age_min) == ("individual_decision", 55)


@pytest.mark.parametrize(
    ("sentence", "action"),
    [("Do not offer PSA testing to men over 75 who have no symptoms.", "recommend_against"),
     ("For women younger than 25, do not screen for cervical cancer.", "recommend_against"),
     ("From age 30 to 65, screen every 5 years with HPV testing alone.", "recommend"),
     ("If you are 60 to 74 you'll be sent a bowel screening kit every 2 years.", "recommend"),
     ("Women who have had a total hysterectomy do not need to continue cervical screening.", "discourage"),
     ("Stop screening for lung cancer once a person has not smoked for 15 years.", "recommend_against"),
     ("The ACP advises clinicians to stop colorectal screening in adults older than 75.", "recommend_against"),
     ("From 55 onward, women can switch to a mammogram every two years.", "suggest_or_consider"),
     ("Screening programme memo: offer mammography every 3 years to women aged 50 to 70.", "recommend")],
)
def test_imperatives_invitations_switches_and_what_is_not_needed(sentence, action):
    assert one(sentence).action == action


def test_not_needing_to_prepare_for_a_test_is_no_recommendation():
    assert extract_frames("A FIT looks for hidden blood in a stool sample, and you don't need to change your diet "
                          "before doing it.") == []


def test_breast_mri_in_addition_to_annual_mammography_is_two_recommendations():
    frames = extract_frames("Women with an estimated lifetime breast cancer risk above 20% should have breast MRI "
                            "every year in addition to annual mammography, starting at age 30.")
    assert [(f.intervention, f.interval_months.min, f.population.age_min, f.population.risk) for f in frames] == [
        ("supplemental breast imaging", 12, 30, None), ("screening mammography", 12, 30, None)]
    # without an interval of its own, the examination added to is the context, not a second recommendation
    assert [f.intervention for f in extract_frames(
        "High-risk women should have annual breast MRI in addition to mammography.")] == ["supplemental breast imaging"]


def test_adding_imaging_a_decade_interval_and_strengths_written_alone_or_by_a_later_part():
    f = one("For women with dense breasts, the evidence is insufficient to judge adding MRI to mammography.")
    assert (f.intervention, f.action) == ("supplemental breast imaging", "insufficient_evidence")
    assert one("Offer a flexible sigmoidoscopy once a decade to adults aged 50 to 74 (strong).").strength == "strong"
    frames = extract_frames("Adults aged 50 to 74 should have a FIT every 2 years or a flexible sigmoidoscopy once a "
                            "decade; the panel rates this a strong recommendation based on low-quality evidence.")
    assert [(f.test, f.interval_months.min, f.strength) for f in frames] == [
        ("FIT", 24, "strong; low-quality evidence"), ("flexible sigmoidoscopy", 120, "strong; low-quality evidence")]


def test_tests_that_each_take_the_interval_and_instructions_not_to():
    frames = extract_frames("CT colonography or flexible sigmoidoscopy, each every 5 years, may be offered to adults "
                            "aged 50 to 75.")
    assert [(f.test, f.interval_months.min) for f in frames] == [("CT colonography", 60),
                                                                 ("flexible sigmoidoscopy", 60)]
    assert one("The task force tells clinicians not to screen men younger than 50 with PSA.").action == (
        "recommend_against")
    f = one("For adults with type 2 diabetes, try to keep the HbA1c at or below 53 mmol/mol.")
    assert (f.action, [(q.op, q.value) for q in f.targets]) == ("recommend", [("<=", "53")])


@pytest.mark.parametrize(
    ("sentence", "action"),
    [("The college comes down against routine PSA screening for men aged 70 and older.", "recommend_against"),
     ("The committee argues against screening women older than 75 with mammography.", "recommend_against"),
     ("Nobody under 21 needs a cervical screening test.", "discourage"),
     ("For adults older than 85, the panel finds the evidence too limited to judge colorectal screening.",
      "insufficient_evidence"),
     ("Men at high risk should start that conversation about PSA screening at 40.", "individual_decision")],
)
def test_actions_stated_as_coming_down_against_nobody_needing_too_thin_evidence_and_conversations(sentence, action):
    assert one(sentence).action == action


def test_a_screening_conversation_is_not_a_recommendation_about_anything_else():
    # "start/begin that conversation" is about deciding together; "should start" alone stays a recommendation
    assert one("Men aged 50 to 69 should start PSA screening after talking it over.").action == "recommend"


def test_co_tests_and_hpv_detection_name_cervical_tests():
    f = one("Women aged 30 to 65 may be offered a Pap-and-HPV co-test every five years.")
    assert (f.test, f.interval_months.min) == ("co-testing", 60)
    assert one("WHO suggests HPV DNA detection every 5 years for women from age 30.").test == "hrHPV testing"


def test_conditions_first_no_longer_recommended_decisions_with_a_doctor_and_hpv_testing():
    f = one("If an illness limits how long you are expected to live, lung cancer screening with low-dose CT is no "
            "longer recommended for you.")
    assert (f.action, f.population.conditions) == ("recommend_against", ["limited life expectancy"])
    # the same words in a narrative of change state no recommendation
    assert extract_frames("The USPSTF no longer recommends lung cancer screening for adults aged 55 to 80.") == []
    f = one("For adults aged 76 to 85, continuing colon cancer screening is a decision to make with your doctor.")
    assert (f.intervention, f.action) == ("colorectal cancer screening", "individual_decision")
    frames = extract_frames("Women aged 30 to 65 should have cytology every 3 years or testing for high-risk HPV "
                            "every 5 years.")
    assert [(f.test, f.interval_months.min) for f in frames] == [("cytology", 36), ("hrHPV testing", 60)]


def test_updated_guidance_as_an_adjective_is_no_publication_statement():
    f = one("In updated guidance, the task force says adults aged 45 to 75 should be screened for colorectal cancer.")
    assert (f.action, f.population.age_min) == ("recommend", 45)
    assert extract_frames("The USPSTF updated its colorectal cancer screening recommendation in 2021.") == []


def test_no_longer_having_an_organ_and_imperatives_after_a_longer_label():
    frames = extract_frames("Women who have had a hysterectomy and no longer have a cervix can stop cervical "
                            "screening.")
    assert [(f.action, f.population.conditions) for f in frames] == [("discourage", ["hysterectomy"])]
    frames = extract_frames("Practice points for clinicians: offer breast cancer risk assessment to women aged 25 and "
                            "older; start annual breast MRI at 30 for women at high risk.")
    assert [(f.intervention, f.action, f.population.age_min) for f in frames] == [
        ("breast cancer risk assessment", "recommend", 25), ("supplemental breast imaging", "recommend", 30)]
