"""Frames for coverage "only when ... has not been adequately screened", "should not be offered as population screening,
but ...", a PSA that "is usually a reason ... to refer", "you can ask about the test from the age of 45", a question
about people at average risk, "you will not need another test for 5 years", a programme's "are offered a repeat scan
every two years" and "A low-dose CT scan is offered when ...", and "Pack-year cut-offs are not used"
(``tools/frames/subgroups.py``, ``rules.py``, ``action_cues.py``, ``bands.py``, ``conflicts.py``;
``clinrag/question/understanding.py``)."""

from __future__ import annotations

from frame_fixtures import CERVICAL, CRC, LUNG, PSA
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.question.understanding import asked_average_risk
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames


def test_coverage_for_the_inadequately_screened_is_a_subgroup():
    rows = _frames("For members aged 76 to 85, screening is covered only when the ordering clinician documents that "
                   "the member is in good health and has not been adequately screened before.", CRC)
    assert [(r[1], r[2], r[4]) for r in rows] == [(76, 85, ["inadequate prior screening"])]


def test_not_as_population_screening_but_for_those_who_ask():
    rows = _frames("The panel agreed that PSA testing should not be offered as population screening, but that "
                   "well-informed men aged 50 to 74 years with a life expectancy of at least 10 years who request it "
                   "after shared decision-making should be tested.", PSA)
    assert [r[:4] for r in rows] == [("recommend", 50, 74, ["life expectancy >= 10 years"])]


def test_a_reason_to_refer_and_asking_about_the_test():
    assert _frames("A PSA level of 4 ng/mL or more is usually a reason for your GP to refer you to a hospital "
                   "specialist.", PSA) == [("recommend", None, None, [], [], None, None, ["PSA >=4 ng/mL"], [])]
    assert _frames("If you are Black, or your father or brother had prostate cancer, your risk is higher and you can "
                   "ask about the test from the age of 45.", PSA)[0][:4] == (
        "individual_decision", 45, None, ["Black ancestry", "family history"])


def test_a_question_about_average_risk_leaves_the_higher_risk_groups_out():
    question = "Do TCAS, HRCC and KFPC agree on the age from which men at average risk can have PSA testing?"
    assert asked_average_risk(question) and not asked_average_risk("When should Black men start PSA testing?")
    council = _doc("tc-psa", PSA["topic"], "For men aged 50 to 69 years, PSA-based screening should be an individual "
                   "decision (grade C). Men of Black African ancestry should be offered the discussion from age 40.")
    leaflet = _doc("kf-psa", PSA["topic"], "If you are 50 or over, you can decide together with your GP whether to "
                   "have a PSA test. If you are Black, your risk is higher and you can ask about the test from the age "
                   "of 45.")
    frames = [f for d in (council, leaflet) for f in document_frames(d)]
    assert "start_age" in {c.facet for c in find_conflicts(frames)}  # 40 against 45 for Black men
    assert "start_age" not in {c.facet for c in find_conflicts(frames, average_risk=True)}


def test_the_wait_until_the_next_test_and_a_programmes_offers():
    assert _frames("If no HPV is found, you will not need another test for 5 years, whatever your age.", CERVICAL) == [
        ("recommend", None, None, [], [], 60, "hrHPV testing", [], [])]
    # (a wait named without its length states no schedule)
    assert _frames("What's new in this edition: your sample is now tested first for high-risk HPV, and if no HPV is "
                   "found you will not need another test for longer than before.", CERVICAL) == []
    # (nor does a share of people who are offered a scan)
    assert _frames("About one in four people who come to a check are offered a scan, and most scans find nothing that "
                   "needs treatment.", LUNG) == []
    repeat = _frames("Participants whose first scan shows no concerning findings are offered a repeat scan every two "
                     "years while they remain under 75.", LUNG)[0]
    assert (repeat[0], repeat[2], repeat[5]) == ("recommend", 74, 24)
    offered = _frames("A low-dose CT scan is offered when the person's 6-year risk of lung cancer is 1.51% or higher "
                      "on the PLCOm2012 model.", LUNG)
    assert offered == [("recommend", None, None, [], [], None, None, ["6-year risk >=1.51 %"], [])]
    # (a recommendation that a scan "may be offered" stays a suggestion)
    assert _frames("A low-dose CT scan may be offered to adults aged 50 to 80.", LUNG)[0][0] == "suggest_or_consider"


def test_pack_year_cut_offs_not_used():
    assert _frames("Pack-year cut-offs are not used on their own, because in our pilot they would have missed about a "
                   "third of the cancers.", LUNG)[0][3] == ["pack-years: any"]



def test_a_general_goal_gives_way_to_a_banded_one_only_within_its_band():
    from frame_fixtures import BP, conflict_facets

    # a general goal beside one for 65 and older is compared with a measure's goal for 18 to 85 (under 65 too)
    academy = _doc("yc-bp", BP["topic"], "For adults with confirmed hypertension and a 10-year cardiovascular risk of "
                   "10% or higher, drug therapy is recommended to reach a target of less than 130/80 mm Hg (class I; "
                   "LOE B-R). The same goal of below 130/80 is reasonable for community-dwelling adults aged 65 and "
                   "older who are ambulatory (class IIa; LOE B-R).", population="adults")
    measure = _doc("sk-bp", BP["topic"], "Quality measure CBP-3 assesses the percentage of members aged 18 to 85 years "
                   "with a diagnosis of hypertension whose most recent blood pressure during the measurement year was "
                   "adequately controlled, defined as below 140/90 mm Hg.",
                   population="Health-plan members aged 18 to 85 years with a diagnosis of hypertension.")
    frames = [f for d in (academy, measure) for f in document_frames(d)]
    under_65 = find_conflicts(frames, ages=(None, 64), narrowed=frozenset({"action", "target"}))
    assert [c.pairs for c in under_65 if c.facet == "target"] == [[("sk-bp", "yc-bp")]]
    # a measure's general goal beside its own goal for 80 to 85 gives way to it against a goal for 80 and over
    quality = _doc("ph-bp", BP["topic"], "Numerator: patients whose most recent blood pressure in the measurement "
                   "year was adequately controlled, meaning a systolic reading below 140 mm Hg and a diastolic "
                   "reading below 90 mm Hg; for patients aged 80 to 85, a reading below 150/90 mm Hg also counts as "
                   "controlled.",
                   population="adults aged 18 to 85 with diagnosed hypertension")
    pathway = _doc("rp-bp", BP["topic"], "Step 4: aim for a clinic blood pressure below 140/90 mmHg in people under "
                   "80, or below 150/90 mmHg in those aged 80 and over.")
    assert ("target", ("ph-bp", "rp-bp")) not in conflict_facets(quality, pathway)
