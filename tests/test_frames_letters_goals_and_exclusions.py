"""Frames for a letter's "will now be invited" and "Invitations still start when you turn 25 and end at 64", a goal
named with its people before "is", "reduce clinic blood pressure to below 140/90", a normal reading's re-check
schedule, a leaflet's "your doctor will usually refer you", an LDL cholesterol level in an exclusion list and "discuss
the option of a statin", numbered eligibility checks, an insurer's smoking criterion and whom a recommendation applies
to (``tools/frames/programme_cues.py``, ``ages.py``, ``action_cues.py``, ``subgroups.py``, ``no_stance.py``,
``rules.py``, ``set_aside.py``)."""

from __future__ import annotations

from frame_fixtures import BP, CERVICAL, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.extract import extract_frames


def _rows(sentence: str, meta: dict) -> list[tuple]:
    return [(f.action, f.population.age_min, f.population.age_max,
             f.interval_months.text() if f.interval_months else None,
             [q.text() for q in f.thresholds], [q.text() for q in f.targets])
            for f in extract_frames(sentence, doc_meta=meta)]


def test_a_letters_invitations():
    assert _rows("People aged 25 to 64 whose test shows no HPV will now be invited every five years instead of every "
                 "three.", CERVICAL) == [("recommend", 25, 64, "60", [], [])]
    assert _rows("Invitations still start when you turn 25 and end at 64, unless one of your recent tests was "
                 "abnormal.", CERVICAL) == [("recommend", 25, 64, None, [], [])]


def test_goals_imperatives_and_a_normal_readings_schedule():
    assert _rows("The treatment goal for adults under 80 years is a clinic blood pressure below 140/90 mm Hg.", BP) == [
        ("recommend", None, 79, None, [], ["<140/90 mm Hg"])]
    assert _rows("In adults aged under 80, reduce clinic blood pressure to below 140/90 mmHg.", BP) == [
        ("recommend", None, 79, None, [], ["<140/90 mm Hg"])]
    old = _doc("tg-bp", BP["topic"], "Adults whose blood pressure is normal should have it measured again at least "
               "every five years.", status="superseded", superseded_by="tg2-bp")
    new = _doc("tg2-bp", BP["topic"], "Step 4: recheck monthly until the target is reached, then every 3 to 6 months. "
               "Step 5: adults with a normal reading are re-screened at 5-year intervals.", issued="2024-01-01")
    old["org"] = new["org"] = "TG"
    assert ("interval", ("tg-bp", "tg2-bp")) not in _facets(old, new)


def test_a_referral_level_an_exclusion_and_a_discussion():
    assert _rows("If your PSA is 4 ng/mL or above, your doctor will usually refer you to a urologist.", PSA) == [
        ("recommend", None, None, None, [">=4 ng/mL"], [])]
    assert _rows("In adults from age 40 through 75 without clinical atherosclerotic cardiovascular disease, diabetes "
                 "or an LDL cholesterol of 190 mg/dL or higher, clinicians should estimate 10-year risk.", STATIN) == [
        ("recommend", 40, 75, None, [], [])]
    assert _rows("Step 4: If the risk is 7.5% to 9.9%, discuss the option of a statin using the shared decision-making "
                 "tool.", STATIN) == [("individual_decision", None, None, None, ["7.5-9.9 %"], [])]


def test_numbered_eligibility_checks_an_insurers_smoking_criterion_and_whom_a_recommendation_applies_to():
    lung = {"topic": "lung-cancer-screening"}
    [check] = extract_frames("Eligibility check 1: age fifty through eighty.", doc_meta=lung)
    assert (check.action, check.population.age_min, check.population.age_max) == ("recommend", 50, 80)
    [member] = extract_frames("The member has a tobacco smoking history of at least 20 pack-years and currently smokes "
                              "or has quit smoking within the last 15 years.", doc_meta=lung)
    assert member.action == "recommend" and member.population.criteria[:2] == ["pack-years >= 20",
                                                                               "years since quitting <= 15"]
    applies = extract_frames("This recommendation applies to people who currently smoke and to those who formerly "
                             "smoked, irrespective of how many years ago they quit.", doc_meta=lung)
    assert applies and all(f.action == "recommend" for f in applies)
    assert any("years since quitting: any" in f.population.criteria for f in applies)
    # its scope is no recommendation
    assert extract_frames("These recommendations do not apply to individuals with a history of high-grade lesions.",
                          doc_meta=CERVICAL) == []
