"""Frames for a leaflet's "we do not usually suggest the test once you are 75", result cut-offs that rise with age
("for men in their fifties ..., for men in their sixties the cut-off is ..., and from 70 ..."), a quality measure
"reflecting the Panel's endorsement of" a schedule, a pathway step that works out a risk for an age band and the step
after it that acts on "the 10-year risk", a lower threshold "considered ... but judged" against, a recommendation's
smoking history beside a weaker suggestion's, and "the time since quitting no longer affects eligibility"
(``tools/frames/``: ``action_cues.py``, ``populations.py``, ``quantities.py``, ``set_aside.py``, ``extract.py``,
``rules.py``, ``bands.py``, ``subgroups.py``, ``programme_cues.py``)."""

from __future__ import annotations

from frame_fixtures import BP, BREAST, CRC, LUNG, PSA, STATIN, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import criteria_map, start_age, stop_age
from clinrag.tools.frames.extract import document_frames


def test_a_leaflet_that_does_not_usually_suggest_the_test_from_an_age():
    rows = _frames("We do not usually suggest the test once you are 75 or older unless you have symptoms.", PSA)
    assert [r[:3] for r in rows] == [("discourage", 75, None)]
    assert [r[:3] for r in _frames("Our nurses do not normally offer screening to women aged 71 and over.",
                                   BREAST)] == [("discourage", 71, None)]
    leaflet = _doc("ul-psa", PSA["topic"], "If you are 50 or older, you can ask your GP for a PSA test, and it is your "
                   "choice whether to have one. We do not usually suggest the test once you are 75 or older.")
    frames = document_frames(leaflet)
    assert start_age(frames)[0] == 50 and stop_age(frames)[0] == 74


def test_result_cut_offs_that_rise_with_age():
    rows = _frames("As a guide, for men in their fifties a PSA of 3 ng/mL or more is taken as raised, for men in "
                   "their sixties the cut-off is 4 ng/mL, and from 70 it is 5 ng/mL.", PSA)
    assert [(r[0], r[1], r[2], r[7]) for r in rows] == [
        ("recommend", 50, 59, ["PSA >=3 ng/mL"]), ("recommend", 60, 69, ["PSA >=4 ng/mL"]),
        ("recommend", 70, None, ["PSA 5 ng/mL"])]
    banded = _doc("ra-psa", PSA["topic"], "For men in their fifties a PSA of 3 ng/mL or more is taken as raised, for "
                  "men in their sixties the cut-off is 4 ng/mL, and from 70 it is 5 ng/mL.")
    flat = _doc("fl-psa", PSA["topic"], "A PSA of 3.0 ng/mL or higher should prompt a repeat test and an MRI.")
    assert ("threshold", ("fl-psa", "ra-psa")) in conflict_facets(banded, flat)


def test_a_measure_that_reflects_an_endorsed_schedule():
    rows = _frames("This measure assesses the percentage of women aged 50 to 74 years who had a mammogram, reflecting "
                   "the Panel's endorsement of screening mammography every 2 years for average-risk women in that age "
                   "band.", BREAST)
    assert [(r[0], r[1], r[2], r[5]) for r in rows] == [("recommend", 50, 74, 24)]
    # (a reason that is evidence still names no schedule of the recommendation)
    assert [r[5] for r in _frames("FIT is now recommended every two years, reflecting programme data in which "
                                  "yearly FIT found no more cancers.", CRC)] == [24]
    measure = _doc("me-bcs", BREAST["topic"], "This measure assesses the percentage of women aged 50 to 74 years who "
                   "had a mammogram, reflecting the Panel's endorsement of screening mammography every 2 years for "
                   "average-risk women in that age band.")
    letter = _doc("le-bcs", BREAST["topic"], "We invite all women aged 50 to 74 for a mammogram at three-yearly "
                  "intervals.")
    assert ("interval", ("le-bcs", "me-bcs")) in conflict_facets(measure, letter)


def test_a_pathway_step_acts_on_the_risk_the_step_before_worked_out():
    pathway = _doc("pw-statin", STATIN["topic"], "Step 1: for adults aged 40 to 84 without established cardiovascular "
                   "disease, record a lipid profile and calculate the 10-year cardiovascular risk every 5 years. "
                   "Step 2: if the 10-year risk is 10% or more, offer atorvastatin 20 mg once daily. Step 3: for "
                   "people aged 85 and older, consider atorvastatin 20 mg.")
    frames = document_frames(pathway)
    offer = next(f for f in frames if f.action == "recommend")
    assert (offer.population.age_min, offer.population.age_max) == (40, 84)
    assert start_age(frames)[0] == 40
    # without the step that works out the risk for those ages, the offer names none
    bare = _doc("pb-statin", STATIN["topic"], "Step 1: record a lipid profile. Step 2: if the 10-year risk is 10% or "
                "more, offer atorvastatin 20 mg once daily.")
    assert [(f.population.age_min, f.population.age_max) for f in document_frames(bare)] == [(None, None)]


def test_a_lower_threshold_considered_but_judged_against_is_no_recommendation():
    assert _frames("The Society considered lowering the diagnostic threshold to 130/80 mm Hg, as some other societies "
                   "have done, but judged that doing so would label many people without clear benefit.", BP) == []
    update = _doc("sy-htn", BP["topic"], "Hypertension is diagnosed when clinic blood pressure is 140/90 mm Hg or "
                  "higher. The Society considered lowering the diagnostic threshold to 130/80 mm Hg but decided "
                  "against it. For most treated adults younger than 80, aim for a clinic blood pressure below 130/80 "
                  "mm Hg.")
    other = _doc("ot-htn", BP["topic"], "For treated adults, a blood pressure target of less than 130/80 mm Hg is "
                 "recommended.")
    assert not {f for f, _ in conflict_facets(update, other) if f == "target"}


def test_a_recommendations_smoking_history_is_the_documents():
    guideline = _doc("gl-lung", LUNG["topic"], "In adults aged 55 to 74 with a smoking history of 30 pack-years or "
                     "more who quit no more than 15 years ago, annual low-dose CT is recommended (class I). For "
                     "adults aged 50 to 54 with at least 20 pack-years and one additional risk factor, screening may "
                     "be considered (class IIb).")
    assert criteria_map(document_frames(guideline))["pack-years"][0] == ">= 30"
    pathway = _doc("pa-lung", LUNG["topic"], "Screen adults aged 50 to 80 years who have a smoking history of at least "
                   "20 pack-years and who quit within the past 15 years.")
    assert ("eligibility", ("gl-lung", "pa-lung")) in conflict_facets(guideline, pathway)


def test_the_time_since_quitting_no_longer_affects_eligibility():
    rows = _frames("The previous requirement that former smokers must have quit within the last 15 years has been "
                   "removed, so the time since quitting no longer affects eligibility.", LUNG)
    assert [(r[0], r[3]) for r in rows] == [
        ("recommend", ["years since quitting: any", "smoking status: current or former"])]
    policy = _doc("po-lung", LUNG["topic"], "Low-dose CT is covered annually for members aged 50 to 77 years with at "
                  "least 20 pack-years who currently smoke or formerly smoked. The time since quitting no longer "
                  "affects eligibility.")
    pathway = _doc("pa-lung", LUNG["topic"], "Screen adults aged 50 to 80 years who have a smoking history of at least "
                   "20 pack-years and who quit within the past 15 years.")
    assert criteria_map(document_frames(policy))["years since quitting"][0] == "any"
    assert ("eligibility", ("pa-lung", "po-lung")) in conflict_facets(policy, pathway)
