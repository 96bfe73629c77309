"""Frames for a consensus statement's options with a schedule it did not endorse ("colonoscopy at 10-year intervals and
FIT every year are both acceptable first-tier options; FIT every other year was not endorsed"), a relative's cancer "at
any age of diagnosis", "We don't suggest the test", "a repeat test can be offered at three-yearly intervals", a risk
equation that "overestimated observed risk by about 20%", "in the same age range" for the sentence before's ages, what
a statement leaves to other guidance or did not agree on, a statin "considered, taking into account ... the person's
wishes", a measure's numerator ", or, for members aged 30 to 64, high-risk HPV testing ...", and surveillance after
treatment "for a high-grade precancerous lesion" (``tools/frames/``: ``clauses.py``, ``clause_parts.py``,
``subgroups.py``, ``action_cues.py``, ``set_aside.py``, ``rules.py``, ``extract.py``)."""

from __future__ import annotations

from frame_fixtures import CERVICAL, CRC, PSA, STATIN, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import stop_age
from clinrag.tools.frames.extract import document_frames


def test_options_beside_a_schedule_not_endorsed_are_each_their_own():
    sentence = ("Statement 2: colonoscopy at 10-year intervals and FIT every year are both acceptable first-tier "
                "options; FIT every other year was not endorsed because programme sensitivity falls when the interval "
                "is lengthened (agreement 83%).")
    assert [(r[0], r[6], r[5]) for r in _frames(sentence, CRC)] == [
        ("suggest_or_consider", "colonoscopy", 120), ("suggest_or_consider", "FIT", 12),
        ("recommend_against", "FIT", 24)]
    panel = _doc("ab-crc", CRC["topic"], sentence)
    letter = _doc("cd-crc", CRC["topic"], "As long as you are in this age range, we will post you a new FIT kit every "
                  "other year.")
    assert ("interval", ("ab-crc", "cd-crc")) in conflict_facets(panel, letter)


def test_a_relative_diagnosed_at_any_age_against_one_diagnosed_before_60():
    rows = _frames("Members who have a first-degree relative with colorectal cancer or an advanced adenoma, at any age "
                   "of diagnosis, are eligible for colonoscopy once every 5 years beginning at age 40.", CRC)
    assert [(r[3], r[5]) for r in rows] == [(["relative's age at diagnosis: any", "family history"], 60)]
    plan = _doc("ef-crc", CRC["topic"], "Members who have a first-degree relative with colorectal cancer, at any age "
                "of diagnosis, are eligible for colonoscopy once every 5 years beginning at age 40.")
    group = _doc("gh-crc", CRC["topic"], "People with a first-degree relative diagnosed with colorectal cancer before "
                 "age 60 should start colonoscopy at age 40 and repeat it every 5 years.")
    assert ("eligibility", ("ef-crc", "gh-crc")) in conflict_facets(plan, group)


def test_we_do_not_suggest_the_test_is_advice_against_it():
    assert [(r[0], r[1]) for r in _frames("We don't suggest the test for men aged 70 or over who have no symptoms, "
                                          "because for most of them the harms outweigh the benefits.", PSA)] == [
        ("discourage", 70)]
    leaflet = _doc("ij-psa", PSA["topic"], "If you are a man aged 50 to 69 with no symptoms, you can choose to have "
                   "a PSA test, but talk it through with your family doctor first. We don't suggest the test for men "
                   "aged 70 or over who have no symptoms.")
    assert stop_age(document_frames(leaflet))[0] == 69
    # (a suggestion stays one)
    assert [r[0] for r in _frames("We suggest the test for men aged 50 to 69.", PSA)] == ["suggest_or_consider"]


def test_a_repeat_test_that_can_be_offered_is_an_option():
    rows = _frames("Step 3: if the result is below the threshold, a repeat test can be offered at three-yearly "
                   "intervals for as long as the man remains eligible.", PSA)
    assert [(r[0], r[5]) for r in rows] == [("suggest_or_consider", 36)]


def test_how_far_a_risk_equation_is_off_is_no_threshold():
    assert [r[7] for r in _frames("Risk should be estimated with the pooled equations, which in validation cohorts "
                                  "overestimated observed risk by about 20%.", STATIN)] == [[]]
    # (a threshold stays one)
    assert [r[7] for r in _frames("Offer a statin when the estimated 10-year risk is 20% or more.", STATIN)] == [
        ["10-year CVD risk >=20 %"]]


def test_the_same_age_range_is_the_sentence_befores():
    statement = _doc("kl-statin", STATIN["topic"], "The Group continues to recommend a statin for adults aged 40 to 75 "
                     "years who have a 10-year risk of 10% or greater (grade B). For adults in the same age range with "
                     "at least one risk factor and a 10-year risk of 7.5% to less than 10%, clinicians may selectively "
                     "offer a statin (grade C).")
    assert [(f.action, f.population.age_min, f.population.age_max) for f in document_frames(statement)] == [
        ("recommend", 40, 75), ("individual_decision", 40, 75)]


def test_what_a_statement_leaves_to_others_or_did_not_agree_on_is_no_advice():
    assert _frames("Statin use is not addressed here for adults with LDL cholesterol of 190 mg/dL or higher, who are "
                   "covered by separate guidance.", STATIN) == []
    assert _frames("The panel did not reach consensus on whether CT colonography should be offered outside research "
                   "settings (agreement 62%).", CRC) == []


def test_a_statin_weighed_against_the_persons_wishes_is_their_decision():
    sentence = ("For people aged 85 or older, a statin may be considered, taking into account frailty, life "
                "expectancy and the person's wishes.")
    assert [(r[0], r[1]) for r in _frames(sentence, STATIN)] == [("individual_decision", 85)]
    guideline = _doc("mn-statin", STATIN["topic"], "Offer atorvastatin 20 mg to people aged 84 or younger with an "
                     "estimated 10-year risk of 10% or more (strong recommendation). " + sentence)
    assert stop_age(document_frames(guideline))[0] == 84


def test_a_numerator_that_counts_another_test_for_older_members():
    rows = _frames("Numerator: members in the denominator who had cervical cytology performed within the measurement "
                   "year or the two years before it (a three-year window), or, for members aged 30 to 64, high-risk "
                   "HPV testing, alone or with cytology, performed within the measurement year or the four years "
                   "before it (a five-year window).", CERVICAL)
    assert [(r[6], r[1], r[2], r[5]) for r in rows] == [("cytology", None, None, 36), ("hrHPV testing", 30, 64, 60)]


def test_surveillance_after_a_high_grade_lesion_is_for_those_treated():
    rows = _frames("People treated for a high-grade precancerous lesion should continue surveillance for at least 25 "
                   "years after treatment, even beyond age 65.", CERVICAL)
    assert [r[4] for r in rows] == [["treated for CIN2+"]]
    update = _doc("op-cerv", CERVICAL["topic"], "From age 25 through 65, primary HPV testing every 5 years is the "
                  "recommended strategy (grade A). People treated for a high-grade precancerous lesion should continue "
                  "surveillance for at least 25 years after treatment, even beyond age 65.")
    assert stop_age(document_frames(update))[0] == 65
