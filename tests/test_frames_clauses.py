"""Recommendation frames, one sentence with several recommendations: clauses, gapped recommendations, alternative
conditions, tests with their own intervals, thresholds with their goals (``tools/frames/clauses.py``,
``populations.py``)."""

from __future__ import annotations

from clinrag.tools.frames.extract import extract_frames


def one(sentence: str):
    frames = extract_frames(sentence)
    assert len(frames) == 1, frames
    return frames[0]


def test_an_adverb_interval_belongs_to_the_test_before_it():
    frames = extract_frames("A fecal immunochemical test annually or CT colonography every 5 years may be offered "
                            "to adults aged 45 to 75.")
    assert [(f.test, f.interval_months.min) for f in frames] == [("FIT", 12), ("CT colonography", 60)]


def test_while_and_whereas_clauses_and_the_same_age_are_separate_frames_with_their_own_strength():
    frames = extract_frames("For men aged 55 to 69 PSA screening is an individual decision (grade C), whereas "
                            "screening men 70 and older is not recommended.")
    assert [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in frames] == [
        ("individual_decision", 55, 69, "grade C"), ("recommend_against", 70, None, None)]
    frames = extract_frames("Adults aged 40 to 75 with diabetes should take a moderate-intensity statin (grade A); "
                            "for adults of the same age with a 10-year risk of 20% or higher, a high-intensity "
                            "statin may be considered (grade B).")
    assert [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in frames] == [
        ("recommend", 40, 75, "grade A"), ("recommend", 40, 75, "grade B")]


def test_a_threshold_and_bringing_the_pressure_below_a_value_are_two_frames():
    frames = extract_frames("For adults whose systolic pressure is at or above 140 mm Hg, clinicians should start "
                            "treatment to bring systolic pressure below 130 mm Hg.")
    assert [(f.intervention, [(q.op, q.value) for q in f.thresholds + f.targets]) for f in frames] == [
        ("blood-pressure threshold", [(">=", "140")]), ("blood-pressure target", [("<", "130")])]


def test_an_age_range_opened_and_closed_by_participles_is_one_clause():
    frames = extract_frames("Starting at age 50 and continuing until age 74, women should have mammography every "
                            "2 years.")
    assert [(f.population.age_min, f.population.age_max, f.interval_months.min) for f in frames] == [(50, 74, 24)]
    assert one("Women should be screened from the age of 25 up to the age of 64 with cervical cytology.").population \
        .model_dump(include={"age_min", "age_max"}) == {"age_min": 25, "age_max": 64}


def test_alternative_conditions_are_separate_populations():
    frames = extract_frames("People can stop cervical screening if they are over 65 and have had adequate prior "
                            "screening, or if they have had a hysterectomy.")
    assert [(f.intervention, f.action, f.population.age_min, f.population.conditions) for f in frames] == [
        ("cervical cancer screening", "discourage", 66, ["adequate prior screening"]),
        ("cervical cancer screening", "discourage", None, ["hysterectomy"])]


def test_coordinated_recommendations_of_two_interventions_are_two_frames():
    frames = extract_frames("The college recommends annual mammography for average-risk women beginning at age 40, "
                            "and supplemental screening with breast MRI should be considered for women with dense "
                            "breasts.")
    assert [(f.intervention, f.action, f.population.age_min) for f in frames] == [
        ("screening mammography", "recommend", 40), ("supplemental breast imaging", "suggest_or_consider", None)]


def test_a_gapped_second_recommendation_takes_the_first_clauses_action():
    frames = extract_frames("The college suggests that clinical breast examination may be offered every 3 years to "
                            "women aged 25 to 39, and every year to those aged 40 and older.")
    assert [(f.action, f.population.age_min, f.population.age_max, f.interval_months.min) for f in frames] == [
        ("suggest_or_consider", 25, 39, 36), ("suggest_or_consider", 40, None, 12)]


def test_that_clauses_with_their_own_grades_are_two_frames_for_the_same_adults():
    frames = extract_frames("The panel recommends that clinicians offer a statin to adults aged 40 to 75 with a "
                            "10-year risk of 10% or more (grade B) and that they selectively offer one to those "
                            "whose risk is 7.5% to less than 10% (grade C).")
    assert [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in frames] == [
        ("recommend", 40, 75, "grade B"), ("individual_decision", 40, 75, "grade C")]


def test_percent_in_words_aims_and_va_strengths():
    f = one("If you have diabetes, your care team will aim to keep your A1C below 7 percent (weak for).")
    assert (f.intervention, f.action, [(q.op, q.value, q.unit) for q in f.targets], f.strength) == (
        "A1C target", "recommend", [("<", "7", "%")], "weak")
    frames = extract_frames("We recommend drug treatment for adults aged 65 to 79 once systolic pressure reaches "
                            "140 mm Hg or higher, and recommend lowering systolic pressure to a range of 130 to 139 "
                            "mm Hg (both class I, level A).")
    assert [(f.intervention, [(q.op, q.value) for q in f.thresholds + f.targets], f.strength) for f in frames] == [
        ("blood-pressure threshold", [(">=", "140")], "class I; LOE A"),
        ("blood-pressure target", [("range", "130-139")], "class I; LOE A")]


def test_coordinated_verbs_with_their_own_grades_are_two_frames():
    frames = extract_frames("The task force recommends that women aged 50 to 74 years have a mammogram every 2 years "
                            "(grade B) and concludes that the evidence is insufficient for women 75 years or older "
                            "(I statement).")
    assert [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in frames] == [
        ("recommend", 50, 74, "grade B"), ("insufficient_evidence", 75, None, "grade I")]
    frames = extract_frames("Clinicians should offer a statin to adults aged 40 to 75 whose 10-year risk is 10% or "
                            "greater (grade B), and may selectively offer one when that risk is 7.5% to less than 10% "
                            "(grade C).")
    assert [(f.action, f.population.age_min, f.population.age_max, [q.value for q in f.thresholds]) for f in
            frames] == [("recommend", 40, 75, ["10"]), ("individual_decision", 40, 75, ["7.5-10"])]


def test_a_second_test_after_a_semicolon_is_a_frame_for_the_same_people():
    frames = extract_frames("Women aged 30 to 65 should have primary HPV testing every 5 years; co-testing with "
                            "cytology and HPV every 5 years may be used where primary HPV testing is unavailable.")
    assert [(f.test, f.action, f.population.age_min, f.population.age_max) for f in frames] == [
        ("hrHPV testing", "recommend", 30, 65), ("co-testing", "suggest_or_consider", 30, 65)]


def test_a_gapped_recommendation_without_a_comma_and_a_condition_that_names_another_intervention():
    frames = extract_frames("Clinical breast examination may be offered every 1 to 3 years from age 25 to 39 and "
                            "annually from age 40.")
    assert [(f.population.age_min, f.population.age_max, f.interval_months.text()) for f in frames] == [
        (25, 39, "12-36"), (40, None, "12")]
    frame = one("For women with dense breasts and an otherwise negative screening mammogram, the evidence is "
                "insufficient to assess supplemental screening with breast MRI (I statement).")
    assert (frame.intervention, frame.action) == ("supplemental breast imaging", "insufficient_evidence")


def test_an_age_that_opens_a_second_clause_and_a_bare_letter_grade():
    frames = extract_frames("Women should have a mammogram every year from age 45 through 54, and at 55 they may "
                            "switch to a mammogram every 2 years.")
    assert [(f.action, f.population.age_min, f.population.age_max, f.interval_months.min) for f in frames] == [
        ("recommend", 45, 54, 12), ("suggest_or_consider", 55, None, 24)]
    assert one("Adults aged 50 to 75 should be screened for colorectal cancer (A).").strength == "grade A"


def test_a_change_narrative_that_states_what_is_now_recommended():
    frames = extract_frames("In 2021 the task force lowered the starting age for colorectal cancer screening, now "
                            "recommending it for adults 45 to 49 (B grade) while keeping its A-grade recommendation "
                            "for adults 50 to 75.")
    assert [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in frames] == [
        ("recommend", 45, 49, "grade B"), ("recommend", 50, 75, "grade A")]
    assert extract_frames("In 2021 the task force lowered the starting age for colorectal cancer screening.") == []


def test_semicolon_clauses_with_their_own_ages_are_separate_frames():
    frames = extract_frames("Women aged 45 to 54 should be screened with mammography every year; women 55 and "
                            "older may switch to screening every 2 years.")
    assert [(f.population.age_min, f.population.age_max, f.action, f.interval_months.min) for f in frames] == [
        (45, 54, "recommend", 12), (55, None, "suggest_or_consider", 24)]


def test_a_treatment_threshold_and_a_goal_in_one_sentence_are_two_frames():
    frames = extract_frames("In adults 60 years or older, we recommend starting drug treatment when systolic blood "
                            "pressure is at or above 150 mm Hg, with a treatment goal of less than 150 mm Hg.")
    assert [(f.intervention, [(q.op, q.value) for q in f.thresholds + f.targets]) for f in frames] == [
        ("blood-pressure threshold", [(">=", "150")]), ("blood-pressure target", [("<", "150")])]
    assert all(f.population.age_min == 60 for f in frames)


def test_a_coordinated_clause_with_its_own_action_word_and_ages_is_a_second_frame():
    frames = extract_frames("Screening adults aged 76 to 85 years for colorectal cancer should be decided case by "
                            "case, and screening is not recommended after age 85.")
    assert [(f.intervention, f.action, f.population.age_min, f.population.age_max) for f in frames] == [
        ("colorectal cancer screening", "individual_decision", 76, 85),
        ("colorectal cancer screening", "recommend_against", 86, None)]
    # a coordinated verb without its own modal or action word stays in its clause
    frames = extract_frames("Adults aged 50 to 75 should be screened and offered colonoscopy every 10 years.")
    assert [(f.test, f.action, f.population.age_min, f.interval_months.min) for f in frames] == [
        ("colonoscopy", "recommend", 50, 120)]


def test_a_gapped_second_interval_takes_the_strength_stated_once_at_the_end():
    frames = extract_frames("Women should have screening mammography every year from age 40 to 49 and every 2 years "
                            "from age 50 onward (strong recommendation).")
    assert [(f.population.age_min, f.population.age_max, f.interval_months.min, f.action, f.strength)
            for f in frames] == [(40, 49, 12, "recommend", "strong"), (50, None, 24, "recommend", "strong")]


def test_a_second_verb_whose_only_action_word_is_the_closing_strength_stays_in_the_clause():
    frames = extract_frames("Women at average risk should start cervical screening at age 30 and have an HPV test "
                            "every 5 years until age 60 (strong recommendation).")
    assert [(f.test, f.population.age_min, f.population.age_max, f.interval_months.min, f.strength)
            for f in frames] == [("hrHPV testing", 30, 60, 60, "strong")]


def test_an_interval_followed_by_with_belongs_to_the_tests_after_it():
    frames = extract_frames("For women aged 30 to 65, screen every 5 years with HPV testing alone or with co-testing, "
                            "or every 3 years with cytology alone (grade A).")
    assert sorted((f.test, f.interval_months.min) for f in frames) == [
        ("co-testing", 60), ("cytology", 36), ("hrHPV testing", 60)]


def test_populations_joined_by_nor():
    frames = extract_frames("Cervical screening is not recommended for women younger than 21, nor for women over 65 "
                            "who have had adequate prior screening (grade D).")
    assert [(f.population.age_min, f.population.age_max, f.population.conditions, f.action) for f in frames] == [
        (None, 20, [], "recommend_against"), (66, None, ["adequate prior screening"], "recommend_against")]


def test_a_part_for_a_subgroup_of_its_own_stands_apart_and_takes_no_ages():
    frames = extract_frames("If you're aged 25 to 49 you'll be invited for cervical screening every 3 years, and "
                            "between 50 and 64 every 5 years; if you have had a total hysterectomy you won't need "
                            "screening at all.")
    assert [(f.population.age_min, f.population.age_max, f.population.conditions, f.action,
             f.interval_months.min if f.interval_months else None) for f in frames] == [
        (25, 49, [], "recommend", 36), (50, 64, [], "recommend", 60),
        (None, None, ["hysterectomy"], "discourage", None)]


def test_tests_joined_by_or_share_the_interval_after_them_unless_they_state_their_own():
    frames = extract_frames("Recommended options are FIT every year, CT colonography or flexible sigmoidoscopy every "
                            "five years, and colonoscopy every ten years for adults aged 50 to 75.")
    assert sorted((f.test, f.interval_months.min) for f in frames) == [
        ("CT colonography", 60), ("FIT", 12), ("colonoscopy", 120), ("flexible sigmoidoscopy", 60)]
    frames = extract_frames("Adults aged 50 to 75 should have either an annual FIT or colonoscopy every 10 years.")
    assert sorted((f.test, f.interval_months.min, f.interval_months.max) for f in frames) == [
        ("FIT", 12, 12), ("colonoscopy", 120, 120)]


def test_though_divides_a_part_after_a_semicolon():
    frames = extract_frames("Women aged 21 to 29 should have cytology every 3 years; from age 30 to 65, screening "
                            "should use HPV testing every 5 years, though co-testing every 5 years may be used "
                            "instead.")
    assert [(f.test, f.population.age_min, f.population.age_max, f.action) for f in frames] == [
        ("cytology", 21, 29, "recommend"), ("hrHPV testing", 30, 65, "recommend"),
        ("co-testing", 30, 65, "suggest_or_consider")]


def test_parts_with_values_of_their_own_and_a_gapped_second_target():
    frames = extract_frames("Support adults to keep HbA1c at or below 48 mmol/mol on diet alone; where a sulfonylurea "
                            "is used, aim for 53 mmol/mol or below.")
    assert [[(q.op, q.value) for q in f.targets] for f in frames] == [[("<=", "48")], [("<=", "53")]]
    frames = extract_frames("For people under 80, aim for a clinic blood pressure below 140/90 mmHg, and for those "
                            "aged 80 and over, below 150/90 mmHg.")
    assert [(f.intervention, f.population.age_min, f.population.age_max, [(q.op, q.value) for q in f.targets])
            for f in frames] == [("blood-pressure target", None, 79, [("<", "140/90")]),
                                 ("blood-pressure target", 80, None, [("<", "150/90")])]


def test_a_coordinated_verb_about_another_subgroup_is_a_second_frame():
    frames = extract_frames("Women who have had a total hysterectomy do not need cervical cancer screening, and women "
                            "older than 65 with adequate prior negative screening can stop.")
    assert [(f.population.age_min, f.population.conditions, f.action) for f in frames] == [
        (None, ["hysterectomy"], "discourage"), (66, ["adequate prior screening"], "discourage")]


def test_a_part_closed_by_its_own_strength_then_another_action():
    frames = extract_frames("Start drug treatment when clinic blood pressure is 150/95 mm Hg or higher (Class I; LOE "
                            "A), and once treatment has begun a goal below 140/90 mm Hg is recommended (Class I; LOE "
                            "C).")
    assert [(f.intervention, f.strength) for f in frames] == [("blood-pressure threshold", "class I; LOE A"),
                                                              ("blood-pressure target", "class I; LOE C")]
    # a semicolon inside the parentheses divides nothing; the part after the strength takes none of it
    frames = extract_frames("Most adults with type 2 diabetes should aim for an HbA1c of 7% to 8% (weak "
                            "recommendation; low-certainty evidence) and should consider easing treatment when it "
                            "falls below 6.5%.")
    assert [(f.action, f.strength, [q.value for q in f.targets + f.thresholds]) for f in frames] == [
        ("recommend", "weak; low-certainty evidence", ["7-8"]), ("suggest_or_consider", None, ["6.5"])]


def test_a_part_for_people_set_by_a_value_and_a_part_for_people_set_by_ages():
    frames = extract_frames("Offer a statin to people with a 10-year cardiovascular risk of 10% or more, and "
                            "consider one for adults with chronic kidney disease who are older than 50.")
    assert [(f.action, [q.value for q in f.thresholds], f.population.age_min) for f in frames] == [
        ("recommend", ["10"], None), ("suggest_or_consider", [], 51)]
    # the other way round: people set by their ages, then people set by a condition, each with its own verb
    frames = extract_frames("PSA screening is not advised for men younger than 40, and men with a life expectancy "
                            "under 10 years should not be screened either.")
    assert [(f.action, f.population.age_max, f.population.conditions) for f in frames] == [
        ("recommend_against", 39, []), ("recommend_against", None, ["limited life expectancy"])]
    # a second verb that reports what "can be discontinued" for older people
    frames = extract_frames("The college advises against cervical cancer screening before age 21, and notes that "
                            "screening can be discontinued after age 65 in women with adequate prior screening.")
    assert [(f.action, f.population.age_min, f.population.age_max) for f in frames] == [
        ("recommend_against", None, 20), ("discourage", 66, None)]


def test_a_gapped_part_whose_subject_states_ages_and_a_subgroup_after_adequate_negative_screening():
    frames = extract_frames("Women aged twenty-five to forty-nine should have cervical screening every three years, "
                            "and women aged 50 to 64 every five years.")
    assert [(f.population.age_min, f.population.age_max, f.interval_months.min) for f in frames] == [
        (25, 49, 36), (50, 64, 60)]
    frames = extract_frames("Cervical screening can end in women over 65 who have had adequate negative prior "
                            "screening, and it is not needed for women after a total hysterectomy.")
    assert [(f.population.age_min, f.population.conditions) for f in frames] == [
        (66, ["adequate prior screening"]), (None, ["hysterectomy"])]


def test_populations_named_with_an_adjective_and_conditions_opened_by_once():
    frames = extract_frames("Clinicians should discuss PSA screening from age 40 for Black men and for men with a "
                            "family history of prostate cancer.")
    assert [f.population.criteria for f in frames] == [["Black ancestry"], ["family history"]]
    frames = extract_frames("Stop lung cancer screening once a person has not smoked for 15 years, or if an illness "
                            "limits their life expectancy.")
    assert [(f.action, f.population.conditions) for f in frames] == [
        ("recommend_against", ["not smoked for 15 years"]), ("recommend_against", ["limited life expectancy"])]


def test_a_gapped_part_for_people_named_by_a_criterion():
    frames = extract_frames("Offer PSA testing to men from age 50, and from age 40 to those of African descent.")
    assert [(f.population.age_min, f.population.criteria) for f in frames] == [(50, []), (40, ["Black ancestry"])]


def test_two_subjects_with_criteria_of_their_own_and_a_strength_stated_for_both_parts():
    frames = extract_frames("Black men and men whose brother had prostate cancer may be offered PSA testing from the "
                            "age of 40.")
    assert [(f.population.criteria, f.population.age_min) for f in frames] == [
        (["Black ancestry"], 40), (["family history"], 40)]
    # the same subjects without criteria of their own are one population
    assert len(extract_frames("Women and men aged 50 to 74 should be screened for colorectal cancer.")) == 1
    frames = extract_frames("Do not screen women younger than 21 for cervical cancer, and stop screening women older "
                            "than 65 who have had adequate prior screening (grade D for both).")
    assert [(f.action, f.strength) for f in frames] == [("recommend_against", "grade D")] * 2
