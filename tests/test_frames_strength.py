"""Recommendation frames, the stated strength: grades, classes with their level of evidence, strength words with
the quality or certainty of evidence, as written (``tools/frames/rules.py``: ``strength``), and the action a grade
decides."""

from __future__ import annotations

from test_frames_rules import one

from clinrag.tools.frames.extract import extract_frames


def test_a_letter_grade_in_parentheses_is_the_stated_strength():
    assert one("Adults aged 50 to 80 who smoke should have yearly LDCT (B recommendation).").strength == "grade B"
    assert one("A recommendation to screen women aged 50 to 74 with mammography was issued.").strength is None


def test_an_i_statement_is_grade_i():
    frame = one("The evidence is insufficient to assess PSA screening in men 70 and older (I statement).")
    assert (frame.action, frame.strength) == ("insufficient_evidence", "grade I")


def test_level_after_a_class_and_certainty_as_written():
    assert one("Initiating a statin is reasonable for adults aged 40 to 75 with diabetes (Class IIa, Level B)."
               ).strength == "class IIa; LOE B"
    # a class written in capitals is the same class, for its strength and its action
    f = one("Aspirin might be considered for adults aged 40 to 70 at higher cardiovascular risk (CLASS IIB).")
    assert (f.strength, f.action) == ("class IIb", "suggest_or_consider")
    # "COR" is the class of recommendation
    assert one("A statin is recommended for adults aged 40 to 75 with an LDL-C of 70 mg/dL or higher (COR I, LOE "
               "A).").strength == "class I; LOE A"
    assert one("Aspirin should not be given routinely to adults older than 70 (COR III: Harm, LOE B-R)."
               ).strength == "class III, harm; LOE B-R"
    # a strength word after the organization's name, inside the same parentheses
    assert one("We suggest an A1C goal of 7% to 8.5% for most adults with type 2 diabetes (VA/DoD; weak for)."
               ).strength == "weak"
    assert one("Offer PSA testing to informed men from 50 years of age (EAU, strong rating).").strength == "strong"
    assert one("Offer PSA testing to informed men from 50 years of age (strength rating: strong).").strength == "strong"
    assert one("We suggest FIT every 2 years for adults aged 50 to 74 (conditional recommendation, "
               "moderate-certainty evidence).").strength == "conditional; moderate-certainty evidence"


def test_a_bare_letter_decides_the_action_only_when_no_word_does():
    f = one("A reasonable A1C goal for many nonpregnant adults with diabetes is below 7% (A).")
    assert (f.action, f.strength) == ("suggest_or_consider", "grade A")  # ADA: (A) is a level of evidence
    assert one("Colorectal cancer screening for adults aged 50 to 75 years (A).").action == "recommend"


def test_strength_keeps_the_evidence_grading_and_writes_the_level_of_evidence_in_one_form():
    assert one("We suggest biennial mammography for women aged 40 to 49 (weak recommendation, low-quality "
               "evidence).").strength == "weak; low-quality evidence"
    assert one("Aspirin may be considered in adults aged 40 to 69 with diabetes (conditional recommendation, low "
               "certainty).").strength == "conditional; low certainty"
    assert one("Statins are recommended for adults aged 40 to 75 with diabetes (Class I, LOE A).").strength == (
        "class I; LOE A")
    assert one("Statins are recommended for adults aged 40 to 75 with diabetes (class I; level of evidence "
               "B-R).").strength == "class I; LOE B-R"
    assert one("In adults with hypertension, lower blood pressure to below 140/90 mm Hg, a strong recommendation "
               "backed by high-quality evidence.").strength == "strong; high-quality evidence"


def test_certainty_of_evidence_is_written_in_one_form():
    f = one("Biennial mammography is recommended for women aged 50 to 69 (strong recommendation, low certainty of "
            "evidence).")
    assert f.strength == "strong; low-certainty evidence"


def test_a_grade_written_as_a_letter_grade_decides_the_action():
    f = one("Women aged 50 to 74 are advised that a mammogram every two years is worth having (a 'B' grade).")
    assert (f.action, f.strength) == ("recommend", "grade B")
    f = one("Aspirin for adults 60 and older to prevent a first heart attack gets a D grade.")
    assert (f.action, f.strength) == ("recommend_against", "grade D")
    assert one("PSA screening for men aged 55 to 69 receives a grade of C.").action == "individual_decision"
    # "its A grade", "gives it a D"
    f = one("The panel kept its A grade for colorectal cancer screening in adults 50 to 75.")
    assert (f.action, f.strength) == ("recommend", "grade A")
    f = one("Quoting the task force, which gives it a D: women older than 65 should not be screened for cervical "
            "cancer.")
    assert (f.action, f.strength) == ("recommend_against", "grade D")
    # a capital A that opens the sentence is an article, not a grade
    assert one("A colonoscopy every 10 years is recommended for adults aged 45 to 75.").strength is None


def test_a_strength_rated_after_the_advice_with_its_quality_of_evidence():
    f = one("The task force comes down against screening men aged 55 to 69 with PSA, though it rates that advice "
            "as weak, on low-quality evidence.")
    assert (f.action, f.strength) == ("recommend_against", "weak; low-quality evidence")
    assert one("Clinicians should offer statins to adults aged 40 to 75 with diabetes; the panel rates this as "
               "strong.").strength == "strong"


def test_a_strength_closing_the_last_part_is_shared_unless_that_part_states_another_action():
    frames = extract_frames("For adults aged 18 to 64 the society recommends lowering systolic pressure to 120-129 mm "
                            "Hg, while for those 65 and older the target range is 130-139 mm Hg (Class I, Level A).")
    assert [(f.population.age_min, f.strength) for f in frames] == [(18, "class I; LOE A"), (65, "class I; LOE A")]
    frames = extract_frames("Adults aged 50 to 75 should be screened for colorectal cancer, whereas for adults 76 to "
                            "85 the decision to screen should be an individual one (grade C).")
    assert [(f.action, f.strength) for f in frames] == [("recommend", None), ("individual_decision", "grade C")]
