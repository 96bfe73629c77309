"""Recommendation frames, the rule layer: how one guideline sentence's intervention, test, interval and eligibility
criteria are read (``tools/frames/rules.py``, ``lexicon.py``; actions: test_frames_actions.py; ages:
test_frames_ages.py; thresholds and targets: test_frames_quantities.py; strength: test_frames_strength.py)."""

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
      "cervical cancer screening", "hrHPV testing"),
     # the abbreviation, in capitals only ("crc" in other words is not it)
     ("Adults aged 45 to 75 should be screened for CRC.", "colorectal cancer screening", None),
     ("ASA may be considered for primary prevention in adults aged 40 to 59 at high risk.", "low-dose aspirin", None),
     ("Supplemental US/MRI may be considered for women with dense breasts.", "supplemental breast imaging", None)],
)
def test_named_in_other_words(sentence, intervention, test):
    f = one(sentence)
    assert (f.intervention, f.test, f.action) == (intervention, test, f.action)
    assert f.action in ("recommend", "suggest_or_consider")


def test_estimating_breast_cancer_risk_and_wont_need_screening():
    f = one("GPs should estimate each woman's breast cancer risk from age 30 and review it every 3 to 5 years.")
    assert (f.intervention, f.population.age_min, f.interval_months.min, f.interval_months.max) == (
        "breast cancer risk assessment", 30, 36, 60)
    f = one("After a total hysterectomy you won't need cervical screening.")
    assert (f.action, f.population.conditions) == ("discourage", ["hysterectomy"])


def test_immunochemical_faecal_occult_blood_test_is_fit_and_a_decade_list_is_one_band():
    f = one("Adults aged 50 to 74 should be offered an immunochemical faecal occult blood test every other year.")
    assert (f.intervention, f.test, f.interval_months.min) == ("colorectal cancer screening", "FIT", 24)
    f = one("People in their fifties, sixties or seventies who smoke should have a low-dose CT scan every year.")
    assert (f.population.age_min, f.population.age_max) == (50, 79)


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


def test_additional_ultrasound_or_mri_is_supplemental_imaging():
    f = one("For women with dense breasts, the evidence is insufficient to assess an additional ultrasound or MRI "
            "(grade I).")
    assert (f.intervention, f.action) == ("supplemental breast imaging", "insufficient_evidence")


def test_an_interval_set_aside_is_not_the_recommended_one():
    f = one("For men who choose PSA screening, clinicians should repeat testing every 2 to 4 years rather than "
            "annually.")
    assert (f.interval_months.min, f.interval_months.max) == (24, 48)


def test_programme_and_patient_wording_of_what_is_done():
    """A programme's kit, guidance cited in the subjunctive, a patient summary's usual practice, a goal named after
    its value and what "is not supported"."""
    f = extract_frames("Step 1: eligible residents aged 50 to 74 years are mailed a fecal immunochemical test (FIT) "
                       "kit every two years.", doc_meta={"topic": "colorectal-cancer-screening"})
    assert [(x.action, x.test, x.population.age_min, x.population.age_max, x.interval_months.min) for x in f] == [
        ("recommend", "FIT", 50, 74, 24)]
    f = extract_frames("Rationale: the measure aligns with clinical guidance that women aged 50 to 74 years be "
                       "screened every two years.", doc_meta={"topic": "breast-cancer-screening"})
    assert [(x.action, x.population.age_min, x.interval_months.min) for x in f] == [("recommend", 50, 24)]
    f = extract_frames("If you decide to be tested, most men have a PSA test once a year.",
                       doc_meta={"topic": "prostate-cancer-screening"})
    assert [(x.action, x.interval_months.min) for x in f] == [("individual_decision", 12)]
    f = extract_frames("If you are 80 or older, a reading below 150/90 is usually the goal.",
                       doc_meta={"topic": "hypertension-thresholds"})
    assert [(x.action, x.population.age_min, [(q.op, q.value) for q in x.targets]) for x in f] == [
        ("recommend", 80, [("<", "150/90")])]
    f = extract_frames("Screening outside the programme, including opportunistic tests before age 25, is not "
                       "supported.", doc_meta={"topic": "cervical-cancer-screening"})
    assert [(x.action, x.population.age_max) for x in f] == [("recommend_against", 24)]
    # a finding that evidence does not support something is not a stance
    assert extract_frames("The claim is not supported by the trial data.",
                          doc_meta={"topic": "cervical-cancer-screening"}) == []


def test_change_narratives_panels_programmes_and_pathways():
    """A withdrawn recommendation and a panel's voting rule state none; a programme's invitations, eligibility and
    exclusions, a quality measure's definition and a pathway's "calculate" do; "twice yearly" is every 6 months."""
    aspirin = {"topic": "aspirin-primary-prevention"}
    assert extract_frames("The Grade B recommendation for people in their fifties has therefore been withdrawn.",
                          doc_meta=aspirin) == []
    assert extract_frames("This consensus statement was developed by a 14-member panel using a modified Delphi "
                          "process, with agreement defined as at least 80% of votes.",
                          doc_meta={"topic": "lung-cancer-screening"}) == []
    cervical = {"topic": "cervical-cancer-screening"}
    f = extract_frames("The programme sends its first invitation shortly after your 30th birthday.", doc_meta=cervical)
    assert [(x.action, x.population.age_min) for x in f] == [("recommend", 30)]
    f = extract_frames("Your last routine invitation comes at age 60.", doc_meta=cervical)
    assert [(x.action, x.population.age_max) for x in f] == [("recommend", 60)]
    f = extract_frames("Dear Resident, you are invited to a free lung health check because our records show that "
                       "you are aged between 55 and 74.", doc_meta={"topic": "lung-cancer-screening"})
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [("recommend", 55, 74)]
    crc = {"topic": "colorectal-cancer-screening"}
    f = extract_frames("Eligible patients are those aged 50 to 74 years at average risk.", doc_meta=crc)
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [("recommend", 50, 74)]
    f = extract_frames("Patients aged 75 or older are not screened under this order.", doc_meta=crc)
    assert [(x.action, x.population.age_min) for x in f] == [("recommend_against", 75)]
    f = extract_frames("For this measure, hypertension is present when two office readings taken on separate days "
                       "are 140/90 mm Hg or higher.", doc_meta={"topic": "hypertension-thresholds"})
    assert [(x.action, [(q.op, q.value) for q in x.thresholds]) for x in f] == [("recommend", [(">=", "140/90")])]
    f = extract_frames("Step 1: for every patient aged 25 to 84, calculate the 10-year cardiovascular risk once a "
                       "year.", doc_meta={"topic": "statin-primary-prevention"})
    assert [(x.action, x.population.age_max, x.interval_months.min) for x in f] == [("recommend", 84, 12)]
    f = extract_frames("HbA1c should be measured quarterly until the goal is reached and twice yearly thereafter.",
                       doc_meta={"topic": "diabetes-glycemic-targets"})
    assert [(x.interval_months.min, x.interval_months.max) for x in f] == [(3, 6)]


def test_values_named_by_their_measure_and_horizon_once_each():
    """A limit stated twice is one value; a replaced value is not the document's; an A1C recommendation's bare
    percentage is an A1C; a risk over six years is not a 10-year cardiovascular risk."""
    f = extract_frames("Numerator: patients whose most recent systolic reading is below 140 mm Hg and diastolic "
                       "reading is below 90 mm Hg; the goal for every patient is therefore a blood pressure under "
                       "140/90 mm Hg.", doc_meta={"topic": "hypertension-thresholds"})
    assert [(q.op, q.value) for x in f for q in x.targets] == [("<", "140/90")]
    f = extract_frames("Adults aged 40 to 75 should be offered a statin when their estimated 10-year risk is 7.5% or "
                       "more (strong recommendation), replacing the former 10% cut-off.",
                       doc_meta={"topic": "statin-primary-prevention"})
    assert [(q.op, q.value) for x in f for q in x.thresholds] == [(">=", "7.5")]
    f = extract_frames("A less stringent target of below 8.0% is acceptable for older adults with multiple "
                       "comorbidities.", doc_meta={"topic": "diabetes-glycemic-targets"})
    assert [(q.name, q.value) for x in f for q in x.targets] == [("A1C", "8")]
    f = extract_frames("If your calculated chance of developing lung cancer in the next six years is 1.5% or higher, "
                       "you will be offered a low-dose CT scan.", doc_meta={"topic": "lung-cancer-screening"})
    assert [(q.name, q.value) for x in f for q in x.thresholds] == [("6-year risk", "1.5")]
