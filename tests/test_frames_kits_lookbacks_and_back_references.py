"""Frames for a programme's kits "now sent from age 50", a leaflet's "next test will usually be in 5 years", a part that
refers back to an age ("...; testing before then is not advised"), a measure's denominator bounded by the
measurement year and the schedule it is built on, a value an edition is "replacing", a pathway's pack-year step and
"Do not exclude former smokers because of how long ago they quit", those "who already take aspirin", and
hypertension that "continues to be diagnosed" or that a pathway's step classifies (``tools/frames/action_cues.py``,
``intervals.py``, ``clauses.py``, ``set_aside.py``, ``subgroups.py``, ``populations.py``, ``rules.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, BREAST, CERVICAL, CRC, LUNG
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc


def test_kits_now_sent_from_an_age_and_a_leaflets_next_test():
    assert _frames("The programme has recently extended invitations to younger people, so home test kits are now "
                   "sent from age 50 instead of from age 60.", CRC) == [
        ("recommend", 50, None, [], [], None, "FIT", [], [])]
    assert _frames("Your sample is tested for HPV, and if no HPV is found your next test will usually be in 5 years.",
                   CERVICAL) == [("recommend", None, None, [], [], 60, "hrHPV testing", [], [])]


def test_a_part_that_refers_back_to_an_age_states_its_own_band():
    assert _frames("Most people with a cervix are invited for their first test at 25; testing before then is not "
                   "advised, because cell changes in younger people usually clear up on their own.", CERVICAL) == [
        ("recommend", 25, None, [], [], None, None, [], []),
        ("recommend_against", None, 24, [], [], None, None, [], [])]


def test_a_measures_denominator_and_the_schedule_it_is_built_on():
    # the measurement year bounds who is counted ("who turn 52 through 74 during the measurement year"), no test
    assert _frames("Denominator: women who turn 52 through 74 during the measurement year and who were continuously "
                   "enrolled for the 27 months before its end.", BREAST)[0][5] is None
    assert _frames("The 27-month look-back gives a three-month grace period around the biennial schedule on which "
                   "the measure is built.", BREAST) == [("recommend", None, None, [], [], 24, None, [], [])]


def test_a_value_an_edition_is_replacing_is_no_goal_now():
    sentence = ("What's new in this edition: the Society now advises that clinicians aim for an A1C between 7% and 8% "
                "in most adults with type 2 diabetes, replacing the single goal of less than 7% in the 2012 "
                "standards.")
    assert _frames(sentence, A1C) == [("recommend", None, None, [], [], None, None, [], ["A1C 7-8 %"])]
    old = _doc("ox-a1c", A1C["topic"], "For most non-pregnant adults with type 2 diabetes, the Society recommends an "
               "A1C goal of less than 7.0% (53 mmol/mol) (Grade B).")
    pathway = _doc("zb-a1c", A1C["topic"], "Step 2: Agree an individual HbA1c target with the patient; for most adults "
                   "this is 53 mmol/mol (7.0%) or lower.")
    new = _doc("ox2-a1c", A1C["topic"], sentence)
    assert ("target", ("ox2-a1c", "zb-a1c")) in _facets(new, pathway)
    assert ("target", ("ox-a1c", "ox2-a1c")) in _facets(old, new)


def test_a_pathways_pack_year_step_and_former_smokers_not_excluded_by_their_quit_date():
    assert _frames("Step 2: Calculate pack-years (packs smoked per day multiplied by years of smoking) and proceed "
                   "only if the total is at least 20.", LUNG)[0][3] == ["pack-years >= 20"]
    assert _frames("Step 3: Do not exclude former smokers because of how long ago they quit; a person who stopped "
                   "smoking thirty years ago remains eligible if Step 2 is met.", LUNG) == [
        ("recommend", None, None, ["years since quitting: any", "smoking status: current or former"], [], None, None,
         [], [])]


def test_those_who_already_take_aspirin_are_a_group_of_their_own():
    assert _frames("Adults who already take aspirin for primary prevention should not stop it abruptly without first "
                   "discussing it with their clinician.", ASPIRIN)[0][4] == ["already taking it"]
    # so "should not stop" says nothing of where starting aspirin ends
    update = _doc("ia-asa", ASPIRIN["topic"], "Low-dose aspirin may be considered in adults 40 to 59 years old who "
                  "have a 10-year risk of 10% or higher (class IIb). Aspirin should not be started in adults aged 60 "
                  "years and older (class III: harm). Adults who already take aspirin for primary prevention should "
                  "not stop it abruptly.")
    aid = _doc("ln-asa", ASPIRIN["topic"], "If your chance of a heart attack or stroke in the next ten years is 10 "
               "percent or higher, whether to take a low dose of aspirin each day is a choice you and your doctor can "
               "make together, from age 40 to 59. If you are 60 or older, the Network advises against starting "
               "aspirin.")
    assert ("stop_age", ("ia-asa", "ln-asa")) not in _facets(update, aid)


def test_hypertension_that_continues_to_be_diagnosed_and_a_step_that_classifies_it():
    assert _frames("Hypertension continues to be diagnosed at a clinic blood pressure of 140/90 mm Hg or above.",
                   BP) == [("recommend", None, None, [], [], None, None, ["hypertension >=140/90 mm Hg"], [])]
    council = _doc("ec-htn", BP["topic"], "Hypertension continues to be diagnosed at a clinic blood pressure of 140/90 "
                   "mm Hg or above.")
    pathway = _doc("jv-htn", BP["topic"], "Step 2: Classify an average of 130/80 mm Hg or higher as hypertension, "
                   "stage 1 at 130 to 139 systolic or 80 to 89 diastolic and stage 2 at 140/90 or more.")
    assert ("threshold", ("ec-htn", "jv-htn")) in _facets(council, pathway)
