"""Frames for a one-off baseline before routine screening, screening "performed more often than the stated frequency",
a stop the document states after a gap, "decide individually", "not usually recommended", "you can ask your GP for a
PSA blood test", "after individual discussion", a measure's "Numerator for the control indicator:", a level that "was
chosen", "the expected testing frequency", a statement at a test result (no screening band), "another test in two
years' time", "marked frailty", and a diagnosis moved "from 140/90 to 130/80 mm Hg" (``tools/frames/``:
``action_cues.py``, ``bands.py``, ``extract.py``, ``intervals.py``, ``programme_cues.py``, ``quantities.py``,
``rules.py``, ``set_aside.py``, ``subgroups.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, CERVICAL, CRC, LUNG, PSA, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import start_age, stop_age
from clinrag.tools.frames.extract import document_frames


def test_a_baseline_mammogram_and_a_frequency_limit():
    assert _frames("A single baseline screening mammogram is covered for members aged 35 through 39.", BREAST) == []
    rows = _frames("Screening studies performed more often than the stated frequency are not covered unless the "
                   "ordering clinician documents new symptoms.", BREAST)
    assert [r[0] for r in rows] == ["recommend"]  # (how often a covered study is paid for, not against screening)
    # (an exclusion that also names ages stays one)
    assert _frames("Scans for members aged 78 or older, or performed more often than the stated frequency, are not "
                   "covered.", LUNG)[0][:3] == ("recommend_against", 78, None)
    policy = _doc("dm-mammo", BREAST["topic"], "The Plan considers one screening mammogram every 12 months medically "
                  "necessary for female members aged 40 years and older. A single baseline screening mammogram is "
                  "covered for members aged 35 through 39.")
    assert start_age(document_frames(policy))[0] == 40


def test_a_stop_stated_after_a_gap():
    pathway = _doc("xp-cerv", CERVICAL["topic"], "What's new in this edition: people aged 25 to 49 whose HPV test is "
                   "negative are now recalled every five years. The age range itself is unchanged: invitations "
                   "continue to start at 25 and routine screening stops at the 65th birthday.")
    assert stop_age(document_frames(pathway))[0] == 64
    # (not where another band fills the ages between: the routine band's end is the stop)
    statement = _doc("yr-crc", CRC["topic"], "Screen adults aged 45 to 75 years. For adults aged 76 to 85, the "
                     "decision to screen should be individualized. Do not screen adults older than 85.")
    assert stop_age(document_frames(statement))[0] == 75


def test_decisions_left_to_the_man_and_a_test_not_usually_recommended():
    assert _frames("For patients aged 76 to 85, decide individually with the patient whether to screen further.",
                   CRC)[0][:3] == ("individual_decision", 76, 85)
    assert _frames("If you are 70 or older and have no symptoms, the test is not usually recommended.", PSA)[0][:3] == (
        "discourage", 70, None)
    assert _frames("If you are a man aged 50 to 69 you can ask your GP for a PSA blood test.", PSA)[0][:3] == (
        "individual_decision", 50, 69)
    rows = _frames("For men aged 70 to 75, continued testing should be offered only to those in good health with a "
                   "life expectancy of more than 10 years, after individual discussion.", PSA)
    assert [r[:3] for r in rows] == [("individual_decision", 70, 75)]


def test_a_measures_control_indicator_its_chosen_level_and_frequency():
    assert _frames("Numerator for the control indicator: members whose most recent A1C in the measurement year is "
                   "less than 8.0%.", A1C)[0][8] == ["A1C <8 %"]
    assert _frames("The 8.0% level was chosen for a population measure because a stricter cut-off would penalize "
                   "plans for appropriately individualized care in older members.", A1C) == []
    assert _frames("For the measure, one A1C test every 12 months is treated as the expected testing frequency.",
                   A1C)[0][5] == 12


def test_a_statement_at_a_result_bounds_no_screening_band():
    panel = _doc("zc-psa", PSA["topic"], "The panel agreed that men at average risk should be offered shared "
                 "decision-making about PSA testing starting at age 45. A PSA of 3 ng/mL or above in a man younger "
                 "than 70 should be confirmed and followed by multiparametric MRI. For men aged 70 to 75, continued "
                 "testing should be offered only to those in good health, after individual discussion. Testing is not "
                 "recommended for men older than 75.")
    frames = document_frames(panel)
    assert (start_age(frames)[0], stop_age(frames)[0]) == (45, 75)


def test_another_test_in_two_years_time():
    assert _frames("If your result is normal and you want to keep being tested, you can have another test in two "
                   "years' time.", PSA)[0][5] == 24


def test_a_goal_for_marked_frailty_is_a_subgroups():
    rows = _frames("In people with marked frailty, a less stringent goal of a systolic pressure between 130 and 139 mm "
                   "Hg is acceptable.", BP)
    assert rows[0][4] == ["frailty"]


def test_a_diagnosis_moved_from_one_reading_to_another():
    rows = _frames("What's new in the 2024 edition: the League has lowered the blood pressure at which hypertension is "
                   "diagnosed from 140/90 to 130/80 mm Hg (class I; LOE B-NR).", BP)
    assert rows == [("recommend", None, None, [], [], None, None, ["hypertension >=130/80 mm Hg"], [])]
    league = _doc("fh-htn", BP["topic"], "What's new in the 2024 edition: the League has lowered the blood pressure at "
                  "which hypertension is diagnosed from 140/90 to 130/80 mm Hg (class I; LOE B-NR).")
    panel = _doc("dv-htn", BP["topic"], "Hypertension should be diagnosed when office blood pressure is 140/90 mm Hg "
                 "or higher.")
    assert ("threshold", ("dv-htn", "fh-htn")) in conflict_facets(league, panel)
