"""Frames for a coverage policy's "become eligible at 45" and "remains covered once every ten years", a frequency limit
beside a schedule left to choice, a result that "warrants referral", a question a panel left open, a numerator that
counts one test or another for other people, "we will only invite you again if one of your last three tests was
abnormal", a reading that "also counts as controlled", values and schedules in the evidence given as a reason, and
a question about most people (``tools/frames/ages.py``, ``programme_cues.py``, ``schedules.py``, ``action_cues.py``,
``rules.py``, ``clause_parts.py``, ``subgroups.py``, ``quantities.py``, ``set_aside.py``, ``examinations.py``,
``conflicts.py``; ``clinrag/question/understanding.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, CERVICAL, CRC, PSA
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.question.understanding import asked_most_people
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames


def test_a_coverage_policys_start_and_the_schedules_that_remain_covered():
    assert _frames("This revision lowers the age at which screening is covered: average-risk members become eligible "
                   "at 45.", CRC)[0][:3] == ("recommend", 45, None)
    rows = _frames("Screening colonoscopy remains covered once every ten years, the fecal immunochemical test once per "
                   "12-month period, and multitarget stool DNA testing once every three years.", CRC)
    assert [(r[0], r[5], r[6]) for r in rows] == [("recommend", 120, "colonoscopy"), ("recommend", 12, "FIT"),
                                                  ("recommend", 36, "mt-sDNA")]


def test_a_frequency_limit_within_a_schedule_left_to_choice_is_no_disagreement():
    policy = _doc("nm-breast", BREAST["topic"], "Screening mammography is covered once every 12 months for female "
                  "members aged 40 and older.")
    leaflet = _doc("sw-breast", BREAST["topic"], "From 55 you can switch to a mammogram every two years or keep having "
                   "one every year if you prefer.")
    biennial = _doc("pb-breast", BREAST["topic"], "The Board recommends screening mammography every 2 years for women "
                    "aged 40 to 74 (Grade B).")
    assert ("interval", ("nm-breast", "sw-breast")) not in _facets(policy, leaflet)
    # a limit is still compared with a schedule that does not include it
    assert ("interval", ("nm-breast", "pb-breast")) in _facets(policy, biennial)
    # and a recommendation of the same schedule is compared as before
    yearly = _doc("ny-breast", BREAST["topic"], "Women aged 40 and older should have a mammogram every year.")
    assert ("interval", ("ny-breast", "sw-breast")) in _facets(yearly, leaflet)


def test_a_result_that_warrants_referral_and_a_question_left_open():
    assert _frames("Where a man requests a test after being informed of the harms, a PSA value above 4.0 ng/mL "
                   "warrants referral to a urologist.", PSA)[0][7] == ["PSA >4 ng/mL"]
    assert _frames("The panel did not reach agreement on whether men at higher risk should start earlier and makes no "
                   "statement on this group.", PSA) == []
    # a panel that did not agree and still advises is read
    assert _frames("In adults aged 76 or older, the panel did not reach consensus and advises an individualised "
                   "decision.", CRC)[0][:3] == ("individual_decision", 76, None)


def test_a_numerator_that_counts_one_test_or_another_for_other_people():
    rows = _frames("Numerator: women in the denominator who had cervical cytology within the measurement year or the "
                   "two years before it, or women aged 30 to 64 who had hrHPV testing, alone or with cytology, within "
                   "the measurement year or the four years before it.", CERVICAL)
    assert [(r[1], r[2], r[5], r[6]) for r in rows] == [(None, None, 36, "cytology"), (30, 64, 60, "hrHPV testing")]


def test_a_letters_invitation_only_after_an_abnormal_test_is_for_a_group():
    assert _frames("After your 65th birthday we will only invite you again if one of your last three tests was "
                   "abnormal.", CERVICAL)[0][4] == ["inadequate prior screening"]


def test_a_reading_that_also_counts_as_controlled_is_a_goal_for_its_ages():
    rows = _frames("Numerator: patients whose most recent blood pressure in the measurement year was adequately "
                   "controlled, meaning a systolic reading below 140 mm Hg and a diastolic reading below 90 mm Hg; for "
                   "patients aged 80 to 85, a reading below 150/90 mm Hg also counts as controlled.", BP)
    assert [(r[1], r[2], r[8]) for r in rows] == [(None, None, ["blood pressure <140/90 mm Hg"]),
                                                  (80, 85, ["blood pressure <150/90 mm Hg"])]


def test_values_and_schedules_in_the_evidence_given_as_a_reason_are_not_the_recommendations():
    rows = _frames("Colonoscopy remains a ten-yearly test; FIT, by contrast, is now recommended every two years rather "
                   "than annually, reflecting programme data in which biennial FIT at a cut-off of 20 micrograms of "
                   "haemoglobin per gram of faeces detected as many cancers as yearly testing.", CRC)
    assert [(r[5], r[6], r[7]) for r in rows] == [(120, "colonoscopy", []), (24, "FIT", [])]


def test_a_question_about_most_people_does_not_compare_the_goals_of_groups_named_by_a_condition():
    assert asked_most_people("Do ADPC, BEAS and CPCP agree on the A1C target for most adults with type 2 diabetes?")
    assert not asked_most_people("Do IGCD and BDPP agree on the HbA1c target for frail older adults?")
    society = _doc("be-a1c", A1C["topic"], "For most nonpregnant adults, the Society recommends an HbA1c target below "
                   "53 mmol/mol (Grade A). A target below 64 mmol/mol is appropriate for older adults with frailty "
                   "(Grade B).")
    pathway = _doc("cp-a1c", A1C["topic"], "Step 2: Agree an individual HbA1c target with the patient; for most adults "
                   "this is below 53 mmol/mol, and below 58 mmol/mol for those with frailty or at risk of falls.")
    frames = document_frames(society) + document_frames(pathway)
    assert "target" in {c.facet for c in find_conflicts(frames)}  # the frailty goals differ
    assert "target" not in {c.facet for c in find_conflicts(frames, most_people=True)}
