"""Recommendation frames, second parts that repeat the first for others without a verb of their own: "the same goes
for", "as can", a grade of their own, another value for other people, tests that each take one interval, a strength
stated once for every part (``tools/frames/clauses.py``, ``extract.py``)."""

from __future__ import annotations

from clinrag.tools.frames.extract import extract_frames


def summary(sentence: str) -> list[tuple]:
    return [(f.intervention, f.action, f.population.age_min, f.population.age_max, f.population.conditions,
             f.strength) for f in extract_frames(sentence)]


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
    frames = extract_frames("Aspirin gets a B grade for adults aged 50 to 59 with a 10-year risk of 10% or more, and "
                            "a C grade for those aged 60 to 69.")
    assert [(f.action, f.population.age_min, f.population.age_max, f.strength) for f in frames] == [
        ("recommend", 50, 59, "grade B"), ("individual_decision", 60, 69, "grade C")]


def test_another_value_for_other_people():
    frames = extract_frames("Aim for a clinic blood pressure below 140/90 mm Hg if the person is under 80, or below "
                            "150/90 mm Hg if they are 80 or older.")
    assert [(f.population.age_min, f.population.age_max, [q.value for q in f.targets]) for f in frames] == [
        (None, 79, ["140/90"]), (80, None, ["150/90"])]


def test_tests_each_repeated_at_one_interval_and_a_plural_strength_for_every_part():
    frames = extract_frames("Flexible sigmoidoscopy or CT colonography, each done every 5 years, may be offered to "
                            "adults aged 50 to 75.")
    assert [(f.test, f.interval_months.min) for f in frames] == [
        ("flexible sigmoidoscopy", 60), ("CT colonography", 60)]
    frames = extract_frames("Women aged 45 to 54 should have a mammogram every year, and those 55 and older should "
                            "move to every other year (qualified recommendations).")
    assert [(f.population.age_min, f.interval_months.min, f.strength) for f in frames] == [
        (45, 12, "qualified"), (55, 24, "qualified")]
