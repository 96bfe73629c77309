"""Typed conflicts between documents' frames: which bands, groups, values and stop ages are compared
(``tools/frames/conflicts.py``, ``bands.py``); the corpus-level cases are in test_frames.py."""

from __future__ import annotations

from clinrag.tools.frames.bands import NO_UPPER_LIMIT, stop_age
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames


def _doc(doc_id: str, org: str, topic: str, text: str, population: str | None = None) -> dict:
    return {"doc_id": doc_id, "org": org, "issued": "2023-01-01", "status": "current", "topic": topic,
            "population": population, "text": text}


def _versions(topic: str, old: tuple[str, str], new: tuple[str, str]) -> tuple[dict, dict]:
    """One organization's superseded version and its successor issued 2024-01-01, each given as (doc_id, text)."""
    org = old[0][0].upper()
    return ({**_doc(old[0], org, topic, old[1]), "status": "superseded", "superseded_by": new[0]},
            {**_doc(new[0], org, topic, new[1]), "issued": "2024-01-01"})


def _version_conflicts(old: dict, new: dict) -> list:
    """Typed conflicts between two versions, the older replaced on the day the newer was issued."""
    frames = [f for d in (old, new) for f in document_frames(d)]
    return find_conflicts(frames, replaced_on={old["doc_id"]: new["issued"]})


def _facets(*docs: dict) -> set[tuple[str, tuple]]:
    frames = [f for d in docs for f in document_frames(d)]
    return {(c.facet, tuple(p)) for c in find_conflicts(frames) for p in c.pairs}


def test_a_band_advised_against_below_an_age_reaches_down_to_birth():
    """"Not recommended before age 25" covers 21 to 24, where another organization recommends cytology."""
    topic = "cervical-cancer-screening"
    a = _doc("a", "A", topic, "Cytology every three years is recommended from age 21 through age 29 (grade A).")
    b = _doc("b", "B", topic, "Screening should begin at age 25. Screening before age 25 is not recommended.")
    assert ("action", ("a", "b")) in _facets(a, b)


def test_a_goal_in_two_units_agrees_with_the_same_goal_in_one():
    topic = "diabetes-glycemic-targets"
    a = _doc("a", "A", topic, "Most adults with type 2 diabetes should aim for an A1C below 7%.")
    b = _doc("b", "B", topic, "For most adults with type 2 diabetes the goal is an HbA1c below 53 mmol/mol (7.0%).")
    assert _facets(a, b) == set()
    c = _doc("c", "C", topic, "The College advises aiming for an HbA1c of 7% to 8% in most adults with type 2 "
                              "diabetes.")
    assert ("target", ("a", "c")) in _facets(a, c) and ("target", ("b", "c")) in _facets(b, c)


def test_risk_thresholds_are_compared_between_a_suggestion_and_an_individual_decision():
    topic = "aspirin-primary-prevention"
    a = _doc("a", "A", topic, "Low-dose aspirin may be considered in adults aged 40 to 70 whose 10-year "
                              "cardiovascular risk is 15% or greater (Class IIb).")
    b = _doc("b", "B", topic, "For adults aged 40 to 59 whose 10-year cardiovascular risk is 10% or higher, the "
                              "decision to start low-dose aspirin should be individualized (Grade C).")
    assert ("threshold", ("a", "b")) in _facets(a, b)


def test_a_higher_risk_group_does_not_set_the_start_age():
    topic = "prostate-cancer-screening"
    a = _doc("a", "A", topic, "For men 55 through 69, PSA-based screening should be an individual choice (Grade C). "
                              "For men of Black ancestry, the same individual decision can be discussed from age 45.")
    b = _doc("b", "B", topic, "If you are at average risk, talk with your doctor about whether to have a PSA test "
                              "from the age of 45.")
    assert ("start_age", ("a", "b")) in _facets(a, b)


def test_secondary_prevention_advice_is_not_compared_with_primary_prevention():
    topic = "aspirin-primary-prevention"
    a = _doc("a", "A", topic, "For adults aged 40 to 59, whether to start low-dose aspirin is an individual "
                              "decision. Patients who take aspirin after a heart attack should keep taking it.")
    b = _doc("b", "B", topic, "For adults in their forties and fifties, the decision to begin low-dose aspirin "
                              "should be individualized (Grade C).")
    assert _facets(a, b) == set()
    [f] = extract_frames("In people without established cardiovascular disease, aspirin is not recommended.")
    assert f.population.conditions == []


def test_screening_that_should_not_stop_at_a_set_age_has_no_upper_age_limit():
    doc = _doc("a", "A", "breast-cancer-screening", "Women at average risk should have a mammogram every year "
               "starting at age 40. Screening should not stop at a set age; it should continue for as long as a "
               "woman is in good health.")
    frames = document_frames(doc)
    assert [f.action for f in frames] == ["recommend", "recommend"]
    assert stop_age(frames)[0] == NO_UPPER_LIMIT


def test_a_tighter_goal_for_a_subgroup_is_not_compared_with_the_goal_for_most_adults():
    topic = "diabetes-glycemic-targets"
    a = _doc("a", "A", topic, "For most adults, aim for an HbA1c below 53 mmol/mol (7.0%).")
    b = _doc("b", "B", topic, "The Association advises an A1C goal below 7.0% (53 mmol/mol) for most adults with "
                              "type 2 diabetes. A tighter goal under 6.5% may be pursued in selected younger patients "
                              "with short disease duration.")
    assert _facets(a, b) == set()


def test_a_programme_letters_changes_of_eligibility_and_interval():
    topic = "lung-cancer-screening"
    old = {**_doc("l-2019", "L", topic, "You can be screened if you are 55 to 74, have smoked for 30 pack-years or "
                                        "more and still smoke. You will be offered a low-dose CT scan every two "
                                        "years."), "issued": "2019-01-01", "status": "superseded",
           "superseded_by": "l-2024"}
    new = _doc("l-2024", "L", topic, "The programme now offers a low-dose CT scan once every year to people aged 55 to "
                                     "74 who currently smoke, provided they have smoked at least 20 pack-years.")
    assert {"eligibility", "interval"} <= {facet for facet, _ in _facets(old, new)}


def test_risk_thresholds_are_compared_on_the_measure_both_state():
    topic = "statin-primary-prevention"
    a = _doc("a", "A", topic, "In adults from age 40 until age 75 with an LDL-C of 70 to 189 mg/dL, a statin is "
                              "indicated once the estimated 10-year risk reaches 7.5% (Class I).")
    b = _doc("b", "B", topic, "The Board recommends a statin for adults aged 40 to 75 years with an estimated 10-year "
                              "risk of 10% or greater (grade B).")
    assert ("threshold", ("a", "b")) in _facets(a, b)


def test_a_recommendation_for_a_higher_risk_group_is_not_compared_with_one_for_average_risk():
    topic = "prostate-cancer-screening"
    a = _doc("a", "A", topic, "Black men should be offered PSA screening starting at age 40.")
    b = _doc("b", "B", topic, "For men aged 55 to 69, PSA screening should be an individual decision (grade C).")
    assert _facets(a, b) == set()


def test_an_emergency_reading_is_neither_a_threshold_nor_a_goal():
    assert extract_frames("Readings of 180/120 mm Hg or above call for same-day assessment for target-organ "
                          "damage.") == []


def test_a_general_statement_its_own_document_refines_by_age_is_not_compared_on_action():
    """"Should not be used routinely" followed by "aged 40 to 70 ... may be considered" is the background of the
    exception: it does not disagree with another organization that considers aspirin at 40 to 70."""
    topic = "aspirin-primary-prevention"
    a = _doc("a", "A", topic, "Low-dose aspirin should not be used routinely for primary prevention. In adults aged "
                              "40 to 70 years without increased bleeding risk, low-dose aspirin may be considered.")
    b = _doc("b", "B", topic, "Low-dose aspirin might be considered for primary prevention in adults 40 to 70 years "
                              "of age (class IIb).")
    assert _facets(a, b) == set()
    # stated alone, the same stance is a disagreement
    c = _doc("c", "C", topic, "Low-dose aspirin should not be used routinely for primary prevention.")
    assert ("action", ("b", "c")) in _facets(b, c)


def test_a_stance_for_another_risk_band_is_not_refined_away():
    """A selective offer at a 10-year risk of 7.5% to under 10% is not refined by the same document's
    recommendation at 10% or more: it still disagrees with a recommendation at 7.5% or more."""
    topic = "statin-primary-prevention"
    a = _doc("a", "A", topic, "The Board recommends a statin for adults aged 40 to 75 with a 10-year cardiovascular "
                              "risk of 10% or greater (grade B). Clinicians may selectively offer a statin to adults "
                              "at a 10-year cardiovascular risk of 7.5% to under 10% (grade C).")
    b = _doc("b", "B", topic, "At a 10-year cardiovascular risk of 7.5% or more, a statin should be started.")
    assert ("action", ("a", "b")) in _facets(a, b)


def test_statins_a_risk_threshold_beside_an_ldl_band_and_a_subgroup_selected_by_ldl():
    """The 10-year risk is named by its own word even after an LDL-C band; people selected by LDL-C >= 190 mg/dL
    from age 20 do not move the start age; a goal is compared on action only with another goal; a weak class
    "after a clinician-patient discussion" is an individual decision, so 76+ is no "no upper age limit"."""
    topic = "statin-primary-prevention"
    a = _doc("a", "A", topic, "In adults 40 to 75 years of age with LDL-C levels of 70 to 189 mg/dL, a 10-year ASCVD "
                              "risk of 7.5% or higher warrants initiation of a moderate-intensity statin (Class I). In "
                              "adults 20 to 75 years of age with an LDL-C level of 190 mg/dL or higher, maximally "
                              "tolerated statin therapy is recommended (Class I). In patients started on a statin, an "
                              "LDL-C goal of less than 70 mg/dL is reasonable (Class IIa). In adults older than 75 "
                              "years, it may be reasonable to initiate a statin after a clinician-patient discussion "
                              "(Class IIb).")
    b = _doc("b", "B", topic, "We recommend a statin for adults aged 40 to 75 years who have an estimated 10-year "
                              "cardiovascular risk of 10% or greater (strong recommendation). In adults older than 75 "
                              "years, the decision to start a statin should be individualized.")
    frames = document_frames(a)
    assert [q.name for q in frames[0].thresholds] == ["LDL-C", "10-year CVD risk"]
    assert frames[-1].action == "individual_decision"
    assert _facets(a, b) == {("threshold", ("a", "b"))}


def test_insufficient_evidence_and_an_individual_decision_differ():
    """One organization finds no evidence to guide the choice, the other leaves it to patient and clinician: a
    change of action between versions of one organization, a disagreement between organizations."""
    topic = "statin-primary-prevention"
    old = _doc("v-2014", "V", topic, "For adults older than 75 years, the evidence is insufficient to recommend for "
                                     "or against starting a statin.")
    new = _doc("v-2021", "V", topic, "In adults older than 75 years, the decision to start a statin should be "
                                     "individualized.")
    other = {**new, "doc_id": "w", "org": "W"}
    assert _facets(old, new) == {("action", ("v-2014", "v-2021"))}
    assert _facets({**old, "status": "current"}, other) == {("action", ("v-2014", "w"))}
    kinds = {c.kind for c in find_conflicts(document_frames(old) + document_frames(other))}
    assert kinds == {"disagreement"}


def test_a_question_that_names_ages_is_answered_on_action_for_those_ages():
    """Two stances on women in their forties do not answer a question about women aged 75 and older; the stances at
    75 and older do, and start ages are kept (a question often names ages for one of its parts only)."""
    topic = "breast-cancer-screening"
    a = _doc("a", "A", topic, "Screening women aged 40 to 49 is not recommended. Mammography every 2 years is "
                              "recommended for women aged 50 to 74. Evidence is insufficient for women 75 years and "
                              "older.")
    b = _doc("b", "B", topic, "Screening mammography is recommended every 2 years for women aged 40 to 74. "
                              "For women aged 75 and older, the decision to continue should be individualized.")
    frames = document_frames(a) + document_frames(b)

    def facets(ages):
        return {(c.facet, tuple(p), tuple(sorted(v.value for v in c.values)))
                for c in find_conflicts(frames, None, ages) for p in c.pairs}

    everyone = facets(None)
    assert {f[:2] for f in everyone} == {("action", ("a", "b")), ("start_age", ("a", "b"))}
    assert "recommend_against (ages 40-49)" in next(f[2] for f in everyone if f[0] == "action")
    older = facets((75, None))
    assert {f[:2] for f in older} == {("action", ("a", "b")), ("start_age", ("a", "b"))}
    action = next(f[2] for f in older if f[0] == "action")
    assert action == ("individual_decision (ages 75-up)", "insufficient_evidence (ages 75-up)")
    assert {f[:2] for f in facets((60, 69))} == {("start_age", ("a", "b"))}
    assert facets((None, None)) == everyone


def test_an_a1c_goal_in_ifcc_units_only_is_compared_in_percent():
    """53 mmol/mol is 7.0% (IFCC-NGSP master equation); a lower goal for diabetes managed by lifestyle measures
    alone is another population."""
    topic = "diabetes-glycemic-targets"
    a = _doc("a", "A", topic, "For most adults with type 2 diabetes, agree an HbA1c target below 53 mmol/mol. Where "
                              "diabetes is controlled by lifestyle measures alone, a lower target of 48 mmol/mol may "
                              "be agreed.")
    b = _doc("b", "B", topic, "Most adults with type 2 diabetes should aim for an A1C below 7%.")
    c = _doc("c", "C", topic, "Clinicians should aim for an A1C of 6.5% or less in most adults with type 2 "
                              "diabetes.")
    assert _facets(a, b) == set()
    assert _facets(a, c) == {("target", ("a", "c"))}


def test_a_goal_is_not_compared_on_action_with_whom_to_start():
    topic = "statin-primary-prevention"
    a = _doc("a", "A", topic, "In patients started on a statin, an LDL-C goal of less than 70 mg/dL is reasonable "
                              "(Class IIa).")
    b = _doc("b", "B", topic, "For adults aged 40 to 75, whether to start a statin should be an individual decision.")
    assert _facets(a, b) == set()


def test_a_new_sole_test_with_another_interval_is_an_interval_change():
    topic = "cervical-cancer-screening"
    old = _doc("n-2015", "N", topic, "Women aged 21 to 65 years should be screened with cervical cytology alone every "
                                     "3 years (Grade A).")
    new = _doc("n-2022", "N", topic, "For people aged 25 to 65 years, the recommended strategy is primary high-risk "
                                     "HPV testing every 5 years (Grade A).")
    other = {**new, "doc_id": "m", "org": "M"}
    assert ("interval", ("n-2015", "n-2022")) in _facets(old, new)
    # between organizations that each schedule one test, the schedules differ too
    assert ("interval", ("m", "n-2015")) in _facets(old, other)
    # between organizations one of which lists several tests, tests are compared test by test
    listing = _doc("l", "L", topic, "Women aged 21 to 65 years should be screened with cervical cytology every 3 "
                                    "years; from 30, co-testing every 5 years is an alternative (Grade A).")
    assert not {f for f in _facets(listing, other) if f[0] == "interval"}


def test_a_risk_threshold_written_before_its_measure():
    topic = "aspirin-primary-prevention"
    a = _doc("a", "A", topic, "The decision to initiate low-dose aspirin in adults aged 40 to 59 years who have a 10% "
                              "or greater 10-year CVD risk should be an individual one (Grade C).")
    b = _doc("b", "B", topic, "Low-dose aspirin might be considered for adults 40 to 70 years of age at higher ASCVD "
                              "risk (Class IIb). For this recommendation, higher ASCVD risk is defined as an estimated "
                              "10-year risk of 20% or more.")
    assert document_frames(a)[0].thresholds[0].name == "10-year CVD risk"
    assert ("threshold", ("a", "b")) in _facets(a, b)


def test_blood_pressure_bands_goals_beside_home_goals_and_psa_levels():
    """A high-normal band is named by its category (no threshold against a definition of hypertension); a pathway's
    "Titrate ... to reach" states a goal, compared without the home-reading goal beside it; a PSA level in ng/mL is
    a threshold that can change between versions."""
    topic = "hypertension-thresholds"
    a = _doc("a", "A", topic, "Adults with blood pressure between 130/85 and 139/89 mm Hg are classified as having "
                              "high-normal blood pressure and should receive lifestyle advice rather than medication "
                              "(strong recommendation). Hypertension is defined as a clinic blood pressure of "
                              "140/90 mm Hg or higher.")
    b = _doc("b", "B", topic, "Step 2: Diagnose hypertension when the clinic reading is 140/90 mm Hg or more. Step 4: "
                              "Titrate treatment to reach a clinic blood pressure below 140/90 mm Hg (home reading "
                              "below 135/85 mm Hg).")
    c = _doc("c", "C", topic, "For most adults with hypertension, a treatment target of less than 130/80 mm Hg is "
                              "recommended (Class I).")
    assert _facets(a, b) == set()
    assert ("target", ("b", "c")) in _facets(b, c)
    band = document_frames(a)[0].thresholds[0]
    assert (band.name, band.op, band.value) == ("high-normal blood pressure", "range", "130/85-139/89")
    topic = "prostate-cancer-screening"
    old = _doc("u-2013", "U", topic, "A PSA level of 4.0 ng/mL or higher should prompt referral for further "
                                     "evaluation.")
    new = _doc("u-2023", "U", topic, "A PSA of 3.0 ng/mL or higher should prompt repeat testing.")
    assert _facets(old, new) == {("threshold", ("u-2013", "u-2023"))}


def test_a_home_reading_that_confirms_the_diagnosis_is_not_the_clinic_threshold():
    topic = "hypertension-thresholds"
    a = _doc("a", "A", topic, "Hypertension is diagnosed when the clinic reading is at least 140 mm Hg systolic or 90 "
                              "mm Hg diastolic, confirmed by a home average of 135/85 mm Hg or above (strong "
                              "recommendation).")
    b = _doc("b", "B", topic, "Blood pressure of 130/80 mm Hg or above is classified as hypertension (Class I).")
    assert [q.name for q in document_frames(a)[0].thresholds] == ["hypertension", "hypertension (home)"]
    assert _facets(a, b) == {("threshold", ("a", "b"))}


def test_a_table_of_stages_defines_hypertension_by_its_first_stage():
    """"Stage 1 hypertension (130-139 or 80-89 mm Hg)" defines hypertension as >= 130/80, against a patient
    summary's 140/90 (its home reading named apart); a stage 2 alone defines nothing."""
    topic = "hypertension-thresholds"
    a = _doc("a", "A", topic, "Blood pressure should be categorized as normal (<120/<80 mm Hg), stage 1 hypertension "
                              "(130–139 or 80–89 mm Hg), or stage 2 hypertension (≥140 or ≥90 mm Hg) (Class I).")
    b = _doc("b", "B", topic, "Your doctor will usually say you have high blood pressure (hypertension) if your "
                              "readings are 140/90 or higher on several different days, or 135/85 or higher when "
                              "you measure it at home.")
    c = _doc("c", "C", topic, "Stage 2 hypertension is defined as a blood pressure of 140/90 mm Hg or higher.")
    assert [(q.name, q.op, q.value) for q in document_frames(a)[0].thresholds] == [
        ("blood pressure", "<", "120/80"), ("stage 1 hypertension", "range", "130/80-139/89"),
        ("stage 2 hypertension", ">=", "140/90")]
    assert [(q.name, q.value) for q in document_frames(b)[0].thresholds] == [
        ("hypertension", "140/90"), ("hypertension (home)", "135/85")]
    assert _facets(a, b) == {("threshold", ("a", "b"))}
    assert _facets(b, c) == set()


def test_an_upper_age_below_the_documents_start_age_opens_the_band_below():
    """"Aged 84 and under" beside "85 and over: may be considered" is the band up to 84, so its risk threshold is
    compared with an older version's band-less one, and a band-less threshold beside an open band left to a
    decision at older ages is not moved up to that band."""
    topic = "statin-primary-prevention"
    old, new = _versions(
        topic,
        ("j-2014", "Statin treatment should be offered to people who have a 20% or greater 10-year risk of developing "
                   "CVD. Treatment decisions in people aged 85 and over should be individualised."),
        ("j-2021", "A statin should be offered to people aged 84 and under who have a 10% or greater 10-year risk of "
                   "developing CVD. For people aged 85 and over, a statin may be considered."),
    )
    assert document_frames(new)[0].population.age_max == 84
    assert ("change", "threshold") in {(c.kind, c.facet) for c in _version_conflicts(old, new)}


def test_a_shared_decision_rated_class_i_is_an_individual_decision_and_sets_the_stop_age():
    """A class rates the advice to decide together; a document that recommends to no one stops where its decision
    band ends (69 against a patient leaflet's 75)."""
    topic = "prostate-cancer-screening"
    a = _doc("a", "A", topic, "For men aged 55 to 69 at average risk, clinicians should engage in shared "
                              "decision-making about PSA screening (Class I; LOE A).")
    b = _doc("b", "B", topic, "For men aged 55 to 69 years, the decision to undergo PSA-based screening should be an "
                              "individual one (Grade C recommendation).")
    c = _doc("c", "C", topic, "If you are a man between 50 and 75 years old, talk with your doctor about whether the "
                              "PSA test is right for you. After age 75, most men no longer need the test.")
    assert document_frames(a)[0].action == "individual_decision"
    assert _facets(a, b) == set()
    assert {("start_age", ("a", "c")), ("stop_age", ("a", "c"))} <= _facets(a, c)
    assert stop_age(document_frames(a))[0] == 69


def test_a_schedule_split_by_what_the_rules_do_not_read_is_one_span():
    """"Twice yearly if at goal" beside "quarterly if therapy changed" is one 3-6 month schedule, the same as a later
    edition's single sentence, while a real change of interval between versions is still found."""
    topic = "diabetes-glycemic-targets"
    old, new = _versions(
        topic,
        ("g-2017", "Perform the A1C test at least twice yearly in patients who are meeting treatment goals (E). "
                   "Perform the A1C test quarterly in patients whose therapy has changed (E)."),
        ("g-2023", "Glycemic status should be assessed at least two times a year in patients who are meeting "
                   "treatment goals and at least quarterly in patients whose therapy has recently changed (E)."),
    )
    assert not [c for c in _version_conflicts(old, new) if c.facet == "interval"]
    yearly = {**new, "text": "A1C should be measured once a year in all patients."}
    assert [c.facet for c in _version_conflicts(old, yearly)] == ["interval"]


def test_an_action_value_names_open_bands_in_words():
    """A band open at both ends reads "all ages" and one open below "ages up to 39", never "ages any-up"."""
    topic = "prostate-cancer-screening"
    a = _doc("a", "A", topic, "Men who have at least a 10-year life expectancy should have an opportunity to make an "
                              "informed decision with their health care provider about whether to be screened for "
                              "prostate cancer.")
    b = _doc("b", "B", topic, "The B recommends against PSA-based screening for prostate cancer in men aged 70 and "
                              "older (grade D).")
    c = _doc("c", "C", topic, "Screening with PSA is not recommended for men younger than 40.")

    def action(*docs):
        frames = [f for d in docs for f in document_frames(d)]
        return [[v.value for v in c.values] for c in find_conflicts(frames) if c.facet == "action"]

    assert action(a, b) == [["individual_decision (all ages)", "recommend_against (ages 70-up)"]]
    assert action(a, c) == [["individual_decision (all ages)", "recommend_against (ages up to 39)"]]
