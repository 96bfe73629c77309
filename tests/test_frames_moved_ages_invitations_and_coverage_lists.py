"""Frames for an age moved by a verb of change, a higher-risk group's start after the general one, a band between two
birthdays, a programme's invitations and an insurer's labelled lists, a pathway's "take a sample" step, intervals
replaced or named for their harm, bracketed risk factors, "from 7.5% up to 10%", "higher risk means", a kidney-disease
subgroup's blood-pressure goal and a co-test with its parts in brackets (``tools/frames/ages.py``, ``populations.py``,
``programme_cues.py``, ``action_cues.py``, ``intervals.py``, ``subgroups.py``, ``quantities.py``, ``lexicon.py``)."""

from __future__ import annotations

from frame_fixtures import BP, BREAST, CERVICAL, CRC, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.ages import age_bounds
from clinrag.tools.frames.extract import document_frames, extract_frames


def _rows(sentence: str, meta: dict) -> list[tuple]:
    return [(f.action, f.test, f.population.age_min, f.population.age_max,
             f.interval_months.text() if f.interval_months else None) for f in extract_frames(sentence, doc_meta=meta)]


def test_an_age_moved_by_a_verb_of_change_starts_at_its_new_value():
    assert _rows("In this edition the Society lowers the age at which PSA screening may be discussed from 55 to 50.",
                 PSA) == [("individual_decision", None, 50, None, None)]
    assert _rows("What's new: the starting age for average-risk adults has been lowered from 50 to 45, while the "
                 "intervals are unchanged.", CRC) == [("recommend", None, 45, None, None)]
    assert age_bounds("screening was moved from 55 to 50") == (None, None)  # never the band 55 to 50


def test_a_higher_risk_groups_start_after_the_general_one():
    frames = extract_frames("The panel recommends PSA screening for men at average risk from the age of 45, and from "
                            "40 for men of Black ancestry or with a father or brother diagnosed before 65.",
                            doc_meta=PSA)
    assert [(f.population.age_min, f.population.criteria) for f in frames] == [
        (45, []), (40, ["Black ancestry", "relative's age at diagnosis < 65", "family history"])]


def test_a_programmes_invitations():
    assert age_bounds("you are aged between your 45th birthday and your 71st birthday") == (45, 70)
    assert _rows("Every woman aged 50 to 70 who is registered with a practice is invited once every three years.",
                 BREAST) == [("recommend", None, 50, 70, "36")]
    assert _rows("The programme is offered to men and women aged 60 to 74 who are registered with a practice.",
                 CRC) == [("recommend", None, 60, 74, None)]
    assert _rows("Women over 70 are no longer sent invitations, but may phone to book an appointment.", BREAST) == [
        ("recommend_against", None, 71, None, None)]
    # an exception is no invitation of the age group
    assert _rows("People aged 65 or over are invited only if one of their last three tests was abnormal.",
                 CERVICAL) == []
    old = _doc("ks-crc", CRC["topic"], "The programme is offered to men and women aged 60 to 74.", status="superseded",
               superseded_by="ks2-crc")
    new = _doc("ks2-crc", CRC["topic"], "From this year invitations now go to everyone from age 50 instead of from age "
               "60, up to and including age 74.", issued="2024-01-01")
    new["org"] = old["org"] = "KS"
    assert ("start_age", ("ks-crc", "ks2-crc")) in _facets(old, new)


def test_an_insurers_labelled_lists_and_a_pathways_sample():
    assert _rows("Covered: screening for members aged 21 through 65, limited to one cytology test every 3 years for "
                 "members aged 21 to 29.", CERVICAL) == [("recommend", "cytology", 21, 29, "36")]
    assert _rows("Not medically necessary: screening of members younger than 21.", CERVICAL) == [
        ("recommend_against", None, None, 20, None)]
    assert _rows("Step 2: For those aged 21 to 29, take a cytology sample every three years.", CERVICAL) == [
        ("recommend", "cytology", 21, 29, "36")]
    assert _rows("Step 3: From 30 through 65, offer co-testing (cytology with HPV testing) every five years.",
                 CERVICAL) == [("recommend", "co-testing", 30, 65, "60")]


def test_an_interval_replaced_or_named_for_its_harm_is_not_the_schedule():
    assert _rows("Repeat testing every two years now replaces annual testing.", PSA) == [
        ("recommend", None, None, None, "24")]
    assert _rows("Where men opt for screening, testing at two-year intervals is preferred, as annual testing increases "
                 "false-positive results.", PSA)[0][4] == "24"


def test_statin_thresholds_bands_and_bracketed_risk_factors():
    [step] = extract_frames("Step 3: If the 10-year risk is 10% or more and the patient has at least one risk factor "
                            "(dyslipidaemia, diabetes or current smoking), offer a moderate-intensity statin.",
                            doc_meta=STATIN)
    assert step.action == "recommend" and step.population.criteria == [] and [q.text() for q in step.thresholds] == [
        ">=10 %"]
    [band] = extract_frames("Step 4: If the risk is from 7.5% up to 10%, the clinician may selectively offer a statin.",
                            doc_meta=STATIN)
    assert [q.text() for q in band.thresholds] == ["7.5-10 %"]
    [older] = extract_frames("In adults aged 76 and older, starting a statin may be considered after shared "
                             "decision-making that weighs frailty (Class IIb).", doc_meta=STATIN)
    assert older.action == "individual_decision"
    defined = _doc("yh-asp", "aspirin-primary-prevention", "Low-dose aspirin might be considered in adults aged 40 to "
                   "70 years who are at higher cardiovascular risk (Class IIb). For this purpose, higher risk means an "
                   "estimated 10-year ASCVD risk of 7.5% or more.")
    assert [[q.text() for q in f.thresholds] for f in document_frames(defined)] == [[">=7.5 %"]]


def test_a_kidney_disease_subgroups_goal_is_theirs_alone():
    ckd = _doc("sk-htn", BP["topic"], "In adults with chronic kidney disease and albuminuria, a target below 130/80 mm "
               "Hg may be considered.")
    general = _doc("pf-htn", BP["topic"], "For adults with hypertension, a target below 140/90 mm Hg is recommended.")
    assert ("target", ("pf-htn", "sk-htn")) not in _facets(ckd, general)
    [included] = extract_frames("For adults with hypertension, including those with chronic kidney disease, aim for "
                                "below 140/90 mm Hg.", doc_meta=BP)
    assert included.population.conditions == []
