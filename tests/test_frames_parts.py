"""Recommendation frames, second parts that repeat the first for others without a verb of their own: "the same goes
for", "as can", a grade of their own, another value for other people, tests that each take one interval, a strength
stated once for every part (``tools/frames/clauses.py``, ``extract.py``)."""

from __future__ import annotations

from clinrag.tools.frames.extract import extract_frames


def summary(sentence: str) -> list[tuple]:
    return [(f.intervention, f.action, f.population.age_min, f.population.age_max, f.population.conditions,
             f.strength) for f in extract_frames(sentence)]


def bands(sentence: str) -> list[tuple]:
    """(action, age_min, age_max, strength) per frame."""
    return [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in extract_frames(sentence)]


def intervals_by_test(sentence: str) -> list[tuple]:
    """(test, interval_months.min) per frame."""
    return [(f.test, f.interval_months.min) for f in extract_frames(sentence)]


def test_the_same_goes_for_another_intervention_with_the_first_parts_action():
    assert summary("For women aged 40 to 49 the evidence is insufficient for breast MRI, and the same applies to "
                   "tomosynthesis in women with dense breasts (grade I for both).") == [
        ("supplemental breast imaging", "insufficient_evidence", 40, 49, [], "grade I"),
        ("digital breast tomosynthesis", "insufficient_evidence", None, None, ["dense breasts"], "grade I")]


def test_as_can_other_people_is_a_second_population():
    assert summary("Women older than 65 with adequate prior screening may stop cervical screening, as may women who "
                   "have had a hysterectomy.") == [
        ("cervical cancer screening", "discourage", 66, None, ["adequate prior screening"], None),
        ("cervical cancer screening", "discourage", None, None, ["hysterectomy"], None)]
    # "as" that compares is not another population
    assert len(extract_frames("Women aged 50 to 74 should have mammography every two years, as should be "
                              "explained to them.")) == 1


def test_a_gapped_part_with_a_grade_of_its_own():
    assert bands("Aspirin gets a B grade for adults aged 50 to 59 with a 10-year risk of 10% or more, and a C grade "
                 "for those aged 60 to 69.") == [
        ("recommend", 50, 59, "grade B"), ("individual_decision", 60, 69, "grade C")]


def test_another_value_for_other_people():
    frames = extract_frames("Aim for a clinic blood pressure below 140/90 mm Hg if the person is under 80, or below "
                            "150/90 mm Hg if they are 80 or older.")
    assert [(f.population.age_min, f.population.age_max, [q.value for q in f.targets]) for f in frames] == [
        (None, 79, ["140/90"]), (80, None, ["150/90"])]
    # the second value right after "and", without a verb or a preposition of its own
    frames = extract_frames("The panel sets a home blood pressure goal under 135/85 mm Hg for adults younger than 75 "
                            "and under 145/85 mm Hg for those 75 or older.")
    assert [(f.population.age_min, f.population.age_max, [q.value for q in f.targets]) for f in frames] == [
        (None, 74, ["135/85"]), (75, None, ["145/85"])]


def test_tests_each_repeated_at_one_interval_and_a_plural_strength_for_every_part():
    assert intervals_by_test("Flexible sigmoidoscopy or CT colonography, each done every 5 years, may be offered "
                               "to adults aged 50 to 75.") == [("flexible sigmoidoscopy", 60), ("CT colonography", 60)]
    frames = extract_frames("Women aged 45 to 54 should have a mammogram every year, and those 55 and older should "
                            "move to every other year (qualified recommendations).")
    assert [(f.population.age_min, f.interval_months.min, f.strength) for f in frames] == [
        (45, 12, "qualified"), (55, 24, "qualified")]


def test_another_intervention_governed_by_the_same_words_with_a_plural_strength():
    assert summary("Evidence is insufficient to assess breast MRI as a screening test, or of tomosynthesis in women "
                   "with dense breasts (I statements).") == [
        ("supplemental breast imaging", "insufficient_evidence", None, None, [], "grade I"),
        ("digital breast tomosynthesis", "insufficient_evidence", None, None, ["dense breasts"], "grade I")]


def test_a_part_with_its_own_strength_and_ages_after_the_first_parts_strength():
    frames = extract_frames("Clinicians should screen adults aged 50-75 for colorectal cancer (grade A) and extend "
                            "screening to those aged 45-49 (grade B).")
    assert [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in frames] == [
        ("recommend", 50, 75, "grade A"), ("recommend", 45, 49, "grade B")]


def test_two_verbs_each_with_its_own_action_and_value():
    frames = extract_frames("The ADA recommends an A1C goal below 7% for most adults with diabetes, and suggests "
                            "that a looser goal, such as under 8%, is reasonable for those with limited life "
                            "expectancy.")
    assert [(f.action, [q.value for q in f.targets], f.thresholds) for f in frames] == [
        ("recommend", ["7"], []), ("suggest_or_consider", ["8"], [])]
    # a threshold and a goal under one action stay one clause, and both frames keep its strength
    frames = extract_frames("Clinicians should start drug treatment at 140/90 mm Hg or higher and should treat to a "
                            "goal below 140/90 mm Hg (strong recommendation).")
    assert [(f.intervention, f.strength) for f in frames] == [
        ("blood-pressure threshold", "strong"), ("blood-pressure target", "strong")]


def test_a_second_thing_recommended_for_people_of_its_own():
    frames = extract_frames("The guideline recommends starting drug therapy when blood pressure is 140/90 mm Hg or "
                            "higher and, in treated patients aged 18 to 64, lowering systolic pressure to 120-129 mm "
                            "Hg (class I; LOE A).")
    assert [(f.intervention, f.population.age_min, [q.value for q in f.thresholds + f.targets], f.strength)
            for f in frames] == [
        ("blood-pressure threshold", None, ["140/90"], "class I; LOE A"),
        ("blood-pressure target", 18, ["120-129"], "class I; LOE A")]


def test_a_part_added_after_the_first_parts_strength():
    assert bands("The task force recommended biennial mammography for women aged 50 to 74 (grade B), adding that "
                 "for women in their 40s the decision should be an individual one (grade C).") == [
        ("recommend", 50, 74, "grade B"), ("individual_decision", 40, 49, "grade C")]


def test_an_adverb_of_frequency_right_after_its_test_and_a_co_test_naming_cytology():
    assert intervals_by_test("Options for adults aged 45 to 75 should be a FIT yearly, a stool DNA test every 3 "
                               "years, or a colonoscopy every 10 years.") == [
        ("FIT", 12), ("mt-sDNA", 36), ("colonoscopy", 120)]
    # before its test the same word is the test's adjective
    assert intervals_by_test("Adults aged 45 to 75 should have yearly FIT or colonoscopy every 10 years.") == [
        ("FIT", 12), ("colonoscopy", 120)]
    assert intervals_by_test("Women aged 30 to 65 should be screened every 3 years with cytology alone or every 5 "
                               "years with cytology and HPV co-testing.") == [("cytology", 36), ("co-testing", 60)]
    # a co-test naming HPV first, each option with its interval after a comma
    assert intervals_by_test("Screening choices for women aged 30 to 65 (grade A): HPV testing alone, every 5 years; "
                               "co-testing with HPV and cytology, every 5 years; cytology alone, every 3 years.") == [
        ("hrHPV testing", 60), ("co-testing", 60), ("cytology", 36)]
    # "in combination with cytology" is the co-test, not a third cytology option; the abbreviation in parentheses
    assert intervals_by_test("Women 30 to 65 may be screened every 3 years with cytology alone, every 5 years with "
                               "high-risk HPV (hrHPV) testing alone, or every 5 years with hrHPV testing in "
                               "combination with cytology (grade A).") == [
        ("cytology", 36), ("hrHPV testing", 60), ("co-testing", 60)]


def test_rows_of_a_schedule_take_the_headings_action_and_strength():
    frames = extract_frames("Colorectal screening (ACS, qualified recommendation): adults aged 45-49, FIT every year; "
                            "adults aged 50-75, colonoscopy every 10 years.")
    assert [(f.test, f.action, f.population.age_min, f.interval_months.min, f.strength) for f in frames] == [
        ("FIT", "recommend", 45, 12, "qualified"), ("colonoscopy", "recommend", 50, 120, "qualified")]


def test_gapped_bands_each_with_its_own_grade():
    assert bands("Adults aged 45 to 49 (grade B) and 50 to 75 (grade A) should be screened for colorectal "
                 "cancer.") == [("recommend", 45, 49, "grade B"), ("recommend", 50, 75, "grade A")]


def test_a_goal_with_its_own_strength_after_a_threshold_keeps_the_opening_population():
    frames = extract_frames("For adults with a 10-year risk of 10% or higher, treatment is recommended at 130/80 mm Hg "
                            "or higher (class I; LOE A), and the target is below 130/80 mm Hg (class I; LOE B-R).")
    assert [(f.intervention, [q.value for q in f.thresholds], [q.value for q in f.targets], f.strength)
            for f in frames] == [
        ("blood-pressure threshold", ["10", "130/80"], [], "class I; LOE A"),
        ("blood-pressure target", ["10"], ["130/80"], "class I; LOE B-R")]


def test_two_goals_under_one_action_are_two_frames():
    frames = extract_frames("An A1C below 7% is a reasonable goal for most adults with diabetes, but clinicians may "
                            "suggest a goal below 8% for those with limited life expectancy.")
    assert [([q.value for q in f.targets], f.thresholds, f.population.conditions) for f in frames] == [
        (["7"], [], []), (["8"], [], ["limited life expectancy"])]


def test_a_second_part_about_these_examinations_is_for_the_same_people_on_the_same_schedule():
    frames = extract_frames("Women at average risk should have a mammogram every 2 years from age 50 to 74, and "
                            "tomosynthesis may replace standard mammography for these screenings.")
    assert [(f.intervention, f.action, f.population.sex, f.population.age_min, f.population.age_max,
             f.population.risk, f.interval_months.min) for f in frames] == [
        ("screening mammography", "recommend", "female", 50, 74, "average", 24),
        ("digital breast tomosynthesis", "suggest_or_consider", "female", 50, 74, "average", 24)]


def test_a_second_verb_with_too_little_evidence_is_its_own_recommendation():
    assert bands("The task force recommends PSA-based screening as an individual decision for men aged 55 to 69 "
                 "(grade C), but says there is too little evidence (grade I) to know whether it helps men 70 or "
                 "older.") == [("individual_decision", 55, 69, "grade C"), ("insufficient_evidence", 70, None,
                                                                            "grade I")]


def test_a_gapped_part_repeats_the_test_named_before_it():
    assert intervals_by_test("The programme recommends HPV primary testing every 3 years for women aged 25 to 49 and "
                               "every 5 years for women aged 50 to 64.") == [
        ("hrHPV testing", 36), ("hrHPV testing", 60)]


def test_a_goal_after_with_and_its_own_strength_after_a_threshold_with_its_own():
    frames = extract_frames("In adults with diabetes, drug treatment should be started at a blood pressure of 130/80 "
                            "mm Hg or higher (COR I; LOE C-EO), with a treatment goal of less than 130/80 mm Hg "
                            "(COR I; LOE B-R).")
    assert [(f.intervention, f.strength) for f in frames] == [
        ("blood-pressure threshold", "class I; LOE C-EO"), ("blood-pressure target", "class I; LOE B-R")]


def test_two_infinitives_under_one_verb_each_closed_by_the_same_strength_with_values_of_their_own():
    frames = extract_frames("The college calls for clinicians to aim for an HbA1c between 7% and 8% in most adults "
                            "with type 2 diabetes (weak recommendation; low-quality evidence) and to deintensify "
                            "treatment in those whose HbA1c falls below 6.5% (weak recommendation; low-quality "
                            "evidence).")
    assert [(f.action, [q.value for q in f.targets], [q.value for q in f.thresholds], f.strength) for f in frames] == [
        ("recommend", ["7-8"], [], "weak; low-quality evidence"),
        ("recommend", [], ["6.5"], "weak; low-quality evidence")]


def test_the_same_subject_with_another_verb_is_an_alternative_condition():
    frames = extract_frames("Lung cancer screening should stop once a person has gone 15 years without smoking or "
                            "develops a health problem that substantially limits life expectancy.")
    assert [(f.action, f.population.criteria, f.population.conditions) for f in frames] == [
        ("recommend_against", ["years since quitting >= 15"], []),
        ("recommend_against", [], ["limited life expectancy"])]
    # smoking now or having quit is one eligibility, not two populations
    frames = extract_frames("Screen adults aged 50 to 80 with low-dose CT once a year if they have a 20 pack-year "
                            "history and smoke now or have quit within the past 15 years.")
    assert len(frames) == 1 and "years since quitting <= 15" in frames[0].population.criteria
