"""Frames and conflicts for where screening ends (a recall list's exit, routine scans that end, the end of routine
screening for the adequately screened, permission to stop at an age, no upper age limit, a band that ends at its own
document's first age against), who is eligible (the absence of a criterion or condition, a leaflet's "you can have
screening if", a programme letter's "everyone ... is invited", an order set's eligibility screen and blocked order, a
pathway's "who this pathway is for"), a quality measure's measurement year and its overuse count, classes after a
discussion, what a reading "now defines", a risk written as a proportion, a choice on request, a model's result, a
two-part coverage rule, and subgroup goals written for patients (``tools/frames/action_cues.py``, ``ages.py``,
``bands.py``, ``clauses.py``, ``intervals.py``, ``lexicon.py``, ``quantities.py``, ``rules.py``)."""

from __future__ import annotations

import pytest
from frame_fixtures import A1C, ASPIRIN, BP, BREAST, CERVICAL, CRC, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.extract import extract_frames


@pytest.mark.parametrize("sentence, meta, expected", [
    # a pathway's exit and a programme's recall list: who is no longer screened from that birthday
    ("Step 4, exit: patients leave the recall list at their 71st birthday.", CRC,
     [("recommend_against", None, 71, None, None)]),
    ("People are removed from the invitation register at their 75th birthday.", CRC,
     [("recommend_against", None, 75, None, None)]),
    ("Step 5, exit: exit the pathway at the patient's 81st birthday.", LUNG,
     [("recommend_against", None, 81, None, None)]),
    ("Once you are older than 77, routine scans end.", LUNG, [("recommend_against", None, 78, None, None)]),
    # a leaflet's eligibility
    ("You can have screening if you are between 50 and 77 years old.", LUNG, [("recommend", None, 50, 77, None)]),
    # a quality measure's numerator: the measurement year alone is one year, "or the nine years prior" ten
    ("Numerator: members with a FIT during the measurement year, or colonoscopy during the measurement year or the "
     "nine years prior.", CRC, [("recommend", "FIT", None, None, 12), ("recommend", "colonoscopy", None, None, 120)]),
])
def test_exits_eligibility_and_measurement_years(sentence, meta, expected):
    assert _summary(sentence, meta) == expected


def test_the_measurement_year_that_bounds_who_is_counted_is_no_interval():
    f = extract_frames("Denominator: women who turn 52 to 74 years of age during the measurement period and were "
                       "continuously enrolled during the measurement year.", doc_meta=CERVICAL)
    assert [x.interval_months for x in f] == [None]


@pytest.mark.parametrize("who, criteria", [
    ("patients aged 50 to 70 with no first-degree relative with colorectal cancer", []),
    ("adults aged 50 to 75 without a family history of colorectal cancer", []),
    ("adults aged 40 to 75 with a first-degree relative with colorectal cancer", ["family history"]),
])
def test_the_absence_of_a_risk_factor_is_not_the_risk_factor(who, criteria):
    f = extract_frames(f"Step 1, eligibility: {who}.", doc_meta=CRC)
    assert [x.population.criteria for x in f] == [criteria]


def test_routine_screenings_end_for_the_adequately_screened_is_a_stop_age():
    ended = _doc("ah-cx", CERVICAL["topic"], "Individuals with a cervix should begin screening at age 25 with primary "
                                             "hrHPV testing, repeated every 5 years (Grade A). After age 65, screening "
                                             "should stop for individuals with adequate negative prior screening "
                                             "(Grade D).")
    letter = _doc("cr-cx", CERVICAL["topic"], "From your 25th birthday, we invite you for an HPV test once every five "
                                              "years. Invitations continue up to the age of 69.")
    same = _doc("dz-cx", CERVICAL["topic"], "Screen people with a cervix aged 25 to 65 with primary HPV testing every "
                                            "5 years.")
    assert ("stop_age", ("ah-cx", "cr-cx")) in _facets(ended, letter)
    assert ("stop_age", ("ah-cx", "dz-cx")) not in _facets(ended, same)


def test_no_upper_age_limit_and_a_band_that_ends_where_its_own_document_advises_against():
    insurer = _doc("nm-pcs", PSA["topic"], "The plan covers one PSA blood test every 12 months for male members aged "
                                           "50 years and older. There is no upper age limit on this benefit.")
    graded = _doc("tu-pcs", PSA["topic"], "For men aged 55 to 69 years, the decision to undergo PSA-based screening "
                                          "should be an individual one (conditional recommendation). Men aged 70 years "
                                          "and older should not be screened (strong recommendation against).")
    leaflet = _doc("pm-pcs", PSA["topic"], "From your 50th birthday until you turn 70, whether to have the test is "
                                           "your decision. Once you reach 70, we advise stopping PSA testing.")
    facets = _facets(insurer, graded, leaflet)
    assert {("stop_age", ("nm-pcs", "tu-pcs")), ("stop_age", ("nm-pcs", "pm-pcs"))} <= facets
    # "until you turn 70" beside "once you reach 70, stop": both stop after 69, and the two bands do not meet at 70
    assert ("stop_age", ("pm-pcs", "tu-pcs")) not in facets
    assert ("action", ("pm-pcs", "tu-pcs")) not in facets


@pytest.mark.parametrize("sentence, action", [
    # a class I recommendation whose discussion is how it is carried out
    ("Recommendation 4.1 (class I; LOE A): in adults 40 to 75 years of age with a 10-year ASCVD risk of 7.5% or "
     "higher, moderate-intensity statin therapy is recommended after a clinician-patient risk discussion.",
     "recommend"),
    # a weaker class after a discussion is the discussion's outcome
    ("In adults 40 to 75 years of age with a 10-year risk of 5% to less than 7.5%, it may be reasonable to initiate "
     "a statin after a clinician-patient discussion (Class IIb).", "individual_decision"),
])
def test_a_class_after_a_discussion(sentence, action):
    assert [x.action for x in extract_frames(sentence, doc_meta=STATIN)] == [action]


def test_a_reading_that_now_defines_hypertension_names_it():
    f = extract_frames("Its principal change is a lower diagnostic cut-off: office blood pressure of 130/80 mm Hg or "
                       "higher, confirmed on at least two occasions, now defines hypertension (COR I; LOE B-NR).",
                       doc_meta=BP)
    assert [(q.name, q.op, q.value) for x in f for q in x.thresholds] == [("hypertension", ">=", "130/80")]


@pytest.mark.parametrize("sentence, action, conditions, targets", [
    # an individualised target is the goal recommended
    ("Box A, individualised target: for most adults with type 2 diabetes, aim for an HbA1c between 7.0% and 8.0%.",
     "recommend", [], [("range", "7-8")]),
    # the drugs to avoid are not a stance on the goal
    ("Box B, frail or housebound adults, or those with a life expectancy under five years: aim for an HbA1c below "
     "8.5% and, where possible, avoid glucose-lowering drugs that cause hypoglycaemia.",
     "recommend", ["limited life expectancy", "frailty"], [("<", "8.5")]),
    ("If you are older and frail, or if low blood sugar (hypos) is a problem for you, your doctor may agree a goal of "
     "below 8% with you instead.", "suggest_or_consider", ["frailty", "severe hypoglycemia"], [("<", "8")]),
    ("If you have had episodes of very low blood sugar, your care team may agree a higher goal of below 8%.",
     "suggest_or_consider", ["severe hypoglycemia"], [("<", "8")]),
    # a goal tighter than the usual one states no value of its own
    ("Your goal may be set lower than 7% if you are young and newly diagnosed.", "suggest_or_consider",
     ["short diabetes duration"], []),
])
def test_subgroup_goals_written_for_patients(sentence, action, conditions, targets):
    f = extract_frames(sentence, doc_meta=A1C)
    assert [(x.action, x.population.conditions, [(q.op, q.value) for q in x.targets]) for x in f] == [
        (action, conditions, targets)]


@pytest.mark.parametrize("sentence, meta, expected", [
    # a programme letter: who is invited, and the kit posted on a schedule
    ("Everyone aged 50 to 74 who is registered with a general practice is invited, and from your 50th birthday a free "
     "home test kit (FIT) will be posted to you every two years.", CRC,
     [("recommend", None, 50, 74, None), ("recommend", "FIT", 50, None, 24)]),
    # a choice on request, and permission to stop at an age
    ("For women aged 40 to 44 a mammogram may be obtained at the woman's request.", BREAST,
     [("individual_decision", None, 40, 44, None)]),
    ("Most men can stop having PSA tests at 75.", PSA, [("discourage", None, 76, None, None)]),
    # an inverse quality measure counts overuse
    ("Measure description: percentage of men 70 years and older who were screened unnecessarily for prostate cancer "
     "using a PSA test.", PSA, [("recommend_against", None, 70, None, None)]),
    # an order set's eligibility screen and its blocked order
    ("Eligibility screen: age 40-59 years; calculated 10-year ASCVD risk of 10% or more.", ASPIRIN,
     [("recommend", None, 40, 59, None)]),
    ("If the patient is 60 years of age or older, the order set displays 'Do not initiate aspirin for primary "
     "prevention' and the order is blocked.", ASPIRIN, [("recommend_against", None, 60, None, None)]),
    ("Who this pathway is for: adults aged 40 to 84 without established cardiovascular disease.", STATIN,
     [("recommend", None, 40, 84, None)]),
    # a model's result is a finding, not advice
    ("In the panel's modelling, starting at 25 instead of 21 avoided about 40 colposcopies per 1,000 people screened.",
     CERVICAL, []),
])
def test_letters_requests_measures_order_sets_and_findings(sentence, meta, expected):
    assert _summary(sentence, meta) == expected


def test_a_two_part_coverage_rule_divides_and_a_risk_as_a_proportion():
    f = extract_frames("For members aged 76 to 85, screening is covered only when the medical record documents an "
                       "individualized, shared decision-making discussion of the member's expected benefits and risks, "
                       "and screening of members older than 85 is considered not medically necessary.", doc_meta=CRC)
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [
        ("individual_decision", 76, 85), ("recommend_against", 86, None)]
    f = extract_frames("If you are between 40 and 69 and your chance of having a heart attack or stroke in the next "
                       "ten years is 1 in 5 or higher, your doctor may suggest a low daily dose of aspirin.",
                       doc_meta=ASPIRIN)
    assert [(q.name, q.op, q.value) for x in f for q in x.thresholds] == [("10-year CVD risk", ">=", "20")]


def test_absent_conditions_and_stopping_for_the_adequately_screened():
    f = extract_frames("Step 1: confirm the patient is 21 years or older, asymptomatic and has no history of CIN2+ or "
                       "hysterectomy.", doc_meta=CERVICAL)
    assert [(x.population.age_min, x.population.conditions) for x in f] == [(21, [])]
    f = extract_frames("We suggest that persons who are up to date with screening and have had consistently negative "
                       "prior tests consider stopping screening at age 75 (weak recommendation).", doc_meta=CRC)
    assert [(x.action, x.population.age_min, x.population.conditions) for x in f] == [
        ("discourage", 76, ["adequate prior screening"])]


def test_newly_diagnosed_is_a_short_diabetes_duration_only_for_diabetes():
    f = extract_frames("Your goal may be set lower than 7% if you are young and newly diagnosed.", doc_meta=A1C)
    assert f[0].population.conditions == ["short diabetes duration"]
    f = extract_frames("Adults with newly diagnosed hypertension should have their blood pressure rechecked every "
                       "year.", doc_meta=BP)
    assert "short diabetes duration" not in f[0].population.conditions
