"""Frames and conflicts for pathway steps, programme kits and invitations, schedules with an unnamed test or an
unnamed more frequent tier, and goals written as a level or as a reduction (``tools/frames/action_cues.py``,
``rules.py``, ``extract.py``, ``quantities.py``, ``lexicon.py``, ``conflicts.py``, ``value_comparison.py``)."""

from __future__ import annotations

import pytest
from frame_fixtures import A1C, BP, BREAST, CERVICAL, CRC, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.extract import extract_frames


def test_a_pathways_entry_step_states_who_enters_it_and_its_exit_who_leaves():
    f = extract_frames("Step 1, identify: asymptomatic patients 50 through 77 years of age with a cumulative tobacco "
                       "history of 20 pack-years or more.", doc_meta=LUNG)
    assert [(x.action, x.population.age_min, x.population.age_max, x.population.criteria) for x in f] == [
        ("recommend", 50, 77, ["pack-years >= 20"])]
    f = extract_frames("Step 2, confirm smoking status: the patient currently smokes or quit no more than 15 years "
                       "ago.", doc_meta=LUNG)
    assert f[0].population.criteria == ["years since quitting <= 15", "smoking status: current or former"]
    assert _summary("Who: men aged 50 to 70 with a life expectancy of at least 10 years.", PSA) == [
        ("recommend", None, 50, 70, None)]
    # "no longer be a candidate" says who leaves the pathway, not that the guidance changed
    assert _summary("Exit the pathway at the 78th birthday, 15 years after quitting, or when the patient would no "
                    "longer be a candidate for curative treatment.", LUNG) == [
        ("recommend_against", None, 78, None, None)]


def test_an_entry_step_is_not_compared_on_action_where_another_step_states_the_stance():
    pathway = _doc("fp-pcs", PSA["topic"], "Step 1, identify: men aged 55 to 69 with no urinary symptoms. Step 2, "
                                           "discuss: PSA screening is an individual decision.")
    summary = _doc("jm-pcs", PSA["topic"], "For men aged 50 to 69, the decision to undergo PSA screening should be an "
                                           "individual one (grade C).")
    assert ("action", ("fp-pcs", "jm-pcs")) not in _facets(pathway, summary)
    assert ("start_age", ("fp-pcs", "jm-pcs")) in _facets(pathway, summary)
    # an age the entry step excludes is still a stance of the pathway
    cervical = _doc("dc-cx", CERVICAL["topic"], "Step 1, eligibility: people with a cervix aged 25 to 65 years; "
                                                "screening is no longer offered to people aged 21 to 24. Step 2, "
                                                "test: primary HPV testing every 5 years is acceptable.")
    insurer = _doc("kh-cx", CERVICAL["topic"], "Cervical cancer screening is considered medically necessary for "
                                               "members aged 21 to 65.")
    assert ("action", ("dc-cx", "kh-cx")) in _facets(cervical, insurer)


def test_one_interval_for_every_test_names_no_test_and_a_letter_schedule_meets_a_named_one():
    f = extract_frames("Covered screening tests are cervical cytology, primary hrHPV testing and co-testing; "
                       "screening is considered medically necessary once every 36 months, regardless of which test "
                       "is used.", doc_meta=CERVICAL)
    assert [(x.test, x.interval_months.min) for x in f] == [(None, 36)]
    guideline = _doc("ag-cx", CERVICAL["topic"], "The Alliance recommends that people with a cervix aged 25 to 65 "
                                                 "years be screened with primary hrHPV testing every 5 years.")
    letter = _doc("bc-cx", CERVICAL["topic"], "We invite everyone with a cervix to a screening test from their 25th "
                                              "birthday. If your result is normal, we will write to you again in "
                                              "three years' time, and we keep inviting you every three years.")
    assert ("interval", ("ag-cx", "bc-cx")) in _facets(guideline, letter)
    # documents that name several tests compare their schedules test by test ("cytology every 3 years" beside
    # co-testing agrees with "cytology every 3 years"; one that schedules a single other test is compared as a whole:
    # :func:`schedules.sole_test_schedules`)
    cytology = _doc("cy-cx", CERVICAL["topic"], "Screen people with a cervix aged 25 to 65 years with cytology every "
                                                "3 years; co-testing every 5 years is an alternative from 30.")
    both = _doc("bo-cx", CERVICAL["topic"], "People aged 25 to 65 should have cytology every 3 years or co-testing "
                                            "every 5 years.")
    assert ("interval", ("bo-cx", "cy-cx")) not in _facets(both, cytology)


@pytest.mark.parametrize("one_tier, both_tiers", [
    # an unnamed more frequent tier
    ("You should have your A1C checked at least twice a year, and more often if your treatment changes or you are not "
     "meeting your goal.", "HbA1c should be measured at least twice a year in people who are meeting their goals, and "
                           "every three months in those whose therapy has changed."),
    # the stable tier alone
    ("Once glycemic control is stable, measuring HbA1c about every six months is sufficient.",
     "Assess glycemic status at least two times a year in people who are meeting treatment goals, and at least "
     "quarterly in people who are not meeting goals."),
])
def test_a_schedule_for_one_tier_matches_one_that_names_both_tiers(one_tier, both_tiers):
    one, both = _doc("one-dm", A1C["topic"], one_tier), _doc("two-dm", A1C["topic"], both_tiers)
    yearly = _doc("yr-dm", A1C["topic"], "HbA1c should be measured once a year.")
    assert ("interval", ("one-dm", "two-dm")) not in _facets(one, both)
    assert ("interval", ("one-dm", "yr-dm")) in _facets(one, yearly)
    # a named schedule of every three months for everyone is another schedule
    quarterly = _doc("qt-dm", A1C["topic"], "HbA1c should be measured every 3 months.")
    assert ("interval", ("qt-dm", "two-dm")) in _facets(both, quarterly)


def test_a_leaflets_goal_and_its_looser_goal_for_people_with_frequent_lows():
    f = extract_frames("For most adults with diabetes, your A1C goal is less than 7%.", doc_meta=A1C)
    assert [(x.action, [q.key() for q in x.targets]) for x in f] == [("recommend", [("<", "7", "%")])]
    f = extract_frames("If you often have low blood sugar, you and your care team may set a higher goal, such as less "
                       "than 8%.", doc_meta=A1C)
    assert f[0].population.conditions == ["severe hypoglycemia"]


def test_programme_kits_and_invitations_that_start_continue_and_stop():
    assert _summary("The Programme sends a home test kit, called a faecal immunochemical test (FIT), to everyone aged "
                    "50 to 74 who is registered with a GP.", CRC) == [("recommend", "FIT", 50, 74, None)]
    assert _summary("You will receive a new kit every two years.", CRC) == [("recommend", "FIT", None, None, 24)]
    assert _summary("Invitations stop after your 69th birthday.", BREAST) == [
        ("recommend_against", None, 69, None, None)]
    assert _summary("Women are now invited from their 45th birthday.", BREAST) == [
        ("recommend", None, 45, None, None)]
    assert _summary("Screening continues every two years, and invitations now continue until the 75th birthday.",
                    BREAST) == [("recommend", None, None, 74, 24)]
    # what a model estimated is a finding, not advice
    assert extract_frames("The change follows modelling that suggested about 3 additional breast cancer deaths averted "
                          "per 1,000 women screened from age 45.", doc_meta=BREAST) == []


def test_an_informed_choice_and_a_discussion_before_therapy_are_individual_decisions():
    assert _summary("What: a documented discussion of the benefits and harms of PSA testing, after which each man "
                    "makes his own informed choice.", PSA)[0][0] == "individual_decision"
    assert _summary("In adults older than 75, the evidence is limited and therapy should follow a clinician-patient "
                    "discussion.", STATIN) == [("individual_decision", None, 76, None, None)]


def test_a_goal_for_a_level_differs_from_a_goal_for_a_reduction():
    f = extract_frames("3. Once on treatment, treat to an LDL cholesterol below 100 mg/dL (2.6 mmol/L).",
                       doc_meta=STATIN)
    assert [(x.action, [q.key() for q in x.targets]) for x in f] == [
        ("recommend", [("<", "100", "mg/dL"), ("<", "2.6", "mmol/L")])]
    level = _doc("sl-st", STATIN["topic"], "Once on treatment, treat to an LDL cholesterol below 100 mg/dL.")
    reduction = _doc("qc-st", STATIN["topic"], "Rather than a fixed LDL goal, clinicians should aim for a reduction in "
                                               "LDL cholesterol of at least 30% from baseline.")
    assert ("target", ("qc-st", "sl-st")) in _facets(level, reduction)
    assert ("target", ("qc-st", "sl-st")) not in _facets(
        level, _doc("qc-st", STATIN["topic"], "Treat to an LDL cholesterol below 100 mg/dL."))


def test_blood_pressure_goals_and_thresholds_in_pathway_steps_and_change_notes():
    f = extract_frames("The working group now recommends that office blood pressure be lowered below 130/80 mm Hg in "
                       "most treated adults, replacing the earlier goal of below 140/90 mm Hg.", doc_meta=BP)
    assert [q.key() for x in f for q in x.targets] == [("<", "130/80", "mm Hg")]
    f = extract_frames("Step 1: if clinic blood pressure is 140/90 mmHg or higher, offer ambulatory monitoring (ABPM) "
                       "to confirm; hypertension is confirmed when the daytime ABPM average is 135/85 mmHg or higher.",
                       doc_meta=BP)
    assert [(q.name, q.value) for x in f for q in x.thresholds] == [
        ("hypertension", "140/90"), ("hypertension (ambulatory)", "135/85")]
    f = extract_frames("Step 3, treatment targets: clinic blood pressure below 140/90 mmHg in people aged under 80.",
                       doc_meta=BP)
    assert [(x.intervention, [q.key() for q in x.targets]) for x in f] == [
        ("blood-pressure target", [("<", "140/90", "mm Hg")])]


def test_a_quality_measures_look_back_is_its_interval_and_a_test_it_no_longer_counts():
    assert _summary("Numerator: one or more cervical cytology results documented during the measurement year or the "
                    "two years prior.", CERVICAL) == [("recommend", "cytology", None, None, 36)]
    assert _summary("Numerator compliance is met by a primary hrHPV test within the last 5 years, that is, during the "
                    "measurement year or the four years prior; a stand-alone cytology result no longer satisfies the "
                    "numerator.", CERVICAL) == [("recommend", "hrHPV testing", None, None, 60),
                                                ("recommend_against", "cytology", None, None, None)]
    # a look-back on quitting is an eligibility, not a schedule
    f = extract_frames("Screen adults aged 50 to 80 who quit within the past 15 years.", doc_meta=LUNG)
    assert f[0].interval_months is None


def test_a_change_notes_new_ages_are_not_a_stance_of_their_own():
    assert [(x.population.age_min, x.population.age_max) for x in extract_frames(
        "What's new in this edition: the starting age has been lowered from 55 to 50, while people can still stay in "
        "the pathway until they are 80.", doc_meta=LUNG)] == [(50, None), (None, 80)]
    old = _doc("bp-2018", PSA["topic"], "Men aged 55 to 69 years should make an individual decision about PSA-based "
                                        "screening (Grade C).", status="superseded", issued="2018-01-01")
    new = _doc("bp-2024", PSA["topic"], "For men aged 50 to 69 years, the decision to undergo PSA-based screening "
                                        "should be an individual one (Grade C). What's new: the starting age has been "
                                        "lowered from 55 to 50.", issued="2024-01-01")
    facets = _facets(old, new)
    assert ("start_age", ("bp-2018", "bp-2024")) in facets and ("action", ("bp-2018", "bp-2024")) not in facets


def test_a_leaflets_schedule_and_the_end_of_routine_screening():
    assert _summary("Your team will check your HbA1c every three to six months until it is stable.", A1C) == [
        ("recommend", None, None, None, 3)]
    assert _summary("Assess glycemic status at least two times a year in people who are meeting treatment goals.",
                    A1C) == [("recommend", None, None, None, 6)]
    # screening everyone to 74 meets the end of routine screening after 65 for those adequately screened
    ended = _doc("og-cx", CERVICAL["topic"], "Screening should not be performed after age 65 in individuals with "
                                             "adequate negative prior screening.")
    everyone = _doc("tc-cx", CERVICAL["topic"], "If you have a cervix and are aged between 25 and 74, you should have "
                                                "a cervical screening test every five years.")
    hysterectomy = _doc("hy-cx", CERVICAL["topic"], "Women who have had a hysterectomy should not be screened.")
    assert ("action", ("og-cx", "tc-cx")) in _facets(ended, everyone)
    assert ("action", ("hy-cx", "tc-cx")) not in _facets(hysterectomy, everyone)


@pytest.mark.parametrize("sentence, meta, expected", [
    ("We will keep inviting you until your 71st birthday.", BREAST, [("recommend", None, None, 70, None)]),
    # a favourable grade on a statement against rates the advice against
    ("Recommendation 2 (Level I evidence, Grade A): PSA screening is not recommended for men aged 70 or over.", PSA,
     [("recommend_against", None, 70, None, None)]),
    ("Men of African ancestry should be offered the discussion from age 45.", PSA,
     [("individual_decision", None, 45, None, None)]),
    ("If you are between 50 and 69, your doctor will talk with you about whether testing is right for you; the choice "
     "is yours.", PSA, [("individual_decision", None, 50, 69, None)]),
    ("Once you reach 70, we advise that you stop having PSA tests.", PSA,
     [("recommend_against", None, 70, None, None)]),
    ("If you decide to be tested, having a repeat test every two years is usually enough.", PSA,
     [("individual_decision", None, None, None, 24)]),
    ("An A1C of 6.5% or above, confirmed on a second test, is enough to diagnose diabetes.", A1C, []),
    ("In the pivotal trial, about 1 in 4 men referred on the MRI-first pathway avoided a biopsy.", PSA, []),
    ("What is new in this edition: the age at which screening begins has been raised from 21 to 25 years.", CERVICAL,
     [("recommend", None, 25, None, None)]),
    ("Statement 2: after a negative HPV test, the next screening test is due in five years.", CERVICAL,
     [("recommend", "hrHPV testing", None, None, 60)]),
    # an age group before its trend, and the age a document no longer waits for, bound no one
    ("Because incidence among adults aged 45 to 49 rose by roughly 2% a year, we now recommend that average-risk "
     "adults start screening at 45 rather than waiting until 50.", CRC, [("recommend", None, 45, None, None)]),
])
def test_invitations_graded_statements_against_discussions_and_change_notes(sentence, meta, expected):
    assert _summary(sentence, meta) == expected


def test_parts_of_a_list_of_instructions_and_who_they_are_for():
    f = extract_frames("Recommendations on stopping are unchanged: screen through age 75, individualise the decision "
                       "between 76 and 85, and do not screen after 85.", doc_meta=CRC)
    assert [(x.action, x.population.age_min) for x in f][-1] == ("recommend_against", 86)
    assert any(x.action == "individual_decision" for x in f)
    f = extract_frames("Annual MRI beginning between 25 and 30 is recommended for carriers of a BRCA1 or BRCA2 "
                       "pathogenic variant.", doc_meta=BREAST)
    assert f[0].population.criteria == ["germline mutation"]
    f = extract_frames("Members who are Black or who have a father, brother or son with prostate cancer are eligible "
                       "from age 45.", doc_meta=PSA)
    assert "family history" in f[0].population.criteria
    f = extract_frames("Individuals older than 65 with adequate negative prior screening should stop screening; those "
                       "treated for CIN2 or worse should continue for at least 25 years after treatment.",
                       doc_meta=CERVICAL)
    assert [x.population.conditions for x in f] == [["adequate prior screening"], ["treated for CIN2+"]]


def test_a_new_threshold_and_a_measures_numerator_and_a_recheck():
    f = extract_frames("A PSA of 3.0 ng/mL or higher is now the threshold for referral for multiparametric MRI, "
                       "replacing the former cut-off of 4.0 ng/mL.", doc_meta=PSA)
    assert [q.key() for x in f for q in x.thresholds] == [(">=", "3", "ng/mL")]
    f = extract_frames("Numerator (good control): patients whose most recent HbA1c in the measurement year was less "
                       "than 8.0%.", doc_meta=A1C)
    assert [q.key() for x in f for q in x.targets] == [("<", "8", "%")]
    assert _summary("Recheck the lipid panel in 4 to 12 weeks and titrate to an LDL-C below 100 mg/dL.", STATIN)[0][
        0] == "recommend"
