"""Frames for "one FIT in any 12-month period", a result that "is usually followed by a repeat test", a test "only
worthwhile if you expect to live at least ten more years", "continues to find the evidence insufficient" for an age
band, a leaflet's "a good goal is", a second goal offered "or a less strict goal ... if you have had severe lows", and
a diastolic limit that is no age (``tools/frames/intervals.py``, ``action_cues.py``, ``ages.py``, ``subgroups.py``,
``clause_parts.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CRC, PSA, STATIN
from frame_fixtures import frame_rows as _frames


def test_a_frequency_limit_in_any_period():
    rows = _frames("Frequency limits have not changed: one FIT in any 12-month period, one mt-sDNA test every three "
                   "years, one screening colonoscopy per 10 years.", CRC)
    assert [(r[5], r[6]) for r in rows] == [(12, "FIT"), (36, "mt-sDNA"), (120, "colonoscopy")]


def test_a_result_followed_by_a_repeat_test_and_a_test_worthwhile_only_for_some():
    assert _frames("A PSA level above 4 ng/mL is usually followed by a repeat test and possibly an MRI scan or "
                   "biopsy.", PSA) == [("recommend", None, None, [], [], None, None, ["PSA >4 ng/mL"], [])]
    assert _frames("Testing is generally only worthwhile if you expect to live at least ten more years.", PSA) == [
        ("recommend", None, None, ["life expectancy >= 10 years"], [], None, None, [], [])]
    # background that asks whether something is worthwhile recommends nothing
    assert _frames("Community pharmacists are often asked whether a daily 'baby aspirin' is worthwhile for someone who "
                   "has never had a cardiovascular event.", ASPIRIN) == []


def test_evidence_still_found_insufficient_for_an_age_band():
    assert _frames("The Council continues to find the evidence insufficient to recommend for or against starting a "
                   "statin in adults aged 76 years or older.", STATIN) == [
        ("insufficient_evidence", 76, None, [], [], None, None, [], [])]


def test_a_leaflets_good_goal_and_a_second_goal_for_other_people():
    assert _frames("For most adults with type 2 diabetes, a good goal is an A1C below 7% (53 mmol/mol).", A1C) == [
        ("recommend", None, None, [], [], None, None, [], ["A1C <7 %", "A1C <53 mmol/mol"])]
    rows = _frames("Your doctor may suggest a lower goal, such as below 6.5% (48 mmol/mol), if you can reach it "
                   "without low blood sugar, or a less strict goal, such as below 8% (64 mmol/mol), if you have had "
                   "severe lows or have other serious health problems.", A1C)
    assert [(r[4], r[8]) for r in rows] == [([], ["A1C <6.5 %", "A1C <48 mmol/mol"]),
                                            (["severe hypoglycemia"], ["A1C <8 %", "A1C <64 mmol/mol"])]


def test_a_diastolic_limit_is_no_age():
    assert _frames("Numerator: patients whose most recent blood pressure in the measurement period was below 140/90 mm "
                   "Hg, that is, systolic under 140 and diastolic under 90.", BP) == [
        ("recommend", None, None, [], [], None, None, [], ["blood pressure <140/90 mm Hg"])]
