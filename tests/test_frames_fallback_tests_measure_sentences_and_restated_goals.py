"""Frames for a FIT cut-off beside a FIT option of its own ("a fecal immunochemical test every 2 years or colonoscopy
every 10 years ..., using a FIT positivity threshold of 20 micrograms"), a leaflet's "you can still ask about the
test" at 70, a denominator written as a sentence ("the denominator is men ... who had a PSA screening test during the
measurement year"), an exclusion "which the programme treats as a raised PSA", a pathway's first step that estimates
the risk it then acts on, "who do not have established cardiovascular disease", a numerator written as a sentence, a
target "replaced by a target range of ...", a goal restated "which is the same as 7%", a definition beside a goal
("the definition of hypertension (...) and the general treatment goal of less than 130/80 mm Hg"), a new edition's
preferred test on a schedule of its own with the old one kept only as a fallback, and a lower limit written "above
190" or "190 or more" (``tools/frames/``: ``extract.py``, ``quantities.py``, ``action_cues.py``, ``intervals.py``,
``subgroups.py``, ``programme_cues.py``, ``set_aside.py``, ``rules.py``, ``versions.py``, ``value_comparison.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, CERVICAL, CRC, PSA, STATIN, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import start_age
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames


def test_a_fit_cut_off_beside_a_fit_option_of_its_own():
    rows = _frames("Clinicians should select a fecal immunochemical test every 2 years or colonoscopy every 10 years "
                   "as the screening test, using a FIT positivity threshold of 20 micrograms of haemoglobin per gram "
                   "of faeces.", CRC)
    assert sorted((r[6], r[5], tuple(r[7])) for r in rows) == [
        ("FIT", 24, ("FIT haemoglobin >=20 µg/g",)), ("colonoscopy", 120, ())]
    # (a cut-off alone still belongs to the FIT, whatever test it leads to)
    assert [r[6] for r in _frames("If your sample shows 80 micrograms of blood per gram of poo or more, we will offer "
                                  "you a colonoscopy.", CRC)] == ["FIT"]


def test_a_leaflet_that_lets_older_men_still_ask():
    rows = _frames("If you are 70 or older, you can still ask about the test, and your doctor will talk it through "
                   "with you.", PSA)
    assert [r[:3] for r in rows] == [("individual_decision", 70, None)]


def test_a_denominator_and_a_numerator_written_as_sentences():
    rows = _frames("Measure PCS-1: the denominator is men aged 55 to 69 years who had a PSA screening test during the "
                   "measurement year, and the numerator is those whose record documents a discussion.", PSA)
    assert [(r[1], r[2], r[5]) for r in rows] == [(55, 69, None)]
    rows = _frames("For the control measure, the numerator is members whose most recent HbA1c in the measurement year "
                   "is below 8.0% (64 mmol/mol), which the Network adopts as its glycemic goal.", A1C)
    assert [(r[0], r[8]) for r in rows] == [("recommend", ["A1C <8 %", "A1C <64 mmol/mol"])]


def test_an_exclusion_that_the_programme_treats_as_a_raised_result():
    rows = _frames("Exclusions are a prior diagnosis of prostate cancer and a PSA result of 4.0 ng/mL or higher, which "
                   "the programme treats as a raised PSA needing diagnostic follow-up.", PSA)
    assert [r[7] for r in rows] == [["PSA >=4 ng/mL"]]


def test_a_pathway_step_that_estimates_the_risk_it_then_acts_on():
    pathway = _doc("ao-statin", STATIN["topic"], "Step 1, identify: every 5 years, estimate 10-year cardiovascular "
                   "risk for adults aged 40 to 84 who do not have established cardiovascular disease. Step 2, "
                   "treat: if the 10-year risk is 10% or more, offer atorvastatin 20 mg once daily. Step 3: for "
                   "people aged 85 and over, consider atorvastatin 20 mg.")
    frames = document_frames(pathway)
    assert [(f.population.age_min, f.population.age_max, f.population.conditions) for f in frames][:2] == [
        (40, 84, []), (40, 84, [])]
    assert start_age(frames)[0] == 40


def test_a_goal_replaced_by_a_range_and_a_goal_restated():
    rows = _frames("For older adults living with frailty, the relaxed target of below 69 mmol/mol (8.5%) used in the "
                   "2019 edition has been replaced by a target range of 58 to 64 mmol/mol (7.5% to 8.0%).", A1C)
    assert [(r[0], r[8]) for r in rows] == [("recommend", ["A1C 58-64 mmol/mol", "A1C 7.5-8 %"])]
    rows = _frames("For most adults with type 2 diabetes, the goal is an HbA1c below 53 mmol/mol, which is the same as "
                   "7%.", A1C)
    assert [(r[7], r[8]) for r in rows] == [([], ["A1C <53 mmol/mol", "A1C <7 %"])]


def test_a_definition_beside_a_goal():
    rows = _frames("What is new: the definition of hypertension (an average office blood pressure of 130/80 mm Hg or "
                   "higher) and the general treatment goal of less than 130/80 mm Hg are unchanged.", BP)
    assert sorted((r[7], r[8]) for r in rows) == [
        ([], ["blood pressure <130/80 mm Hg"]), (["hypertension >=130/80 mm Hg"], [])]


def test_a_preferred_test_that_takes_the_old_schedules_place():
    old = _doc("cv-ccs-2016", CERVICAL["topic"], "Women aged 21 to 65 should undergo cervical cytology every three "
               "years.", status="superseded", issued="2016-01-01")
    new = _doc("cv-ccs-2022", CERVICAL["topic"], "Primary hrHPV testing every 5 years is the preferred strategy for "
               "women aged 25 to 65 (strong recommendation). Where hrHPV testing is not yet available, cytology every "
               "3 years remains acceptable (conditional recommendation).", issued="2022-01-01")
    frames = [f for d in (old, new) for f in document_frames(d)]
    replaced = {"cv-ccs-2016": "2022-01-01"}
    rows = {(c.kind, c.facet): [v.value for v in c.values] for c in find_conflicts(frames, replaced)}
    assert rows[("change", "interval")] == ["36 months (cytology)", "60 months (hrHPV testing)"]
    # a new edition that keeps recommending the old test beside the new one changes no schedule of it
    both = _doc("cv-ccs-2022", CERVICAL["topic"], "Primary hrHPV testing every 5 years or cytology every 3 years is "
                "recommended for women aged 25 to 65.", issued="2022-01-01")
    frames = [f for d in (old, both) for f in document_frames(d)]
    assert ("change", "interval") not in {(c.kind, c.facet) for c in find_conflicts(frames, replaced)}


def test_a_lower_limit_above_or_at_a_value_is_one_cut_off():
    above = _doc("ab-statin", STATIN["topic"], "Adults with an LDL-C level above 190 mg/dL should receive a "
                 "high-intensity statin.")
    at = _doc("at-statin", STATIN["topic"], "Adults with an LDL-C of 190 mg/dL or more should receive a high-intensity "
              "statin.")
    lower = _doc("lo-statin", STATIN["topic"], "Adults with an LDL-C of 160 mg/dL or more should receive a "
                 "high-intensity statin.")
    assert not {f for f, _ in conflict_facets(above, at) if f == "threshold"}
    assert ("threshold", ("ab-statin", "lo-statin")) in conflict_facets(above, lower)
