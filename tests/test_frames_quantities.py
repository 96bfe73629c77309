"""Recommendation frames: how a guideline sentence's thresholds and targets are read (``tools/frames/quantities.py``)
and which of them make two frames."""

from __future__ import annotations

from test_frames_rules import one

from clinrag.tools.frames.extract import document_frames, extract_frames


def test_blood_pressure_target_and_threshold_values():
    target = one("The guideline sets a treatment target under 130/80 mm Hg for most adults (class I).")
    assert target.intervention == "blood-pressure target"
    assert [(q.op, q.value, q.unit) for q in target.targets] == [("<", "130/80", "mm Hg")]
    assert target.strength == "class I"
    threshold = one("The guideline defines stage 2 hypertension as a systolic pressure of 140 mmHg or higher or a "
                    "diastolic pressure of 90 mmHg or higher.")
    assert threshold.intervention == "blood-pressure threshold"
    assert [(q.op, q.value, q.unit) for q in threshold.thresholds] == [(">=", "140/90", "mm Hg")]


def test_lowering_the_pressure_to_below_a_value_is_a_target():
    f = one("In most adults with hypertension, lowering office blood pressure to below 130/80 mm Hg is "
            "recommended.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets]) == ("blood-pressure target", [("<", "130/80")])
    # the people between the verb and the value: "lower blood pressure in adults with hypertension to below ..."
    f = one("The academy advises clinicians to lower blood pressure in older adults with hypertension to below "
            "150/90 mm Hg.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets], f.thresholds) == (
        "blood-pressure target", [("<", "150/90")], [])
    # a value with its unit written without a space names blood pressure on its own ("a clinic reading")
    f = one("Adults younger than 80 should aim for a clinic reading below 140/90mmHg.")
    assert (f.intervention, [(q.op, q.value, q.unit) for q in f.targets], f.population.age_max) == (
        "blood-pressure target", [("<", "140/90", "mm Hg")], 79)


def test_a_limit_restated_in_other_units_keeps_its_comparator_and_capital_grades():
    f = one("An A1C goal below 7% (53 mmol/mol) is reasonable for many adults with diabetes.")
    assert [(q.op, q.value, q.unit) for q in f.targets] == [("<", "7", "%"), ("<", "53", "mmol/mol")]
    assert one("Adults aged 50 to 80 who smoke should have yearly LDCT (Grade B).").strength == "grade B"
    assert one("You do not need to go for cervical screening if you have had a total hysterectomy.").action == (
        "discourage")


def test_a_comparator_after_a_restatement_in_parentheses():
    f = one("Most people with diabetes will be advised to aim for an HbA1c of 48mmol/mol (6.5%) or below.")
    assert [(q.op, q.value, q.unit) for q in f.targets] == [("<=", "48", "mmol/mol"), ("<=", "6.5", "%")]


def test_a1c_in_ifcc_units_and_a_risk_range_to_less_than():
    a1c = one("Aim for an HbA1c below 53 mmol/mol in most adults with type 2 diabetes.")
    assert (a1c.intervention, [(q.name, q.op, q.value, q.unit) for q in a1c.targets]) == (
        "A1C target", [("A1C", "<", "53", "mmol/mol")])
    statin = one("Clinicians may consider a statin for adults aged 40 to 75 with a 10-year CVD risk of 7.5% to less "
                 "than 10%.")
    assert [(q.op, q.value, q.unit) for q in statin.thresholds] == [("range", "7.5-10", "%")]


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


def test_reaching_a_value_is_a_target_but_a_pressure_that_reaches_one_is_a_threshold():
    f = one("In adults with type 2 diabetes, help the person to reach an HbA1c level below 53 mmol/mol.")
    assert (f.intervention, f.action, [(q.op, q.value, q.unit) for q in f.targets]) == (
        "A1C target", "recommend", [("<", "53", "mmol/mol")])
    f = one("Start drug treatment for adults aged 60 or older once systolic blood pressure reaches 150 mm Hg.")
    assert (f.intervention, f.targets) == ("blood-pressure threshold", [])
    f = one("Systolic blood pressure should be lowered into a range of 130 to 139 mm Hg in adults aged 65 or older.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets]) == ("blood-pressure target", [("range", "130-139")])


def test_comparators_at_or_below_and_reaches():
    f = one("NICE: support adults with type 2 diabetes to keep their HbA1c at or below 48 mmol/mol.")
    assert (f.intervention, f.action, [(q.op, q.value) for q in f.targets]) == (
        "A1C target", "recommend", [("<=", "48")])
    f = one("Drug treatment is recommended for adults aged 65 and over once blood pressure reaches 140/90 mm Hg.")
    assert [(q.op, q.value) for q in f.thresholds] == [(">=", "140/90")]


def test_a_range_brought_into_a_percentage_in_words_and_a_target_phrase_after_a_threshold():
    into = one("For treated patients aged 70 to 79, systolic pressure should be brought into the range of 130 to "
               "139 mm Hg when tolerated.")
    assert (into.intervention, [(q.op, q.value) for q in into.targets]) == ("blood-pressure target",
                                                                           [("range", "130-139")])
    words = one("The panel suggests aiming for an HbA1c of six and a half to eight percent in most older adults.")
    assert [(q.op, q.value, q.unit) for q in words.targets] == [("range", "6.5-8", "%")]
    # "whose pressure is at or above 150 to a target below 150": the first value says who, the second is the goal
    frames = extract_frames("Clinicians should treat adults aged 65 or older whose systolic pressure is at or above "
                            "160 mm Hg to a target below 150 mm Hg.")
    assert [(f.intervention, [(q.op, q.value) for q in f.thresholds], [(q.op, q.value) for q in f.targets])
            for f in frames] == [("blood-pressure threshold", [(">=", "160")], []),
                                 ("blood-pressure target", [], [("<", "150")])]


def test_a_risk_level_says_who_both_the_threshold_and_the_goal_are_for():
    frames = extract_frames("For adults whose 10-year cardiovascular risk is 15% or more, begin drug treatment at "
                            "140/90 mm Hg or above and treat to a goal below 130/80 mm Hg (Class I; LOE B-R).")
    assert [(f.intervention, sorted((q.op, q.value, q.unit) for q in f.thresholds)) for f in frames] == [
        ("blood-pressure threshold", [(">=", "140/90", "mm Hg"), (">=", "15", "%")]),
        ("blood-pressure target", [(">=", "15", "%")])]
    assert [f.strength for f in frames] == ["class I; LOE B-R"] * 2


def test_a_pressure_brought_to_a_range_is_a_target():
    f = one("In most treated adults, systolic pressure should be brought to 120 to 129 mm Hg.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets]) == ("blood-pressure target", [("range", "120-129")])


def test_treated_until_below_a_value_and_a_band_to_bring_the_pressure_into():
    frames = extract_frames("Readings of 140/90 mm Hg or higher count as hypertension, and adults with hypertension "
                            "should be treated until their pressure is below 140/90 mm Hg.")
    assert [(f.intervention, [q.op for q in f.thresholds + f.targets]) for f in frames] == [
        ("blood-pressure threshold", [">="]), ("blood-pressure target", ["<"])]
    f = one("In treated patients under 65, bring systolic pressure into the 120-129 mm Hg band if tolerated.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets]) == ("blood-pressure target", [("range", "120-129")])


def test_treating_people_to_a_value_is_a_target():
    f = one("Clinicians should treat most adults with type 2 diabetes to an A1C between 7% and 8%.")
    assert ([(q.op, q.value) for q in f.targets], f.thresholds) == ([("range", "7-8")], [])
    # treating people whose value is above a level: a threshold
    f = one("Clinicians should treat adults whose A1C is above 9% with insulin.")
    assert ([(q.op, q.value) for q in f.thresholds], f.targets) == ([(">", "9")], [])


def test_a_staged_goal_with_the_same_strength_is_two_targets():
    frames = extract_frames("Blood pressure should be lowered first to below 140/90 mm Hg (Class I; LOE A) and then, "
                            "if tolerated, to 130/80 mm Hg or lower (Class I; LOE A).")
    assert [(f.intervention, [(q.op, q.value) for q in f.targets]) for f in frames] == [
        ("blood-pressure target", [("<", "140/90")]), ("blood-pressure target", [("<=", "130/80")])]


def test_lowering_a_named_pressure_to_a_range_is_a_target():
    f = one("Clinicians should consider lowering office systolic blood pressure to 120-129 mm Hg in adults aged 18 "
            "to 64.")
    assert (f.intervention, [(q.op, q.value) for q in f.targets]) == ("blood-pressure target", [("range", "120-129")])


def test_a_range_to_below_written_with_a_symbol():
    f = one("For adults 40 to 75 with a 10-year CVD risk of 7.5% to <10%, clinicians may selectively offer a statin.")
    assert [(q.op, q.value, q.unit) for q in f.thresholds] == [("range", "7.5-10", "%")]


def test_one_comparator_for_a_systolic_or_diastolic_limit_and_bringing_below_a_value():
    f = one("Hypertension is diagnosed when the clinic reading is at least 140 mm Hg systolic or 90 mm Hg diastolic.")
    assert [(q.op, q.value) for q in f.thresholds] == [(">=", "140/90")]
    f = one("Treated adults should be brought below 130/80 mm Hg in the clinic.")
    assert [(q.op, q.value) for q in f.targets] == [("<", "130/80")]


def test_subgroups_of_a_glycemic_goal():
    f = one("If you are frail or have had dangerous hypos, an HbA1c goal of up to 64 mmol/mol may be agreed.")
    assert f.population.conditions == ["frailty", "severe hypoglycemia"]
    f = one("Most adults should aim to keep their A1C below 7%, provided this can be done without frequent or severe "
            "hypoglycemia.")
    assert f.population.conditions == []


def test_a_panels_vote_share_is_no_threshold():
    f = one("For men aged 50 to 69, the decision to undergo PSA-based screening should be individual (consensus "
            "reached, 94% agreement).")
    assert (f.action, f.thresholds, f.targets) == ("individual_decision", [], [])


def test_keeping_a1c_in_a_range_is_a_target():
    f = one("For most people with type 2 diabetes, your clinician should keep your A1C in the range of 7% to 8%.")
    assert [(q.op, q.value, q.unit) for q in f.targets] == [("range", "7-8", "%")] and f.thresholds == []


def test_lower_than_the_goal_and_a_quality_measures_numerator():
    f = one("Achievement of A1C levels lower than the goal of 7% may be acceptable if this can be achieved safely.")
    assert [(q.op, q.value) for q in f.targets] == [("<", "7")]
    frames = extract_frames("Numerator: patients whose most recent blood pressure reading has a systolic value below "
                            "140 mm Hg and a diastolic value below 90 mm Hg.")
    assert [(f.intervention, [(q.op, q.value) for q in f.targets]) for f in frames] == [
        ("blood-pressure target", [("<", "140/90")])]


def test_treatment_to_lower_blood_pressure_at_a_value_is_when_to_start():
    frames = extract_frames("In the general population aged 60 years or older, initiate pharmacologic treatment to "
                            "lower blood pressure at a systolic blood pressure of 150 mm Hg or higher, and treat to a "
                            "goal systolic pressure lower than 150 mm Hg (Grade A).")
    assert [(f.intervention, [q.text() for q in f.thresholds], [q.text() for q in f.targets]) for f in frames] == [
        ("blood-pressure threshold", [">=150 mm Hg"], []), ("blood-pressure target", [], ["<150 mm Hg"])]


def test_patient_wording_reads_without_a_unit_and_bands_of_readings():
    frames = document_frames({"doc_id": "p", "org": "P", "topic": "hypertension-thresholds", "text":
                              "Whatever your age, your doctor should offer you medicine if your blood pressure stays "
                              "at 140/90 or higher. Most people under 80 who take medicine should aim for a clinic "
                              "reading below 140/90. Your next appointment is on 12/05."})
    assert [(f.intervention, [q.text() for q in f.thresholds + f.targets]) for f in frames] == [
        ("blood-pressure threshold", [">=140/90 mm Hg"]), ("blood-pressure target", ["<140/90 mm Hg"])]
    f = extract_frames("In patients with grade 1 hypertension (140-159/90-99 mm Hg), drug treatment should be "
                       "started.")[0]
    assert [(q.op, q.value) for q in f.thresholds] == [("range", "140/90-159/99")]


def test_a_consensus_panels_voting_share_and_a_very_high_risk_group():
    frames = document_frames({"doc_id": "c", "org": "C", "topic": "hypertension-thresholds", "text":
                              "In selected very-high-risk patients with high-normal BP (130-139/85-89 mm Hg), drug "
                              "treatment may be considered."})
    assert [(f.population.risk, f.action) for f in frames] == [("very high", "suggest_or_consider")]
    f = extract_frames("Hypertension should be defined as an office blood pressure of 140/90 mm Hg or higher, with "
                       "consensus defined as agreement by at least 80% of voting members.")[0]
    assert [q.value for q in f.thresholds] == ["140/90"]


def test_an_objective_of_treatment_and_a_target_range_in_a_whereas_clause():
    f = one("The first objective of treatment is to lower office blood pressure to below 140/90 mm Hg in all "
            "patients.")
    assert (f.intervention, [q.text() for q in f.targets]) == ("blood-pressure target", ["<140/90 mm Hg"])
    frames = extract_frames("Office blood pressure should then be lowered to below 130/80 mm Hg in most patients "
                            "aged 18 to 64 years, whereas in patients aged 65 years and older the systolic target "
                            "range is 130 to 139 mm Hg.")
    assert [(f.population.age_min, [q.text() for q in f.targets]) for f in frames] == [
        (18, ["<130/80 mm Hg"]), (65, ["130-139 mm Hg"])]
