"""Frames and conflicts for an insurer's "covered frequencies", "until you turn 75", a birthday in words, "Step 1
(eligibility check):", a discussion about starting that is reasonable, lowering "glycated haemoglobin (A1C)" to a
goal, a recheck "once at target", and where a quality measure's count starts (``tools/frames/action_cues.py``,
``ages.py``, ``numbers.py``, ``no_stance.py``, ``quantities.py``, ``schedules.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BREAST, CERVICAL, CRC, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.ages import age_bounds
from clinrag.tools.frames.extract import extract_frames
from clinrag.tools.frames.numbers import tens_as_digits


def test_an_insurers_covered_frequencies():
    policy = _doc("ha-crc", CRC["topic"], "Screening is covered without cost sharing for members aged 45 through 75. "
                  "Covered frequencies are one fecal immunochemical test (FIT) per 12 months, one multitarget stool "
                  "DNA test every 3 years, and one screening colonoscopy every 10 years.")
    guideline = _doc("da-crc", CRC["topic"], "The panel recommends that adults at average risk start colorectal cancer "
                     "screening at 45 years of age and continue through age 75. Acceptable strategies are FIT every "
                     "other year or colonoscopy at 10-year intervals.")
    assert ("FIT", 12) in [(f.test, f.interval_months.min) for f in extract_frames(
        "Covered frequencies are one fecal immunochemical test (FIT) per 12 months, and one screening colonoscopy "
        "every 10 years.", doc_meta=CRC)]
    assert _facets(policy, guideline) == {("interval", ("da-crc", "ha-crc"))}


def test_until_you_turn_an_age_ends_the_year_before():
    """"we will send you another kit every two years until you turn 75" screens to 74, as "50 to 74" does."""
    assert age_bounds("we will send you another kit every two years until you turn 75") == (None, 74)
    assert age_bounds("From your 50th birthday until you turn 70") == (50, 69)
    old = {**_doc("cp-2017", CRC["topic"], "Step 1 (eligibility check): confirm that the patient is aged sixty to "
                  "seventy-four. Step 2: issue a FIT kit every two years."), "status": "superseded",
           "superseded_by": "cp-2022"}
    new = {**_doc("cp-2022", CRC["topic"], "Step 1 (eligibility check): the patient is 50 to 74 years old. Step 2: "
                  "post the invitation letter: 'we will send you another kit every two years until you turn 75.'"),
           "issued": "2024-01-01"}
    assert _summary("Step 1 (eligibility check): the patient is 50 to 74 years old.", CRC) == [
        ("recommend", None, 50, 74, None)]
    assert {facet for facet, _ in _facets(old, new)} == {"start_age"}


def test_a_birthday_written_in_words():
    assert tens_as_digits("from her fiftieth birthday up to her seventy-first, before your twenty-fifth") == (
        "from her 50th birthday up to her 71st, before your 25th")
    assert tens_as_digits("her eighteenth birthday") == "her 18th birthday"
    assert _summary("The programme invites every woman for a mammogram once every three years, from her fiftieth "
                    "birthday up to and including age 71.", BREAST) == [("recommend", None, 50, 71, 36)]


def test_a_discussion_about_starting_is_an_individual_decision():
    """A new edition's "a clinician-patient discussion about starting a statin is reasonable" after 75 changed the
    earlier "insufficient evidence" there; it sets no stop age of its own."""
    assert [f.action for f in extract_frames("In adults older than 75, a clinician-patient discussion about starting a "
                                             "statin is reasonable (Class IIb; LOE C-LD).", doc_meta=STATIN)] == [
        "individual_decision"]
    old = {**_doc("bc-2014", STATIN["topic"], "Statin therapy is recommended for adults aged 40 to 75 years whose "
                  "10-year risk is 10% or higher. The evidence is insufficient to recommend for or against starting a "
                  "statin in adults older than 75."), "status": "superseded", "superseded_by": "bc-2022"}
    new = {**_doc("bc-2022", STATIN["topic"], "For adults 40 to 75 years of age, a statin is recommended when the "
                  "10-year risk is 10% or greater. In adults older than 75, a clinician-patient discussion about "
                  "starting a statin is reasonable."), "issued": "2024-01-01"}
    assert {facet for facet, _ in _facets(old, new)} == {"action"}


def test_lowering_a1c_to_a_goal_and_a_recheck_once_at_target():
    assert [[(q.name, q.op, q.value) for q in f.targets] for f in extract_frames(
        "For most adults, the Association recommends lowering glycated haemoglobin (A1C) to below 7.0% (53 mmol/mol).",
        doc_meta=A1C)] == [[("A1C", "<", "7"), ("A1C", "<", "53")]]
    order_set = _doc("mr-a1c", A1C["topic"], "Step 3: once at target, repeat HbA1c every six months.")
    guideline = _doc("ke-a1c", A1C["topic"], "Check A1C every 6 months once stable and every 3 months after any change "
                     "in treatment.")
    other = _doc("ot-a1c", A1C["topic"], "Check A1C every 12 months.")
    assert "interval" not in {facet for facet, _ in _facets(order_set, guideline)}
    assert ("interval", ("mr-a1c", "ot-a1c")) in _facets(order_set, other)


def test_where_a_quality_measure_starts_counting_is_not_where_screening_starts():
    """"The denominator begins at age 24 because screening starts at 21": the measure screens from 21, as an insurer
    covering cytology from 21 does."""
    assert age_bounds("The denominator begins at age 24 because screening starts at 21 and a full three-year "
                      "look-back is needed.") == (21, None)
    measure = _doc("wc-cx", CERVICAL["topic"], "Denominator: women who are 24 to 64 years old at the end of the "
                   "measurement year. The denominator begins at age 24 because screening starts at 21 and a full "
                   "three-year look-back is needed.")
    policy = _doc("rh-cx", CERVICAL["topic"], "Rathlin Health Plan considers cervical cytology medically necessary at "
                  "3-year intervals for members aged 21 through 29. Routine screening of members younger than 21 is "
                  "not medically necessary.")
    assert "start_age" not in {facet for facet, _ in _facets(measure, policy)}


def test_round_24_wordings():
    """A decision left to health and preference after an I statement, "no longer an exclusion", "classed as high",
    a category named for an earlier part, A1C thresholds in two units, the wait until the next test, a leaflet's "will
    take a ... test", men who choose to be tested, a 10-year risk named just before a cut window, ranges written to one
    more decimal, and a test named as not yet available."""
    from frame_fixtures import BP, CERVICAL, LUNG, PSA

    older = extract_frames("For women 75 or older, the evidence remains insufficient to recommend for or against "
                           "screening (I statement), and decisions should take account of health and personal "
                           "preference.", doc_meta=BREAST)
    assert [f.action for f in older] == ["insufficient_evidence", "individual_decision"]
    step = extract_frames("Step 2: Check smoking history; the patient is eligible if they have smoked at least twenty "
                          "pack-years, whether they still smoke or quit at any time in the past, and the number of "
                          "years since quitting is no longer an exclusion.", doc_meta=LUNG)
    assert step and "years since quitting: any" in step[0].population.criteria
    assert [[(q.name, q.value) for q in f.thresholds] for f in extract_frames(
        "Your blood pressure is classed as high if readings taken at the surgery are 140/90 mmHg or above.",
        doc_meta=BP)] == [[("hypertension", "140/90")]]
    assert [(q.name, q.value) for f in extract_frames(
        "Drug therapy should be started in adults with stage 1 hypertension whose 10-year cardiovascular risk is 10 % "
        "or more, and in every adult whose blood pressure is 140/90 mm Hg or more.", doc_meta=BP)
        for q in f.thresholds if q.unit == "mm Hg"] == [("blood pressure", "140/90")]
    a = _doc("gd-a1c", A1C["topic"], "Step 3: If A1C falls below 6.5% (48 mmol/mol), treatment should be reduced.")
    b = _doc("jm-a1c", A1C["topic"], "If your A1C drops below 6%, your doctor may consider lowering the dose of "
             "medicines that can cause low blood sugar.")
    assert _facets(a, b) == {("threshold", ("gd-a1c", "jm-a1c"))}
    assert _summary("From age 30 through age 65, you will be offered an HPV test, and if it is negative you will not "
                    "need another one for five years.", CERVICAL) == [("recommend", "hrHPV testing", 30, 65, 60)]
    assert _summary("If you are 21 to 29, your nurse or doctor will take a cytology (smear) test every 3 years.",
                    CERVICAL) == [("recommend", "cytology", 21, 29, 36)]
    assert _summary("Men who choose to be tested usually have the test repeated each year.", PSA) == [
        ("individual_decision", None, None, None, 12)]
    assert [q.name for f in extract_frames(
        "Atorvastatin 20 mg daily should be offered to adults aged 40 to 84 years whose 10-year cardiovascular risk, "
        "estimated with the regional risk tool, is 10% or more.", doc_meta=STATIN) for q in f.thresholds] == [
        "10-year CVD risk"]
    old = {**_doc("ql-2014", STATIN["topic"], "In the same group with a 10-year risk of 5% to less than 7.5%, "
                  "moderate-intensity statin therapy is reasonable."), "status": "superseded",
           "superseded_by": "ql-2022"}
    new = {**_doc("ql-2022", STATIN["topic"], "For those with a risk of 5 to 7.4 per cent, a statin may be "
                  "considered."), "issued": "2024-01-01"}
    assert "threshold" not in {facet for facet, _ in _facets(old, new)}
    assert [(f.test, f.interval_months.min) for f in extract_frames(
        "From 25 to 65 years, primary hrHPV testing every five years is the preferred strategy; where HPV testing is "
        "not yet available, cytology at 3-year intervals is acceptable.", doc_meta=CERVICAL)] == [
        ("hrHPV testing", 60), ("cytology", 36)]
    assert age_bounds("What's new: the denominator now begins at age 25 and ends at age 65.") == (None, None)
