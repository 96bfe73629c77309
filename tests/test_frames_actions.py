"""Recommendation frames, the action a sentence states: lexical cues in the order they are checked, imperatives,
patient wording, shared decisions, stopping, and the sentences that state no recommendation at all (change
narratives, publication statements, findings) (``tools/frames/rules.py``: ``action``, ``is_recommendation_text``)."""

from __future__ import annotations

import pytest
from test_frames_rules import one

from clinrag.tools.frames.extract import document_frames, extract_frames


def test_grade_i_is_insufficient_evidence_never_against():
    f = one("The USPSTF concludes that the evidence is insufficient to recommend for or against screening "
            "mammography in women aged 75 years and older (grade I).")
    assert f.action == "insufficient_evidence"
    assert (f.population.age_min, f.population.age_max) == (75, None)


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


def test_an_imperative_after_an_opening_phrase_is_a_recommendation():
    f = one("In people with type 2 diabetes, offer a statin when the 10-year cardiovascular risk is 10% or more.")
    assert (f.intervention, f.action) == ("statin", "recommend")
    assert [(q.op, q.value, q.unit) for q in f.thresholds] == [(">=", "10", "%")]
    f = one("Confirm hypertension when the daytime home average is 135/85 mmHg or higher.")
    assert (f.intervention, f.action) == ("blood-pressure threshold", "recommend")
    assert [(q.op, q.value) for q in f.thresholds] == [(">=", "135/85")]


def test_is_indicated_is_a_recommendation():
    assert one("A high-intensity statin is indicated for adults aged 40 to 75 with diabetes.").action == "recommend"


def test_patient_wording_get_screened_and_ask_your_doctor():
    assert one("If you are 50 to 74, get screened for bowel cancer every 2 years.").action == "recommend"
    f = one("If your father or brother had prostate cancer, ask your doctor about starting PSA testing at 40.")
    assert (f.action, f.population.age_min, f.population.criteria) == ("individual_decision", 40, ["family history"])


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


@pytest.mark.parametrize(
    ("sentence", "action"),
    [("The college comes down against routine PSA screening for men aged 70 and older.", "recommend_against"),
     ("The committee argues against screening women older than 75 with mammography.", "recommend_against"),
     ("Nobody under 21 needs a cervical screening test.", "discourage"),
     ("For adults older than 85, the panel finds the evidence too limited to judge colorectal screening.",
      "insufficient_evidence"),
     ("Men at high risk should start that conversation about PSA screening at 40.", "individual_decision"),
     ("There are too few data to know whether PSA screening helps men older than 70.", "insufficient_evidence"),
     # an individualised strategy is what is recommended; an individualised decision is a shared one
     ("The EAU recommends offering an individualised, risk-adapted PSA testing strategy to men from age 50.",
      "recommend"),
     ("For men aged 55 to 69, the decision about PSA screening should be individualized.", "individual_decision"),
     ("Our service advocates colonoscopy every five years from age 40 for people with a family history.",
      "recommend"),
     ("The Alliance invites women aged 25 to 64 for an HPV test every five years.", "recommend"),
     # what a programme offers, an insurer covers, who is eligible; deciding together
     ("The programme now offers a low-dose CT scan once every year to people aged 55 to 74.", "recommend"),
     ("Covered tests are one FIT per 12-month period for members aged 45 to 75.", "recommend"),
     ("Former smokers remain eligible for low-dose CT screening regardless of how many years have passed.",
      "recommend"),
     ("If you are in your fifties, you and your doctor can decide together whether low-dose aspirin is worth it.",
      "individual_decision"),
     ("No man should have a PSA test without first discussing what a raised result could lead to.",
      "individual_decision"),
     ("Women in their forties should be counselled about the benefits and harms of mammography.",
      "individual_decision"),
     ("Orvane Health Plan covers one screening PSA test every 12 months for men aged 50 and older.", "recommend"),
     ("Inclusion criteria: patient is 40 through 84 years old and the 10-year cardiovascular risk is 10% or more; "
      "start atorvastatin 20 mg.", "recommend"),
     ("Beyond age 75, statin initiation is left to clinical judgment and a discussion with the patient.",
      "individual_decision"),
     # a weak class that the text calls an individual decision; a grade of the evidence decides nothing
     ("For adults older than 75, whether to initiate a statin should be an individualized decision (Class IIb).",
      "individual_decision"),
     ("PSA screening should not be performed routinely in men aged 70 or above (Strong Recommendation; Evidence "
      "Level: Grade B).", "recommend_against"),
     ("The Collegium recommends shared decision-making for men aged 55 to 69 about PSA screening (Standard; "
      "Evidence Strength: Grade B).", "individual_decision"),
     ("The ACS wants an informed, shared decision about PSA screening from age 50.", "individual_decision"),
     # a criterion that "no longer matters" changes who qualifies; the recommendation stands
     ("Years since quitting no longer matter: adults aged 50 to 80 who formerly smoked should have yearly LDCT.",
      "recommend")],
)
def test_actions_stated_as_coming_down_against_nobody_needing_too_thin_evidence_and_conversations(sentence, action):
    assert one(sentence).action == action


def test_a_screening_conversation_is_not_a_recommendation_about_anything_else():
    # "start/begin that conversation" is about deciding together; "should start" alone stays a recommendation
    assert one("Men aged 50 to 69 should start PSA screening after talking it over.").action == "recommend"


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


def test_imperatives_after_per_and_agree_or_set_a_target():
    f = one("Per the guideline, confirm hypertension in people with a clinic blood pressure of 140/90 mmHg or higher.")
    assert (f.intervention, f.action, [q.value for q in f.thresholds]) == ("blood-pressure threshold", "recommend",
                                                                           ["140/90"])
    f = one("NICE: for adults with type 2 diabetes managed by diet, agree an HbA1c target of 48 mmol/mol.")
    assert (f.intervention, f.action, [(q.op, q.value, q.unit) for q in f.targets]) == (
        "A1C target", "recommend", [("=", "48", "mmol/mol")])


@pytest.mark.parametrize(
    ("sentence", "action"),
    [  # a grade given to permission to stop grades the stopping, not screening
     ("Cervical screening may be discontinued after age 65 in women with adequate negative prior screening "
      "(Grade A).", "discourage"),
     ("Screening for colorectal cancer can stop after age 75 (strong recommendation).", "discourage"),
     ("Most men over 75 no longer need PSA-based screening.", "discourage"),
     ("Between 45 and 49, the panel suggests that clinicians refrain from colorectal cancer screening.", "discourage"),
     ("Clinicians should refrain from PSA-based screening in men older than 70.", "recommend_against"),
     ("Patients older than 85 are not to be screened for colorectal cancer.", "recommend_against"),
     ("Lung cancer screening should end once a person has not smoked for 15 years.", "recommend_against"),
     ("The plan considers low-dose CT lung cancer screening medically necessary for members aged 50 to 77.",
      "recommend")],
)
def test_stopping_refraining_and_coverage(sentence, action):
    assert one(sentence).action == action


@pytest.mark.parametrize(
    "sentence",
    ["Should I have a PSA test?", "When should women start screening mammography?"],
)
def test_a_question_states_no_recommendation(sentence):
    assert extract_frames(sentence) == []


def test_a_quality_measures_denominator_is_who_should_receive_it():
    frames = document_frames({"doc_id": "m", "org": "M", "topic": "statin-primary-prevention", "text":
                              "Denominator: patients aged 40 to 75 years who have a documented 10-year ASCVD risk of "
                              "10% or greater."})
    assert [(f.intervention, f.action, f.population.age_min, f.population.age_max) for f in frames] == [
        ("statin", "recommend", 40, 75)]


def test_a_clinical_pathways_steps():
    """Numbered steps with a label ("Step 2, ages 21 to 29:") and the orders they give."""
    text = ("Step 1, eligibility: begin routine cervical cancer screening at age 21; do not screen patients younger "
            "than 21. Step 2, ages 21 to 29: order cervical cytology every 3 years. Step 3, ages 30 to 65: order "
            "primary hrHPV testing and repeat every 5 years if negative. Step 4, exit: stop screening at 65 if prior "
            "screening has been adequate and negative.")
    frames = document_frames({"doc_id": "p", "org": "P", "topic": "cervical-cancer-screening", "text": text})
    got = [(f.test, f.action, f.population.age_min, f.population.age_max,
            f.interval_months and f.interval_months.min, f.population.conditions) for f in frames]
    assert got == [(None, "recommend", 21, None, None, []), (None, "recommend_against", None, 20, None, []),
                   ("cytology", "recommend", 21, 29, 36, []), ("hrHPV testing", "recommend", 30, 65, 60, []),
                   # "stop screening at 65": none after 65
                   (None, "recommend_against", 66, None, None, ["adequate prior screening"])]


def test_an_interval_stated_as_the_interval_and_a_leaflets_usual_repeat():
    f = one("After a negative primary hrHPV test, the cervical screening interval should be five years (strong "
            "recommendation).")
    assert (f.test, f.interval_months.min, f.action) == ("hrHPV testing", 60, "recommend")
    frames = document_frames({"doc_id": "l", "org": "L", "topic": "prostate-cancer-screening", "text":
                              "If you decide to be tested, the test is usually repeated once a year."})
    # the schedule of those who chose testing: the choice is theirs
    assert [(f.action, f.interval_months.min) for f in frames] == [("individual_decision", 12)]


def test_a_second_population_that_repeats_the_verb_with_its_own_age():
    frames = extract_frames("We recommend that men at average risk start talking with their doctor about PSA testing "
                            "at age 45, and men at higher risk, such as Black men or men whose father or brother had "
                            "prostate cancer, at age 40.")
    assert [(f.action, f.population.age_min, sorted(f.population.criteria)) for f in frames] == [
        ("individual_decision", 45, []), ("individual_decision", 40, ["Black ancestry", "family history"])]


def test_a_screening_programmes_letters_recalls_and_standards():
    text = ("If you are aged 50 to 74, we will post you a home test kit called a FIT every 2 years. People under 50 "
            "are not invited by the programme.")
    frames = document_frames({"doc_id": "r", "org": "R", "topic": "colorectal-cancer-screening", "text": text})
    assert [(f.test, f.action, f.population.age_min, f.population.age_max,
             f.interval_months and f.interval_months.min) for f in frames] == [
        ("FIT", "recommend", 50, 74, 24), (None, "recommend_against", None, 49, None)]
    text = ("Participants aged 25 to 49 whose HPV result is negative are recalled 3 years later. Measure 5 reports the "
            "percentage of eligible people adequately screened, with an acceptable level of 80%.")
    frames = document_frames({"doc_id": "s", "org": "S", "topic": "cervical-cancer-screening", "text": text})
    assert [(f.action, f.population.age_min, f.interval_months.min, f.thresholds) for f in frames] == [
        ("recommend", 25, 36, [])]


def test_a_strength_after_the_period_stays_with_its_sentence_and_asides_are_no_recommendation():
    text = ("The board recommends biennial screening mammography for women aged 40 to 74 years. (B recommendation) "
            "The board concludes that the evidence is insufficient for women 75 years or older. (I statement)")
    frames = document_frames({"doc_id": "f", "org": "F", "topic": "breast-cancer-screening", "text": text})
    assert [(f.action, f.population.age_min, f.strength) for f in frames] == [
        ("recommend", 40, "grade B"), ("insufficient_evidence", 75, "grade I")]
    frames = extract_frames("Clinicians should selectively offer a statin to adults aged 40 to 75 years with a 10-year "
                            "risk of 7.5% to less than 10%; the likelihood of benefit is smaller in this group than in "
                            "persons with a risk of 10% or greater (grade C).")
    assert [(f.action, [q.value for q in f.thresholds]) for f in frames] == [("individual_decision", ["7.5-10"])]
    frames = extract_frames("Although statin use may be beneficial in some adults with a 10-year risk of less than "
                            "10%, the likelihood of benefit is smaller; clinicians may choose to offer a statin to "
                            "adults aged 45 to 75 with a 10-year risk of 7.5% to 10% (grade C).")
    assert [(f.action, [q.value for q in f.thresholds]) for f in frames] == [("individual_decision", ["7.5-10"])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # a double negative about stopping is a recommendation to go on
     ("There is no upper age limit at which breast cancer screening should stop: screening should continue as long as "
      "a woman is in good health.", [("recommend", None)]),
     ("After age 74, we do not advise PSA testing for men who have no symptoms.", [("recommend_against", 75)]),
     ("If you are Black, this conversation about PSA testing should start earlier, at age 45.",
      [("individual_decision", 45)]),
     # a change narrative, not the recommendation now in force
     ("The Council extended routine screening mammography to women in their 40s, for whom starting screening had "
      "previously been an individual decision.", [])],
)
def test_continuing_not_advising_conversations_and_what_had_previously_been(text, expected):
    assert [(f.action, f.population.age_min) for f in extract_frames(text)] == expected


def test_continuing_as_long_as_health_allows_is_no_upper_age_limit():
    from clinrag.tools.frames.bands import NO_UPPER_LIMIT, stop_age
    frames = document_frames({"doc_id": "o", "org": "O", "topic": "breast-cancer-screening", "text":
                              "Women at average risk should begin regular screening mammography at age 45 years. Women "
                              "should continue screening mammography as long as their overall health is good."})
    assert stop_age(frames)[0] == NO_UPPER_LIMIT
