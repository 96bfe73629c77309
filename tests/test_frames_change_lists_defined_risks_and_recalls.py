"""Frames and conflicts for a risk written "one in ten", a panel that "agreed on" a goal, a goal an organization "no
longer endorses", an edition's list of changes, "that chance" after a sentence that works a risk out for some ages,
a higher risk defined in a sentence of its own, "expected survival of ten years or more", a urology assessment as
a referral step, a recall after "hrHPV is not detected", "it does not matter how long ago you stopped smoking", a
blood-pressure stage named after its reading, and a schedule for the tier below a PSA cut-off
(``tools/frames/quantities.py``, ``action_cues.py``, ``rules.py``, ``extract.py``, ``subgroups.py``, ``no_stance.py``,
``lexicon.py``, ``quantity_names.py``, ``schedules.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CERVICAL, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.extract import document_frames, extract_frames
from clinrag.tools.frames.quantities import quantities


def _values(qs) -> list[str]:
    return [f"{q.name} {q.text()}" for q in qs]


def test_a_risk_written_as_one_in_ten_in_words_is_ten_percent():
    thresholds, _ = quantities("If your doctor works out that your chance of a heart attack or stroke in the next ten "
                               "years is one in ten or higher, your doctor may suggest aspirin.")
    assert _values(thresholds) == ["10-year CVD risk >=10 %"]
    assert _values(quantities("your chance of a heart attack in the next ten years is 1 in 5 or higher")[0]) == [
        "10-year CVD risk >=20 %"]


def test_a_goal_a_panel_agreed_on_and_a_goal_no_longer_endorsed():
    agreed = extract_frames("For most non-pregnant adults with type 2 diabetes, the panel agreed on an A1C goal below "
                            "7.0% (53 mmol/mol).", doc_meta=A1C)
    assert [(f.action, _values(f.targets)) for f in agreed] == [("recommend", ["A1C <7 %", "A1C <53 mmol/mol"])]
    changed = extract_frames("What has changed: the Council no longer endorses a general goal below 7% and now advises "
                             "that most adults with type 2 diabetes aim for an A1C between 7% and 8%.", doc_meta=A1C)
    assert [(f.action, _values(f.targets)) for f in changed] == [("recommend_against", ["A1C <7 %"]),
                                                                 ("recommend", ["A1C 7-8 %"])]


def test_an_editions_list_of_changes_states_no_advice_of_its_own():
    """Its words of advice belong to no one item: "reasonable" is the new band's, "over 75" another item's. A list
    that says what is now advised, or moves a value "from 50 to 45" or "to a 10-year risk of 10%", still states it
    (that item only)."""
    listed = extract_frames("What is new in this edition: the treatment threshold has been raised to a 10-year risk of "
                            "10%, a band in which a statin is reasonable has been added below it, and the advice for "
                            "adults over 75 has been revised.", doc_meta=STATIN)
    assert [(f.action, f.population.age_min, _values(f.thresholds)) for f in listed] == [
        ("recommend", None, ["10-year CVD risk >=10 %"])]
    assert extract_frames("What is new in this edition: a band in which a statin is reasonable has been added, and the "
                          "advice for adults over 75 has been revised.", doc_meta=STATIN) == []
    moved = extract_frames("What's new: the starting age has been lowered from 55 to 50, and the recommended interval "
                           "has been lengthened from yearly to every two years.", doc_meta=PSA)
    assert [(f.action, f.population.age_min) for f in moved] == [("recommend", 50)]
    instead = extract_frames("What's new in this edition of our programme rules: invitations now begin at age "
                             "forty-five instead of fifty.", doc_meta={"topic": "breast-cancer-screening"})
    assert [f.population.age_min for f in instead] == [45]


def test_that_chance_is_the_risk_the_sentence_before_worked_out_for_its_ages():
    leaflet = _doc("mh-statin", STATIN["topic"], "If you are between 40 and 84 years old, your doctor or nurse can "
                   "work out your chance of having a heart attack or stroke over the next ten years. If that chance "
                   "is 20% or higher, your doctor will usually recommend that you take a statin.")
    [frame] = document_frames(leaflet)
    assert (frame.action, frame.population.age_min, frame.population.age_max) == ("recommend", 40, 84)
    assert _values(frame.thresholds) == ["10-year CVD risk >=20 %"]
    statement = _doc("il-statin", STATIN["topic"], "For primary prevention in adults aged 40 through 75, a statin is "
                     "recommended when the estimated 10-year cardiovascular risk is 10% or greater (class I).")
    assert {("threshold", ("il-statin", "mh-statin")), ("stop_age", ("il-statin", "mh-statin"))} <= _facets(
        leaflet, statement)


def test_a_higher_risk_defined_apart_is_the_threshold_of_the_recommendation_that_names_it():
    panel = _doc("yh-asa", ASPIRIN["topic"], "Low-dose aspirin might be considered for select adults aged 40 to 70 "
                 "years who are at higher cardiovascular risk and not at increased risk of bleeding. For this purpose, "
                 "the panel defines higher risk as an estimated 10-year atherosclerotic cardiovascular disease risk of "
                 "20 percent or more.")
    frames = document_frames(panel)
    assert [(f.action, f.population.age_min, _values(f.thresholds)) for f in frames] == [
        ("suggest_or_consider", 40, ["10-year CVD risk >=20 %"])]
    other = _doc("tv-asa", ASPIRIN["topic"], "Low-dose aspirin may be considered for adults aged 40 to 59 years whose "
                 "10-year cardiovascular risk is 10% or higher and who are not at increased risk of bleeding.")
    assert ("threshold", ("tv-asa", "yh-asa")) in _facets(panel, other)
    # a definition that states no advice at all is read too
    qb = _doc("qb-asa", ASPIRIN["topic"], "Low-dose aspirin might be considered among select adults 40 to 70 years of "
              "age who are at higher cardiovascular risk but not at increased bleeding risk (Class IIb; LOE A). Higher "
              "risk is generally taken to mean a 10-year risk of 7.5% or more together with additional risk-enhancing "
              "factors.")
    assert [_values(f.thresholds) for f in document_frames(qb)] == [["10-year CVD risk >=7.5 %"]]


def test_expected_survival_and_a_urology_assessment_in_a_pathway():
    pathway = _doc("jm-psa", PSA["topic"], "Step 1 (eligibility check): men aged fifty through sixty-nine with no "
                   "urinary symptoms and an expected survival of ten years or more. Step 2: Hold a shared decision "
                   "discussion and document the outcome in the record. Step 3: Arrange urology assessment, with "
                   "prostate MRI first, at a PSA of 3.0 ng/mL or higher.")
    statement = _doc("kn-psa", PSA["topic"], "For men aged 50 to 69, the decision to undergo periodic PSA-based "
                     "screening should be an individual one (grade C). Screening should be discussed only with men "
                     "expected to live at least another 10 years.")
    assert "life expectancy >= 10 years" in document_frames(pathway)[0].population.criteria
    facets = _facets(pathway, statement)
    assert ("action", ("jm-psa", "kn-psa")) not in facets  # the urology step is what to do at a result
    assert ("eligibility", ("jm-psa", "kn-psa")) not in facets  # 10 years in both


def test_a_recall_after_hrhpv_is_not_detected_is_the_hpv_schedule():
    pathway = _doc("py-cx", CERVICAL["topic"], "Step 3: If hrHPV is not detected, set the recall at 3-year intervals "
                   "for patients aged 25 to 49 and at 5-year intervals for patients aged 50 to 64.")
    schedules = [(f.test, f.interval_months.min) for f in document_frames(pathway)]
    assert schedules == [("hrHPV testing", 36), ("hrHPV testing", 60)]
    statement = _doc("ow-cx", CERVICAL["topic"], "The Forum now recommends that people with a cervix be screened with "
                     "a primary high-risk HPV (hrHPV) test every 5 years from age 25 through age 65.")
    assert ("interval", ("ow-cx", "py-cx")) in _facets(pathway, statement)


def test_how_long_ago_you_stopped_smoking_does_not_matter():
    sentence = ("It does not matter how long ago you stopped smoking: people who quit more than 15 years ago can still "
                "choose to be screened.")
    [frame] = extract_frames(sentence, doc_meta=LUNG)
    assert (frame.action, frame.population.criteria) == ("suggest_or_consider", ["years since quitting: any"])
    aid = _doc("zp-lung", LUNG["topic"], "Screening may be an option for you if you are aged 50 to 80 and have "
               "smoked 20 pack-years or more. " + sentence)
    statement = _doc("rt-lung", LUNG["topic"], "The Group recommends yearly low-dose CT screening for adults 50 "
                     "through 80 years of age who have smoked at least twenty pack-years and who still smoke or quit "
                     "within the past fifteen years (Grade B).")
    assert ("eligibility", ("rt-lung", "zp-lung")) in _facets(aid, statement)


def test_a_stage_named_after_its_reading_and_a_reading_that_orders_monitoring():
    [frame] = extract_frames("Hypertension is now defined as a blood pressure of 130/80 mm Hg or higher, with "
                             "130-139/80-89 mm Hg classed as stage 1 and 140/90 mm Hg or higher as stage 2.",
                             doc_meta=BP)
    assert _values(frame.thresholds) == ["hypertension >=130/80 mm Hg", "stage 1 hypertension 130/80-139/89 mm Hg",
                                         "stage 2 hypertension >=140/90 mm Hg"]
    [step] = extract_frames("Step 1: If clinic blood pressure is 140/90 mmHg or higher, order ambulatory blood "
                            "pressure monitoring (or home monitoring if ABPM is declined).", doc_meta=BP)
    assert _values(step.thresholds) == ["hypertension >=140/90 mm Hg"]
    guideline = _doc("xb-htn", BP["topic"], "Hypertension is now defined as a blood pressure of 130/80 mm Hg or "
                     "higher, with 130-139/80-89 mm Hg classed as stage 1 and 140/90 mm Hg or higher as stage 2.")
    pathway = _doc("qp-htn", BP["topic"], "Step 1: If clinic blood pressure is 140/90 mmHg or higher, order ambulatory "
                   "blood pressure monitoring.")
    assert ("threshold", ("qp-htn", "xb-htn")) in _facets(guideline, pathway)


def test_a_schedule_for_the_tier_below_a_psa_cut_off_is_one_tier_of_a_tiered_schedule():
    """"every two years ... when the PSA is below 2.5 ng/mL" is the lower tier of "every two years if the result is
    under 2.5 ng/mL and yearly if it is 2.5 ng/mL or above": the same schedule. A cut-off that changes the interval
    ("may be extended to four years when the PSA is below 1 ng/mL") leaves the two years as the schedule above it."""
    pathway = _doc("jm-psa", PSA["topic"], "For men who choose testing, repeat the PSA every two years if the result "
                   "is under 2.5 ng/mL and yearly if it is 2.5 ng/mL or above.")
    tier = _doc("kn-psa", PSA["topic"], "For men who choose screening, repeating the test every two years is "
                "reasonable when the PSA is below 2.5 ng/mL.")
    assert ("interval", ("jm-psa", "kn-psa")) not in _facets(pathway, tier)
    extended = _doc("vr-psa", PSA["topic"], "Men who choose screening should be retested every two years; the "
                    "interval may be extended to four years when the PSA is below 1 ng/mL.")
    yearly = _doc("ab-psa", PSA["topic"], "For men who choose screening, a PSA test every year is reasonable.")
    assert ("interval", ("ab-psa", "vr-psa")) in _facets(extended, yearly)
