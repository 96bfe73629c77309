"""Frames for a measure's look-backs after each test's own name ("a multitarget stool DNA test within the past 3
years; ... or a colonoscopy within the past 10 years"), a letter's "we will contact you ... to arrange a
colonoscopy" at a result, retest intervals set by result tiers (no referral threshold), a leaflet's "most GPs will
offer another test every two years" and "you can take part if ...", an interval that "keeps most of the benefit of
annual testing", a diagnostic threshold and its home-reading threshold moved "from 140/90 to 130/80", how young a
relative was at diagnosis, and a question about average-risk people that also asks about family history
(``tools/frames/``: ``intervals.py``, ``action_cues.py``, ``bands.py``, ``conflicts.py``, ``programme_cues.py``,
``set_aside.py``, ``quantities.py``, ``lexicon.py``, ``subgroups.py``; ``clinrag/question/understanding.py``)."""

from __future__ import annotations

from frame_fixtures import BP, CRC, LUNG, PSA, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.question.understanding import asked_average_risk
from clinrag.tools.frames.bands import criteria_map
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames


def test_a_measures_look_back_belongs_to_the_test_it_follows():
    rows = _frames("Numerator: patients with any of the following: a fecal immunochemical test (FIT) during the "
                   "measurement year; a multitarget stool DNA test within the past 3 years; flexible sigmoidoscopy "
                   "within the past 5 years; or a colonoscopy within the past 10 years.", CRC)
    assert sorted((r[6], r[5]) for r in rows) == [
        ("FIT", 12), ("colonoscopy", 120), ("flexible sigmoidoscopy", 60), ("mt-sDNA", 36)]
    measure = _doc("lq-crc", CRC["topic"], "Numerator: patients with a FIT during the measurement year; a multitarget "
                   "stool DNA test within the past 3 years; or a colonoscopy within the past 10 years.")
    guideline = _doc("gd-crc", CRC["topic"], "Either a FIT every year or colonoscopy every 10 years is recommended for "
                     "adults aged 45 to 75.")
    assert not {f for f, _ in conflict_facets(measure, guideline) if f == "interval"}


def test_a_letters_next_step_at_a_result():
    rows = _frames("If the amount found is 80 micrograms of haemoglobin per gram of faeces or more, we will contact "
                   "you within two weeks to arrange a colonoscopy.", CRC)
    assert [(r[0], r[6], r[7]) for r in rows] == [("recommend", "FIT", ["FIT haemoglobin >=80 µg/g"])]


def test_retest_tiers_are_no_referral_threshold():
    tiers = _doc("rt-psa", PSA["topic"], "A baseline PSA below 1 ng/mL indicates a low risk, and these men can be "
                 "retested every 5 years; men with a PSA of 1 to less than 3 ng/mL should be retested every 2 years. A "
                 "PSA of 3 ng/mL or higher should be followed by MRI.")
    referral = _doc("rf-psa", PSA["topic"], "A PSA of 3.0 ng/mL or higher should lead to multiparametric MRI.")
    assert not {f for f, _ in conflict_facets(tiers, referral) if f == "threshold"}
    other = _doc("ot-psa", PSA["topic"], "A PSA of 4.0 ng/mL or higher should lead to multiparametric MRI.")
    assert ("threshold", ("ot-psa", "rt-psa")) in conflict_facets(tiers, other)


def test_a_leaflets_gp_offer_and_who_can_take_part():
    rows = _frames("If your result is normal and you want to keep being tested, most GPs will offer another test "
                   "every two years.", PSA)
    assert [(r[0], r[5]) for r in rows] == [("recommend", 24)]
    rows = _frames("You can take part if you are aged between 55 and 80 and you have smoked for 20 pack-years or "
                   "more.", LUNG)
    assert [r[:4] for r in rows] == [("recommend", 55, 80, ["pack-years >= 20"])]


def test_an_interval_that_keeps_the_benefit_of_another():
    rows = _frames("Men who choose screening should be tested every two years, which keeps most of the benefit of "
                   "annual testing while reducing false-positive results.", PSA)
    assert [r[5] for r in rows] == [24] and rows[0][0] == "individual_decision"


def test_diagnostic_thresholds_moved_from_one_reading_to_another():
    rows = _frames("What's new: the Association has lowered the clinic threshold for diagnosing hypertension from "
                   "140/90 to 130/80 mm Hg, and the threshold for confirming it with home monitoring from 135/85 to "
                   "130/80 mm Hg (class I).", BP)
    assert [(r[0], r[7]) for r in rows] == [
        ("recommend", ["hypertension >=130/80 mm Hg", "hypertension (home) >=130/80 mm Hg"])]
    older = _doc("bh-htn-2017", BP["topic"], "Hypertension should be diagnosed when clinic readings are 140/90 mm Hg "
                 "or higher (class I).", status="superseded", issued="2017-01-01")
    newer = _doc("bh-htn-2024", BP["topic"], "What's new: the Association has lowered the clinic threshold for "
                 "diagnosing hypertension from 140/90 to 130/80 mm Hg (class I).", issued="2024-01-01")
    frames = [f for d in (older, newer) for f in document_frames(d)]
    changes = find_conflicts(frames, {"bh-htn-2017": "2024-01-01"})
    assert [(c.kind, c.facet, [v.value for v in c.values]) for c in changes] == [
        ("change", "threshold", ["hypertension >=140/90 mm Hg", "hypertension >=130/80 mm Hg"])]


def test_how_young_a_relative_was_at_diagnosis():
    rows = _frames("People with a first-degree relative diagnosed with colorectal cancer before age 60 should have "
                   "colonoscopy every 5 years from age 40.", CRC)
    assert rows[0][3] == ["relative's age at diagnosis < 60", "family history"]
    policy = _doc("po-crc", CRC["topic"], "Members with a first-degree relative diagnosed with colorectal cancer or an "
                  "advanced adenoma at any age are eligible for colonoscopy every 5 years beginning at 40.")
    guideline = _doc("gu-crc", CRC["topic"], "People with a first-degree relative diagnosed with colorectal cancer "
                     "before age 60 should have colonoscopy every 5 years from age 40.")
    assert criteria_map(document_frames(policy))["relative's age at diagnosis"][0] == "any"
    assert ("eligibility", ("gu-crc", "po-crc")) in conflict_facets(policy, guideline)


def test_a_question_about_average_risk_and_family_history_asks_about_both():
    assert asked_average_risk("At what age should average-risk adults start colorectal screening?")
    assert not asked_average_risk("At what age should average-risk adults start colorectal screening, and which "
                                  "family history qualifies someone for earlier colonoscopy?")
