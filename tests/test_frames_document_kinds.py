"""Recommendation frames in the kinds of documents that are not formal guidelines: programme letters, insurer
policies, clinical pathways, quality measures, consensus statements and patient summaries (``tools/frames/rules.py``,
``ages.py``, ``intervals.py``, ``quantities.py``, ``bands.py``, ``conflicts.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CERVICAL, CRC, LUNG, PSA
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames import bands
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames


def test_a_programme_letter_states_who_is_invited_how_often_and_until_when():
    assert _summary("Dear Patient, you are now due for cervical screening, a free test offered to everyone with a "
                    "cervix aged 25 to 64.", CERVICAL) == [("recommend", None, 25, 64, None)]
    assert _summary("Every three years, eligible women are invited for cytology.", CERVICAL) == [
        ("recommend", "cytology", None, None, 36)]
    assert _summary("If your HPV test is clear we will invite you again in five years.", CERVICAL)[0][-1] == 60
    # an exception for some older people is not an invitation of everyone that age
    assert extract_frames("Those aged 65 or over are invited only if one of their last three tests was abnormal.",
                          doc_meta=CERVICAL) == []
    assert _summary("The last kit is posted in the year you turn 74; after that the programme no longer sends kits.",
                    CRC) == [("recommend", "FIT", None, 74, None)]


def test_the_last_kit_closes_the_band_a_letter_opens():
    letter = _doc("p", CRC["topic"], "From your 50th birthday we will post you a home FIT kit every two years. The "
                                     "last kit is posted in the year you turn 74.")
    frames = document_frames(letter)
    assert bands.band(frames[0], frames) == (50, 74)
    assert bands.stop_age(frames)[0] == 74


def test_an_insurer_policy_states_frequency_limits_and_what_it_does_not_cover():
    f = extract_frames("Covered services and frequency limits: screening colonoscopy, one per 120 months; fecal "
                       "immunochemical test, one per 12 months.", doc_meta=CRC)
    assert [(x.test, x.interval_months.min) for x in f] == [("colonoscopy", 120), ("FIT", 12)]
    assert _summary("Screening of members aged 76 and older is considered not medically necessary and is not "
                    "covered.", CRC) == [("recommend_against", None, 76, None, None)]


def test_a_choice_left_to_the_patient_is_an_individual_decision():
    f = extract_frames("If you are between forty and forty-four, you can start yearly mammograms sooner; this is "
                       "your choice to make with your doctor.", doc_meta={"topic": "breast-cancer-screening"})
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [("individual_decision", 40, 44)]
    assert _summary("Frequency, for men who opt in: a PSA test every 12 months.", PSA) == [
        ("individual_decision", None, None, None, 12)]


def test_a_pathways_steps_and_instructions_not_to_order():
    assert _summary("Step 3, order: total PSA, repeated at 24-month intervals.", PSA) == [
        ("recommend", None, None, None, 24)]
    assert _summary("Do not order PSA screening for men aged 70 and over.", PSA) == [
        ("recommend_against", None, 70, None, None)]
    assert _summary("Subsequent screening scans are ordered every 24 months.", LUNG) == [
        ("recommend", None, None, None, 24)]
    # a decision stated without ages starts where the pathway's own population does
    pathway = _doc("f", PSA["topic"], "Step 2, discuss: PSA screening is an individual decision. Do not order PSA "
                                      "screening for men aged 70 and over.", population="Men aged 55 to 69")
    frames = document_frames(pathway)
    assert bands.start_age(frames)[0] == 55 and bands.stop_age(frames)[0] == 69


def test_schedules_for_those_who_choose_and_result_thresholds_are_compared_as_such():
    """An interval for men who opted in is compared with a recommended one; what to do at a result ("refer if PSA is
    4.0 ng/mL or higher") is compared as a threshold, not as an action, and only with a limit on the same side."""
    topic = PSA["topic"]
    a = _doc("a", topic, "Men at average risk should undergo PSA-based screening from age 45. Repeat testing should "
                         "take place every 2 years; men whose PSA is below 1 ng/mL may extend the interval to 4 "
                         "years. A PSA of 3 ng/mL or higher should prompt a repeat test.")
    b = _doc("b", topic, "For men aged 50 to 69, the decision to undergo PSA screening should be an individual one. "
                         "Frequency, for men who opt in: a PSA test every 12 months. A PSA of 3.0 ng/mL or above "
                         "should be regarded as raised.")
    c = _doc("c", topic, "PSA screening is an individual decision for men aged 55 to 69. Step 4, act on results: "
                         "refer to urology if PSA is 4.0 ng/mL or higher.")
    found = _facets(a, b, c)
    assert ("interval", ("a", "b")) in found
    assert ("threshold", ("a", "c")) in found and ("threshold", ("b", "c")) in found
    assert ("threshold", ("a", "b")) not in found  # "below 1" selects other men than "3 or higher"
    assert ("action", ("b", "c")) not in found and ("action", ("a", "b")) in found


def test_a_consensus_statement_keeps_former_smokers_and_its_vote_shares_are_no_values():
    f = extract_frames("Statement 2 (agreement 88%): the number of years since a former smoker quit should not be "
                       "used to exclude them from screening.", doc_meta=LUNG)
    assert [(x.action, x.population.criteria[0], x.thresholds) for x in f] == [
        ("recommend", "years since quitting: any", [])]
    f = extract_frames("Statement 1 (agreement 96%): we recommend yearly low-dose CT screening for people aged 50 to "
                       "80 with 20 or more pack-years.", doc_meta=LUNG)
    assert [(x.action, x.thresholds) for x in f] == [("recommend", [])]


def test_a_risk_written_with_its_comparator_is_no_risk_group_and_bleeding_history_is_a_condition():
    f = extract_frames("If you are between 40 and 70 years old and have a 15% or higher risk over the next 10 "
                       "years, your doctor may suggest a low dose of aspirin.", doc_meta=ASPIRIN)
    assert [(x.population.risk, [(q.op, q.value) for q in x.thresholds]) for x in f] == [(None, [(">=", "15")])]
    f = extract_frames("Whatever your age, aspirin is not advised if you have had a stomach ulcer.", doc_meta=ASPIRIN)
    assert [(x.action, x.population.conditions) for x in f] == [("recommend_against", ["increased bleeding risk"])]


def test_an_inverse_quality_measure_counts_what_should_not_happen():
    text = ("This is an inverse measure: a lower rate indicates better quality. Denominator: patients aged 60 years "
            "and older without cardiovascular disease. Numerator: patients in the denominator with a new "
            "prescription for low-dose aspirin. Rationale: aspirin should not be initiated for primary prevention "
            "in adults aged 60 years or older.")
    assert [(f.action, f.population.age_min) for f in document_frames(_doc("m", ASPIRIN["topic"], text))] == [
        ("recommend_against", 60)]
    # a measure that only mentions an inverse companion measure still states its own goal
    text = ("Numerator: patients whose most recent HbA1c is less than 8.0%. A companion inverse measure counts "
            "patients whose HbA1c is greater than 9.0%.")
    frames = document_frames(_doc("n", A1C["topic"], text))
    assert [(q.op, q.value) for f in frames[:1] for q in f.targets] == [("<", "8")]


def test_definitions_of_hypertension_in_summaries_retentions_and_referrals():
    def thresholds(sentence: str) -> list[tuple]:
        return [(q.name, q.op, q.value) for f in extract_frames(sentence, doc_meta=BP) for q in f.thresholds]

    assert thresholds("Summary of major changes: the diagnostic threshold for hypertension is now 130/80 mm Hg "
                      "(previously 140/90 mm Hg).") == [("hypertension", ">=", "130/80")]
    assert thresholds("The Association retains the definition of hypertension as an office systolic blood pressure "
                      "of 140 mm Hg or higher and/or a diastolic pressure of 90 mm Hg or higher.") == [
        ("hypertension", ">=", "140/90")]
    assert thresholds("If clinic blood pressure is 140/90 mmHg or higher, offer ambulatory blood pressure monitoring "
                      "(ABPM) to confirm the diagnosis.") == [("hypertension", ">=", "140/90")]
    assert thresholds("Hypertension is confirmed when the home average is 135/85 mmHg or higher.") == [
        ("hypertension (home)", ">=", "135/85")]
    assert extract_frames("If clinic blood pressure is 180/120 mmHg or higher, refer for same-day specialist "
                          "assessment.", doc_meta=BP) == []
    assert thresholds("Out-of-office measurement is strongly encouraged to exclude white-coat hypertension, which "
                      "affects an estimated 10-30% of people with raised office readings.") == []
    f = extract_frames("For patients aged 80 and older, a systolic target of 140 to 150 mm Hg remains appropriate.",
                       doc_meta=BP)
    assert [(x.action, x.population.age_min, [(q.op, q.value) for q in x.targets]) for x in f] == [
        ("recommend", 80, [("range", "140-150")])]


def test_testing_intervals_written_as_instructions_or_as_enough():
    assert _summary("Once HbA1c has been stable, testing it once every 12 months is sufficient.", A1C) == [
        ("recommend", None, None, None, 12)]
    f = extract_frames("Measure HbA1c every 3 to 6 months until it is stable, and then every 6 months.", doc_meta=A1C)
    assert [(x.action, x.interval_months.min, x.interval_months.max) for x in f] == [("recommend", 3, 6)]
    # sufficient evidence is a finding
    assert extract_frames("A working group concluded that there is sufficient evidence that screening with FIT "
                          "reduces mortality.", doc_meta=CRC) == []


def test_a_leaflets_optional_start_its_recommended_start_and_no_upper_age():
    breast = {"topic": "breast-cancer-screening"}
    f = extract_frames("You can choose to start yearly mammograms at 40 if you wish, and we strongly recommend that "
                       "you begin no later than your 45th birthday.", doc_meta=breast)
    assert [(x.action, x.population.age_min) for x in f] == [("individual_decision", 40), ("recommend", 45)]
    f = extract_frames("From 45 until your 55th birthday, you should have a mammogram every year.", doc_meta=breast)
    assert [(x.population.age_min, x.population.age_max) for x in f] == [(45, 54)]
    leaflet = _doc("g", breast["topic"], "From 45 until your 55th birthday, you should have a mammogram every year. "
                                         "Keep going for as long as you are in good health.")
    assert bands.stop_age(document_frames(leaflet))[0] == bands.NO_UPPER_LIMIT


def test_ages_a_document_replaced_or_reports_as_a_trend_bound_no_one():
    f = extract_frames("The ACBI now recommends biennial screening mammography for all women from 40 through 74 years "
                       "of age (Grade B), replacing the individual-decision approach previously taken for women in "
                       "their forties.", doc_meta={"topic": "breast-cancer-screening"})
    assert [(x.population.age_min, x.population.age_max) for x in f] == [(40, 74)]
    f = extract_frames("The Society now advises that average-risk adults begin screening at 45 rather than 50, "
                       "reflecting early-onset disease, which has increased by about 2% per year among adults younger "
                       "than 50.", doc_meta=CRC)
    assert [(x.population.age_min, x.population.age_max) for x in f] == [(45, None)]
    f = extract_frames("The decision to start screening mammography in women prior to age 50 years should be an "
                       "individual one.", doc_meta={"topic": "breast-cancer-screening"})
    assert [x.population.age_max for x in f] == [49]


def test_a_pathways_eligibility_step_what_is_no_longer_offered_and_where_it_stops():
    f = extract_frames("Step 1, eligibility: people with a cervix aged 25 to 65 years who have no symptoms; screening "
                       "is no longer offered to people aged 21 to 24.", doc_meta=CERVICAL)
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [
        ("recommend", 25, 65), ("recommend_against", 21, 24)]
    assert _summary("Step 1, eligibility check: the clinician confirms the patient is 55-77 years old.", LUNG) == [
        ("recommend", None, 55, 77, None)]
    assert _summary("Screening should stop at 60 for women whose last HPV test was negative.", CERVICAL)[0][:3] == (
        "recommend_against", "hrHPV testing", 61)
    # a catch-up test for the never screened is not routine screening past the stop age
    f = extract_frames("Women over 60 who have never been screened should be offered a single HPV test.",
                       doc_meta=CERVICAL)
    assert [x.population.conditions for x in f] == [["never screened"]]
    f = extract_frames("Step 3, ages 30-65: order co-testing (cytology plus hrHPV) every 5 years, although cytology "
                       "alone every 3 years remains acceptable.", doc_meta=CERVICAL)
    assert [(x.test, x.action, x.interval_months.min) for x in f] == [
        ("co-testing", "recommend", 60), ("cytology", "suggest_or_consider", 36)]


def test_a_new_single_test_replacing_several_changes_the_schedule_for_the_ages_it_covers():
    topic = CERVICAL["topic"]
    old = {**_doc("d-2019", topic, "Step 2, ages 21-29: order cervical cytology alone every 3 years. Step 3, ages "
                                   "30-65: order co-testing every 5 years."),
           "org": "D", "issued": "2019-01-01", "status": "superseded", "superseded_by": "d-2024"}
    new = {**_doc("d-2024", topic, "Step 1, eligibility: people with a cervix aged 25 to 65 years. Step 2, test: "
                                   "order primary hrHPV testing every 5 years."), "org": "D", "issued": "2024-01-01"}
    frames = [f for d in (old, new) for f in document_frames(d)]
    found = {(c.kind, c.facet) for c in find_conflicts(frames, replaced_on={"d-2019": "2024-01-01"})}
    assert ("change", "interval") in found and ("change", "start_age") in found


def test_insurer_limits_programme_kits_labelled_recommendations_and_enough_of_a_finding():
    f = extract_frames("The following frequency limits apply: screening colonoscopy once every 10 years; fecal "
                       "immunochemical test (FIT) once every 12 months.", doc_meta=CRC)
    assert [(x.test, x.interval_months.min) for x in f] == [("colonoscopy", 120), ("FIT", 12)]
    assert _summary("As long as you remain in the eligible age range, we will post you a new kit every two years.",
                    CRC) == [("recommend", "FIT", None, None, 24)]
    assert _summary("Recommendation 1 (strong; moderate certainty): start screening at 45 years in asymptomatic "
                    "adults at average risk.", CRC) == [("recommend", None, 45, None, None)]
    f = extract_frames("Recommendation 2 (strong): continue screening through age 75; between 76 and 85, screening "
                       "should be offered selectively (conditional).", doc_meta=CRC)
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [
        ("recommend", None, 75), ("individual_decision", 76, 85)]
    # a coordinated "and continue" is part of the same recommendation
    f = extract_frames("Women at average risk should now start having a mammogram every other year at 40 and "
                       "continue up to age 74 (grade B).", doc_meta={"topic": "breast-cancer-screening"})
    assert [(x.population.age_min, x.population.age_max) for x in f] == [(40, 74)]
    # how common a disease is, and a document's replacement of an older one, recommend nothing
    assert extract_frames("About 1 in 8 men will be diagnosed with prostate cancer at some point.", doc_meta=PSA) == []
    assert extract_frames("This 2024 edition replaces the Council's 2015 position, which recommended against PSA "
                          "screening at any age.", doc_meta=PSA) == []


def test_statin_thresholds_replaced_values_ldl_bands_and_goals_written_up_to():
    statin = {"topic": "statin-primary-prevention"}
    f = extract_frames("Statin therapy is recommended for adults aged 40 to 75 whose 10-year cardiovascular risk is "
                       "7.5% or more, lowered from the 10% cut-off used in 2018.", doc_meta=statin)
    assert [(q.op, q.value) for x in f for q in x.thresholds] == [(">=", "7.5")]
    f = extract_frames("Statement 1 (consensus reached, 92%): people aged 50 to 80 years with 20 pack-years or more "
                       "should be offered screening once a year.", doc_meta=LUNG)
    assert [x.thresholds for x in f] == [[]]
    topic = statin["topic"]
    band = _doc("c", topic, "In adults 40 to 75 years of age with LDL-C 70 to 189 mg/dL, a statin is recommended if "
                            "the 10-year ASCVD risk is 7.5% or higher.")
    limit = _doc("k", topic, "Statin therapy is recommended for adults aged 40 to 75 whose 10-year cardiovascular risk "
                             "is 7.5% or more; adults with LDL cholesterol of 190 mg/dL or higher should receive a "
                             "statin.")
    merged = _doc("q", topic, "Statin therapy should be started in adults aged 40 to 75 with a 10-year cardiovascular "
                              "risk of 10% or more, and in any adult with LDL cholesterol of 190 mg/dL or higher.")
    found = _facets(band, limit, merged)
    assert ("threshold", ("c", "k")) not in found  # the same 7.5 %; an LDL-C band is not a subgroup's limit
    assert ("threshold", ("c", "q")) in found and ("threshold", ("k", "q")) in found
    assert bands.start_age(document_frames(merged))[0] == 40
    goals = [_doc(i, A1C["topic"], t) for i, t in (
        ("g", "A less stringent goal, such as below 8%, may be reasonable for people with limited life expectancy or "
              "a history of severe hypoglycemia."),
        ("t", "If you are frail or have had dangerous hypos, a goal of up to 64 mmol/mol (8.0%) may be agreed."),
        ("s", "For older adults who are frail or have a history of severe hypoglycemia, an A1C goal of <7.5% is "
              "recommended."))]
    assert _facets(*goals) == {("target", ("g", "s")), ("target", ("s", "t"))}
