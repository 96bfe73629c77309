"""Frames and conflicts for who a leaflet or decision aid is for, a decision aid's outcomes per thousand, a personal
choice and a decision to be shared, people already taking a drug, an authority "inviting people aged ...", numbers
in words in criteria, quitting "many years ago", a sentence's own antecedent, an annual review, a recall "for 5
years", a value relaxed from a former one, a share of members and a comparator after a parenthesis
(``tools/frames/action_cues.py``, ``pairing.py``, ``rules.py``, ``lexicon.py``, ``extract.py``, ``intervals.py``,
``set_aside.py``, ``quantities.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CERVICAL, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.extract import document_frames, extract_frames


def _actions(doc: dict) -> list[tuple]:
    return [(f.action, f.population.age_min, f.population.age_max) for f in document_frames(doc)]


def test_who_a_leaflet_is_for_states_no_stance_and_its_choice_is_the_stance():
    leaflet = _doc("lf-psa", PSA["topic"], "This leaflet is for you if you are a man between 50 and 69. Whether to be "
                   "tested is your choice, and your GP can help you decide.")
    statement = _doc("st-psa", PSA["topic"], "Clinicians should screen men aged 55 to 69 years with a PSA test every "
                     "2 years.")
    other_leaflet = _doc("ol-psa", PSA["topic"], "This decision aid is for men aged 50 to 69. Having the test is your "
                         "own choice.")
    found = _facets(leaflet, statement, other_leaflet)
    # the leaflets leave it to the man, the statement recommends: an action disagreement; the leaflets agree
    assert {("action", ("lf-psa", "st-psa")), ("action", ("ol-psa", "st-psa"))} <= found
    assert ("action", ("lf-psa", "ol-psa")) not in found
    # their audience gives the ages they are about: 50 against the statement's 55, the same for both leaflets
    assert ("start_age", ("lf-psa", "st-psa")) in found
    assert ("start_age", ("lf-psa", "ol-psa")) not in found


def test_a_decision_aids_outcomes_per_thousand_and_a_personal_choice():
    assert _summary("Out of 1,000 men your age who have regular PSA tests, about one will avoid dying of prostate "
                    "cancer.", PSA) == []
    assert [f.action for f in extract_frames(
        "Out of 1,000 people like you who take aspirin for ten years, about 6 will avoid a heart attack, so whether to "
        "take it is a personal choice that you and your doctor make together.", doc_meta=ASPIRIN)] == [
        "individual_decision"]
    # a stance to avoid is still one
    assert [f.action for f in extract_frames("Adults aged 70 or older should avoid starting aspirin.",
                                             doc_meta=ASPIRIN)] == ["recommend_against"]
    assert [f.action for f in extract_frames(
        "For customers aged 40 to 59, aspirin is appropriate to discuss only when their 10-year risk is at least 15%, "
        "and the decision should be shared with the prescriber.", doc_meta=ASPIRIN)] == ["individual_decision"]


def test_people_already_taking_a_drug_are_their_own_subgroup():
    f = extract_frames("People already taking aspirin should review continuation with their clinician after age 70.",
                       doc_meta=ASPIRIN)
    assert [x.population.conditions for x in f] == [["already taking it"]]
    statement = _doc("st-asa", ASPIRIN["topic"], "Aspirin may be considered for adults aged 40 to 69 with a 10-year "
                     "risk of 10% or more. People already taking aspirin should review continuation with their "
                     "clinician after age 70.")
    other = _doc("ot-asa", ASPIRIN["topic"], "Aspirin may be considered for adults aged 40 to 69 with a 10-year risk "
                 "of 10% or more.")
    assert not {facet for facet, _ in _facets(statement, other)} & {"start_age", "stop_age"}


def test_an_exception_names_who_a_recommendation_is_not_for():
    """"unless they are already taking one" excepts those people: the statement is about everyone else, so it is
    compared with another organization's individual decision for the same ages; a cover excluded "unless there is a
    history of CIN2+" is about those without it."""
    f = extract_frames("We suggest against starting a statin for primary prevention in adults older than 75 years, "
                       "unless they are already taking one and tolerating it well.", doc_meta=STATIN)
    assert [(x.action, x.population.age_min, x.population.conditions) for x in f] == [("discourage", 76, [])]
    other = _doc("ot-st", STATIN["topic"], "For adults older than 75, whether to start a statin is an individual "
                 "decision.")
    statement = _doc("st-st", STATIN["topic"], f[0].sentence)
    assert ("action", ("ot-st", "st-st")) in _facets(statement, other)
    f = extract_frames("Screening after total hysterectomy with removal of the cervix is not covered unless there is a "
                       "history of CIN2+ or cervical cancer.", doc_meta=CERVICAL)
    assert [x.population.conditions for x in f] == [["hysterectomy"]]


def test_an_invitation_to_people_and_criteria_in_words():
    f = extract_frames("The Authority is inviting people aged 55 to 74 who have ever smoked to a lung health check.",
                       doc_meta=LUNG)
    assert [(x.action, x.population.age_min, x.population.age_max) for x in f] == [("recommend", 55, 74)]
    f = extract_frames("If you have smoked the equivalent of thirty-five pack-years or more, you will be offered a "
                       "low-dose CT scan, whether you still smoke or quit many years ago.", doc_meta=LUNG)
    assert [x.population.criteria for x in f] == [
        ["pack-years >= 35", "years since quitting: any", "smoking status: current or former"]]
    # quitting within a time is a limit, not "any"
    f = extract_frames("You will be offered a scan whether you still smoke or quit within the past 15 years.",
                       doc_meta=LUNG)
    assert "years since quitting: any" not in f[0].population.criteria


def test_a_sentences_own_antecedent_and_an_annual_review():
    doc = _doc("pw-psa", PSA["topic"], "This pathway covers PSA testing in men without symptoms. Step 1: Identify "
               "asymptomatic men aged 50 to 74 years at their annual review; the Board recommends routine PSA testing "
               "for these men.")
    frames = [f for f in document_frames(doc) if "Step 1" in f.sentence]
    assert [(f.population.age_min, f.population.age_max, f.interval_months) for f in frames] == [(50, 74, None)]
    assert _summary("Offer an annual PSA test to men aged 50 to 69.", PSA) == [("recommend", None, 50, 69, 12)]


def test_a_recall_for_five_years_and_a_value_relaxed_from_a_former_one():
    assert _summary("Step 3: if HPV is not detected, set the recall for 5 years.", CERVICAL) == [
        ("recommend", "hrHPV testing", None, None, 60)]
    f = extract_frames("For frail older adults, the Committee now recommends a goal of less than 8.5%, relaxed from "
                       "8.0% in the previous edition.", doc_meta=A1C)
    assert [[(q.op, q.value) for q in x.targets] for x in f] == [[("<", "8.5")]]


def test_a_share_of_members_and_a_comparator_after_a_parenthesis():
    f = extract_frames("Plans achieving control in 70% or more of eligible members qualify for the highest tier.",
                       doc_meta=BP)
    assert all(not x.targets and not x.thresholds for x in f)
    f = extract_frames("If you are between 40 and 75 and that chance is ten in a hundred (10%) or higher, we "
                       "recommend a statin.", doc_meta=STATIN)
    assert [[(q.op, q.value) for q in x.thresholds] for x in f] == [[(">=", "10")]]
