"""Frames and conflicts for a closing concession about whom the advice helps less ("..., although it is less likely to
help men who are over 75"), a second condition with its own value and action ("..., and if it is 5% to 9.9%, discuss a
statin as an option"), a goal one version of a guideline introduces, a cut-off stated as a bare value, "clinicians
should discuss whether to continue", "no fixed upper age limit", a numerator's "..., or who had hrHPV testing ...",
a goal's replaced values in parentheses ("rather than below 140/90 mm Hg (or below 150/90 mm Hg for those aged 80
or older)"), the life expectancy a less stringent goal is for, diet beside one drug ("managed with diet and exercise
alone, or with metformin alone"), a goal for glucose-monitor readings, and "should also not be offered"
(``tools/frames/``: ``extract.py``, ``clause_parts.py``, ``cues_decision.py``, ``cues_against.py``, ``versions.py``,
``value_comparison.py``, ``rules.py``, ``set_aside.py``, ``bands.py``, ``subgroups.py``, ``quantity_names.py``,
``conflicts.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, CERVICAL, LUNG, PSA, STATIN, conflict_facets, conflicts_on
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import NO_UPPER_LIMIT, SUBGROUP_GOAL, criteria_map, stop_age
from clinrag.tools.frames.extract import document_frames


def test_a_closing_concession_does_not_set_the_advice_s_ages():
    rows = _frames("There is no upper age limit for asking for the test, although it is less likely to help men who "
                   "are over 75 or who have other serious health problems.", PSA)
    assert [(r[1], r[2]) for r in rows] == [(None, None)]
    # ("although not for ..." excepts people, and stays)
    rows = _frames("Screening may be offered from age 50, although not to men over 75.", PSA)
    assert any(r[1] == 76 for r in rows)


def test_a_second_condition_with_its_own_value_and_action():
    rows = _frames("Calculate the 10-year cardiovascular risk with the regional calculator; if it is 10% or more, "
                   "order atorvastatin 20 mg daily unless the patient declines after discussion, and if it is 5% to "
                   "9.9%, discuss a statin as an option and record the shared decision.", STATIN)
    assert [(r[0], r[7]) for r in rows] == [("recommend", ["10-year CVD risk >=10 %"]),
                                            ("individual_decision", ["10-year CVD risk 5-9.9 %"])]


def test_a_goal_a_later_version_introduces_is_a_target_change():
    old = _doc("cv-statin-2020", STATIN["topic"], "For adults aged 40 to 75 years with an estimated 10-year "
               "cardiovascular risk of 10% or higher, a moderate-intensity statin is recommended (class I). No LDL "
               "cholesterol target is set; the treatment goal is the intensity of therapy rather than an achieved "
               "level.", issued="2020-05-19", status="superseded", superseded_by="cv-statin-2025")
    new = _doc("cv-statin-2025", STATIN["topic"], "For adults aged 40 to 75 years with an estimated 10-year "
               "cardiovascular risk of 10% or higher, a moderate-intensity statin is recommended (class I). Once "
               "treatment has started, therapy should be adjusted to bring LDL cholesterol below 100 mg/dL (class "
               "IIa).", issued="2025-03-04", supersedes="cv-statin-2020")
    changes = conflicts_on("target", old, new)
    assert [(c.kind, [(v.doc_id, v.value) for v in c.values]) for c in changes] == [
        ("change", [("cv-statin-2020", "no LDL-C goal"), ("cv-statin-2025", "LDL-C <100 mg/dL")])]
    # the earlier version is quoted where it says it sets no goal
    assert changes[0].values[0].sentence.startswith("No LDL cholesterol target is set")
    # a later version that does not restate a goal has not dropped it; another organization that sets no goal does
    # not disagree
    other = _doc("xy-statin", STATIN["topic"], "For adults aged 40 to 75 years with an estimated 10-year "
                 "cardiovascular risk of 10% or higher, a moderate-intensity statin is recommended.")
    assert not any(facet == "target" for facet, _ in conflict_facets(new, other))
    assert not conflicts_on("target", dict(old, issued="2026-01-01"), dict(new, issued="2024-01-01"))


def test_a_cut_off_stated_as_a_bare_value_is_the_same_cut_off():
    revision = _doc("vg-psa", PSA["topic"], "Second, the PSA value that should prompt referral for urological "
                    "assessment has been lowered from 4.0 ng/mL to 3.0 ng/mL.")
    leaflet = _doc("tm-psa", PSA["topic"], "A result of 3 ng/mL or higher usually means your doctor will refer you "
                   "to a hospital specialist.")
    pathway = _doc("ac-psa", PSA["topic"], "Step 4: refer to urology if the PSA is 4.0 ng/mL or higher.")
    facets = conflict_facets(revision, leaflet, pathway)
    assert ("threshold", ("tm-psa", "vg-psa")) not in facets
    assert {("threshold", ("ac-psa", "vg-psa")), ("threshold", ("ac-psa", "tm-psa"))} <= facets


def test_a_discussion_whether_to_continue_and_no_fixed_upper_age_limit():
    rows = _frames("Evidence remains insufficient to assess the benefits and harms of screening women aged 75 or "
                   "older (grade I), and clinicians should discuss whether to continue in light of each woman's health "
                   "and preferences.", BREAST)
    assert [(r[0], r[1]) for r in rows] == [("insufficient_evidence", 75), ("individual_decision", 75)]
    statement = _doc("gw-breast", BREAST["topic"], "The College recommends biennial screening mammography for all "
                     "women at average risk from age 40 through age 74 (grade B). Evidence remains insufficient to "
                     "assess the benefits and harms of screening women aged 75 or older (grade I), and clinicians "
                     "should discuss whether to continue in light of each woman's health and preferences.")
    assert stop_age(document_frames(statement))[0] == 74
    consensus = _doc("mr-breast", BREAST["topic"], "The panel agreed that women at average risk should begin annual "
                     "screening mammography at age 40. Annual screening should continue with no fixed upper age limit "
                     "for as long as a woman is in good health and has a life expectancy of at least 10 years.")
    assert stop_age(document_frames(consensus))[0] == NO_UPPER_LIMIT
    assert ("stop_age", ("gw-breast", "mr-breast")) in conflict_facets(statement, consensus)


def test_a_numerator_of_either_test_names_the_people_once():
    rows = _frames("Numerator: women in the denominator who had cervical cytology performed within the last 3 years "
                   "when they were 21 or older, or who had hrHPV testing (alone or with cytology) performed within the "
                   "last 5 years when they were 30 or older.", CERVICAL)
    assert [(r[6], r[1], r[5]) for r in rows] == [("cytology", 21, 36), ("hrHPV testing", 30, 60)]


def test_a_goal_s_replaced_values_in_parentheses_are_set_aside():
    rows = _frames("For most adults, including those aged 80 or older, the treatment target is now below 130/80 mm "
                   "Hg rather than below 140/90 mm Hg (or below 150/90 mm Hg for those aged 80 or older), provided "
                   "treatment is tolerated.", BP)
    assert [(r[1], r[2], r[8]) for r in rows] == [(None, None, ["blood pressure <130/80 mm Hg"])]


def test_who_a_subgroup_s_own_goal_is_for_is_its_eligibility():
    old = _doc("ta-dm-2014", A1C["topic"], "For most non-pregnant adults with type 2 diabetes, the Association "
               "recommends an A1C target below 7.0% (strong recommendation). A less stringent target of below 8.0% is "
               "appropriate for adults with a life expectancy of less than 5 years, a history of severe hypoglycaemia, "
               "or extensive comorbid illness (strong recommendation).", issued="2014-09-01", status="superseded",
               superseded_by="ta-dm-2019")
    new = _doc("ta-dm-2019", A1C["topic"], "For most non-pregnant adults with type 2 diabetes, the A1C target remains "
               "below 7.0% (strong recommendation). A less stringent target of below 8.0% is now advised for adults "
               "with a life expectancy of less than 10 years, as well as for those with a history of severe "
               "hypoglycaemia (strong recommendation).", issued="2019-10-15", supersedes="ta-dm-2014")
    assert criteria_map(document_frames(new))[f"life expectancy ({SUBGROUP_GOAL})"][0] == "< 10 years"
    changes = conflicts_on("eligibility", old, new)
    assert [(c.kind, [v.value for v in c.values]) for c in changes] == [
        ("change", [f"life expectancy ({SUBGROUP_GOAL}) < 5 years", f"life expectancy ({SUBGROUP_GOAL}) < 10 years"])]


def test_diet_beside_one_drug_is_who_the_usual_goal_is_for():
    rows = _frames("If your diabetes is managed with diet and exercise alone, or with metformin alone, most people aim "
                   "for an HbA1c of 48 mmol/mol (6.5%) or lower.", A1C)
    assert [(r[4], r[8]) for r in rows] == [([], ["A1C <=48 mmol/mol", "A1C <=6.5 %"])]
    # (diet alone is a group of its own)
    rows = _frames("People who manage their diabetes with diet alone are sometimes asked to aim for 48 mmol/mol "
                   "(6.5%).", A1C)
    assert [r[4] for r in rows] == [["diabetes managed by diet alone"]]


def test_should_also_not_be_offered_is_against():
    rows = _frames("It should also not be offered to men whose life expectancy is less than 10 years, whatever their "
                   "age.", PSA)
    assert [(r[0], r[3]) for r in rows] == [("recommend_against", ["life expectancy < 10 years"])]
    # (what should not be used to exclude people keeps them in)
    rows = _frames("Time since quitting should therefore not be used as an exclusion criterion.", LUNG)
    assert [(r[0], r[3]) for r in rows] == [("recommend", ["years since quitting: any"])]


def test_a_goal_for_glucose_monitor_readings_is_for_the_people_who_use_one():
    rows = _frames("For adults using continuous glucose monitoring, the Association also recommends aiming for more "
                   "than 70% of readings between 70 and 180 mg/dL, with less than 4% below 70 mg/dL (strong "
                   "recommendation).", A1C)
    assert rows[0][4] == ["continuous glucose monitoring"]
    assert "time in range >70 % of readings" in rows[0][8]
    assert "time out of range <4 %" in rows[0][7] + rows[0][8]
    assert not any(q.startswith("A1C") for q in rows[0][7] + rows[0][8])
    old = _doc("dn-dm-2020", A1C["topic"], "For most adults who are not pregnant, an A1C under 7% is the recommended "
               "goal (grade A).", issued="2020-01-01", status="superseded", superseded_by="dn-dm-2024")
    new = _doc("dn-dm-2024", A1C["topic"], "An A1C goal below 7% remains appropriate for most nonpregnant adults "
               "(grade A). For people using continuous glucose monitoring, a new recommendation sets a goal of more "
               "than 70% of readings within 70 to 180 mg/dL (grade B).", issued="2024-01-01", supersedes="dn-dm-2020")
    assert [c.values[1].value for c in conflicts_on("target", old, new)] == [
        "time in range >70 % of readings; mg/dL value 70-180 mg/dL"]
    # a question about the goal for most people does not ask about a subgroup's
    assert not conflicts_on("target", old, new, most_people=True)
