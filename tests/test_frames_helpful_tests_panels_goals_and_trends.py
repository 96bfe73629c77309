"""Frames for a leaflet's "testing is not usually helpful" and "not expected to live for more than 10 to 15 years", a
PSA named earlier in its sentence, "No consensus was reached" (no stance), "The aim of treatment is", goals for
"multiple coexisting chronic illnesses", a share of glucose readings that is no A1C, "the general A1C goal", an
incidence trend among an age group, a lifetime risk that selects high-risk women for annual MRI, "a close relative
had breast cancer", a question's goal asked for an age band, and a target that "now also applies to" older adults
(``tools/frames/action_cues.py``, ``ages.py``, ``subgroups.py``, ``quantity_names.py``, ``quantities.py``,
``set_aside.py``, ``populations.py``, ``lexicon.py``, ``rules.py``; ``clinrag/question/understanding.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.question.understanding import asked_ages, asked_most_people, narrowed_facets
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames


def test_a_test_that_is_not_usually_helpful_and_one_unlikely_to_help_short_lives():
    assert _frames("Once you are over 75, testing is not usually helpful, because slow-growing cancers found at that "
                   "age rarely cause problems.", PSA)[0][:3] == ("discourage", 76, None)
    assert _frames("If you have other serious health problems and are not expected to live for more than 10 to 15 "
                   "years, the test is unlikely to help you.", PSA) == [
        ("discourage", None, None, [], ["limited life expectancy"], None, None, [], [])]


def test_a_psa_named_earlier_in_its_sentence():
    assert _frames("A raised PSA can be caused by an enlarged prostate or an infection as well as by cancer, and a "
                   "result of 3 ng/mL or more usually means your doctor will suggest more tests, such as an MRI scan.",
                   PSA)[0][7] == ["PSA >=3 ng/mL"]


def test_a_panel_without_consensus_and_the_aim_of_treatment():
    # a panel that could not agree states no stance (the document's recommendation ends at 75)
    assert _frames("No consensus was reached on starting statins after age 75, and the panel advised that risk be "
                   "recalculated every 5 years in untreated adults.", STATIN) == []
    panel = _doc("ah-statin", STATIN["topic"], "The panel agreed that statin therapy should be offered to adults aged "
                 "45 through 75 years whose 10-year risk is 10 % or higher. No consensus was reached on starting "
                 "statins after age 75.")
    pathway = _doc("op-statin", STATIN["topic"], "Step 1: offer a statin to adults aged 40 to 84 whose 10-year risk is "
                   "10 % or more.")
    assert ("stop_age", ("ah-statin", "op-statin")) in _facets(panel, pathway)
    assert _frames("The aim of treatment is a reduction in LDL cholesterol of 30 % to 49 % from baseline with "
                   "moderate-intensity therapy.", STATIN)[0][8] == ["LDL-C reduction 30-49 %"]


def test_goals_for_multiple_chronic_illnesses_and_a_share_of_readings():
    rows = _frames("For older adults with multiple coexisting chronic illnesses, cognitive impairment or functional "
                   "dependence, a goal of below 8.5 % (69 mmol/mol) is now advised (grade B).", A1C)
    assert rows[0][4] == ["multiple chronic illnesses"]
    meta = {**A1C, "doc_id": "x"}
    share = extract_frames("For people using continuous glucose monitoring, a new recommendation sets a goal of more "
                           "than 70 % of readings within 70 to 180 mg/dL (grade B).", doc_meta=meta)[0]
    assert [q.name for q in share.targets][0] == "time in range"
    old = _doc("dn-a1c-2020", A1C["topic"], "For most adults who are not pregnant, an A1C under 7 % (53 mmol/mol) is "
               "the recommended goal (grade A).")
    new = _doc("dn-a1c-2024", A1C["topic"], "For most adults who are not pregnant, an A1C below 7 % (53 mmol/mol) "
               "remains appropriate (grade A). For people using continuous glucose monitoring, a new recommendation "
               "sets a goal of more than 70 % of readings within 70 to 180 mg/dL (grade B).")
    assert ("target", ("dn-a1c-2020", "dn-a1c-2024")) not in _facets(old, new)


def test_the_general_goal_is_asked_for_most_people():
    question = "Between DNEA's 2020 and 2024 editions, did the general A1C goal for nonpregnant adults change?"
    assert asked_most_people(question)
    assert not asked_most_people("Did DNEA's A1C goal for older adults with multiple chronic illnesses change?")
    old = _doc("dn-a1c-2020", A1C["topic"], "An A1C under 7 % is the recommended goal for most adults (grade A). A "
               "goal below 8.0 % is appropriate for older adults with multiple coexisting chronic illnesses (grade B).",
               issued="2020-01-01", status="superseded", superseded_by="dn-a1c-2024")
    new = _doc("dn-a1c-2024", A1C["topic"], "An A1C below 7 % remains appropriate for most adults (grade A). For older "
               "adults with multiple chronic illnesses a goal of below 8.5 % is now advised (grade B).",
               issued="2024-01-01", supersedes="dn-a1c-2020")
    frames = [f for d in (old, new) for f in document_frames(d)]
    replaced = {"dn-a1c-2020": "2024-01-01"}
    assert "target" in {c.facet for c in find_conflicts(frames, replaced)}  # the looser goal changed
    assert "target" not in {c.facet for c in find_conflicts(frames, replaced, most_people=True)}


def test_a_trend_among_an_age_group_names_no_ages_and_no_value():
    assert _frames("Incidence among women in their forties has been rising by about 2 % a year since 2015, and the "
                   "Collaborative now recommends biennial screening mammography for all women at average risk from "
                   "age 40 until age 74 (grade B).", BREAST) == [
        ("recommend", 40, 74, [], [], 24, None, [], [])]


def test_a_lifetime_risk_selects_high_risk_women_for_annual_mri_and_a_close_relatives_cancer():
    meta = {**BREAST, "doc_id": "x"}
    mri = extract_frames("Women with a lifetime risk of 20 % or more should be referred for risk assessment and annual "
                         "MRI, starting at age 30.", doc_meta=meta)[0]
    assert (mri.intervention, mri.population.risk, mri.population.age_min) == (
        "supplemental breast imaging", "high", 30)
    assert [(q.name, q.op, q.value) for q in mri.thresholds] == [("lifetime risk", ">=", "20")]
    # an exception for high-risk women leaves the statement about the others
    younger = extract_frames("Screening mammography for members younger than 40 is considered not medically necessary "
                             "unless the member has a lifetime risk of 20% or greater.", doc_meta=meta)[0]
    assert (younger.action, younger.population.risk) == ("recommend_against", None)
    assert _frames("If a close relative had breast cancer at a young age, your doctor can refer you to the "
                   "family-history service, which may offer yearly mammograms from age 40.", BREAST)[0][3] == [
        "family history"]


def test_a_goal_asked_for_an_age_band_is_compared_at_those_ages():
    question = ("Do EHCS, CQAP and NBPP agree on the blood pressure that defines hypertension and on the treatment "
                "target for adults younger than 65?")
    ages = asked_ages(question, None)
    assert ages == (None, 64) and "target" in narrowed_facets(question, ages, None)
    assert "target" not in narrowed_facets("Do they agree on the target, and on the advice for adults aged 45 to 49?",
                                           (45, 49), None)
    measure = _doc("cq-bp", BP["topic"], "Numerator: patients in the denominator whose most recent blood pressure was "
                   "below 140/90 mm Hg.")
    pathway = _doc("nb-bp", BP["topic"], "Step 4: treat to a clinic blood pressure below 140/90 mm Hg in people aged "
                   "under 80, and below 150/90 mm Hg in people aged 80 and over.")
    frames = [f for d in (measure, pathway) for f in document_frames(d)]
    assert "target" in {c.facet for c in find_conflicts(frames)}  # at 80 and over
    assert "target" not in {c.facet for c in find_conflicts(frames, ages=ages, narrowed=narrowed_facets(
        question, ages, None))}


def test_a_target_that_now_also_applies_to_older_adults():
    assert _frames("This target also applies to community-dwelling ambulatory adults aged 65 and older (Class I).",
                   BP) == []  # names no value of its own
    assert _frames("New in this edition, the same target of below 130/80 mm Hg now also applies to adults aged 65 and "
                   "older, including those over 80, if it is tolerated (class I; level of evidence B-R).", BP) == [
        ("recommend", 65, None, [], [], None, None, [], ["blood pressure <130/80 mm Hg"])]
