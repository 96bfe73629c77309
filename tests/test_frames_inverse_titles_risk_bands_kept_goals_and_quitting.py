"""Frames for a measure's title "Non-recommended ... (inverse measure; a lower rate is better)", a leaflet's risk band
"between 7.5 and 10 in 100" after "that chance" and a statin "considered after you and your doctor talk it through",
a test that "may help to refine decisions", an update that "raises the risk threshold", people with LDL-C of 190 mg/dL
or more beside a risk band, a goal that "remains the goal", an A1C that "exceeds 10%", a doctor who "may talk to you
about starting insulin", and years since quitting that are "no longer an eligibility criterion"
(``tools/frames/extract.py``, ``rules.py``, ``action_cues.py``, ``quantities.py``, ``bands.py``, ``conflicts.py``,
``subgroups.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.extract import document_frames


def test_an_inverse_measure_named_in_its_title_recommends_nothing_in_its_denominator_and_numerator():
    measure = _doc("mq-psa", PSA["topic"], "Measure PQ-7: Non-recommended PSA-based screening in older men (inverse "
                   "measure; a lower rate is better). Denominator: men aged 70 years or older at the start of the "
                   "measurement period. Numerator: men in the denominator who had a PSA test ordered for screening "
                   "during the measurement period or the 12 months before it. Rationale: PSA-based screening should "
                   "not be performed in men aged 70 and over.")
    rows = [(f.action, f.population.age_min, f.interval_months) for f in document_frames(measure)]
    assert rows == [("recommend_against", 70, None)]  # the rationale's; the title names what the measure counts
    statement = _doc("js-psa", PSA["topic"], "For men aged 55 to 69 years, the decision to undergo periodic "
                     "PSA-based screening should be an individual one (Grade C). The Forum recommends against "
                     "PSA-based screening in men 70 years and older (Grade D).")
    assert not {facet for facet, _ in _facets(measure, statement)} & {"action", "start_age"}


def test_a_leaflets_risk_band_in_a_hundred_and_a_statin_considered_after_talking_it_through():
    leaflet = _doc("ml-statin", STATIN["topic"], "If you are aged 40 to 75, your doctor can work out your chance of "
                   "having a heart attack or stroke in the next ten years. When that chance is 10 in 100 or higher, "
                   "your doctor will usually recommend a statin. If it is between 7.5 and 10 in 100, a statin may be "
                   "considered after you and your doctor talk it through.")
    band = document_frames(leaflet)[-1]
    assert band.action == "individual_decision"
    assert [(q.name, q.op, q.value) for q in band.thresholds] == [("10-year CVD risk", "range", "7.5-10")]


def test_a_decision_tool_and_an_updates_change_are_no_stance():
    assert _frames("PSA screening of men aged 70 and older is non-recommended care.", PSA)[0][:2] == (
        "recommend_against", 70)
    assert _frames("Coronary artery calcium scoring may help to refine decisions for those whose risk is borderline.",
                   STATIN) == []
    assert _frames("This update raises the risk threshold at which statin therapy is recommended and gives more weight "
                   "to the clinician-patient risk discussion.", STATIN) == []


def test_people_selected_by_ldl_are_not_compared_on_action_with_a_risk_band():
    update = _doc("hc-statin", STATIN["topic"], "For adults aged 40 to 75 years, initiating a statin is reasonable "
                  "after a risk discussion when the 10-year risk is 7.5% to less than 10% (Class IIa).")
    leaflet = _doc("ml-statin", STATIN["topic"], "If you are aged 40 to 75 and your LDL cholesterol is very high (190 "
                   "mg/dL or more), a statin is advised whatever your calculated risk.")
    assert ("action", ("hc-statin", "ml-statin")) not in _facets(update, leaflet)
    # a recommendation for the risk band itself is still compared
    pathway = _doc("gp-statin", STATIN["topic"], "For adults aged 40 to 75 years, do not offer a statin when the "
                   "10-year risk is 7.5% to less than 10%.")
    assert ("action", ("gp-statin", "hc-statin")) in _facets(update, pathway)


def test_a_goal_that_remains_the_goal_and_an_a1c_that_exceeds_a_value():
    rows = _frames("The targets themselves are unchanged: an HbA1c under 7.0% (53 mmol/mol) remains the goal for most "
                   "non-pregnant adults, and under 8.0% (64 mmol/mol) for those with frailty.", A1C)
    assert [(r[0], r[4], r[8]) for r in rows] == [
        ("recommend", [], ["A1C <7 %", "A1C <53 mmol/mol"]),
        ("recommend", ["frailty"], ["A1C <8 %", "A1C <64 mmol/mol"])]
    assert _frames("Insulin should be considered if HbA1c exceeds 10% (86 mmol/mol) or if catabolic symptoms are "
                   "present.", A1C)[0][7] == ["A1C >10 %", "A1C >86 mmol/mol"]


def test_a_doctor_who_may_talk_about_starting_insulin_at_a_level():
    assert _frames("If your A1C stays above 9% even with tablets, your doctor may talk to you about starting insulin.",
                   A1C) == [("individual_decision", None, None, [], [], None, None, ["A1C >9 %"], [])]
    consensus = _doc("iv-a1c", A1C["topic"], "Insulin should be considered if HbA1c exceeds 10% (86 mmol/mol).")
    leaflet = _doc("kp-a1c", A1C["topic"], "If your A1C stays above 9% even with tablets, your doctor may talk to you "
                   "about starting insulin.")
    assert ("threshold", ("iv-a1c", "kp-a1c")) in _facets(consensus, leaflet)


def test_years_since_quitting_no_longer_an_eligibility_criterion():
    rows = _frames("Step 2: ask about quitting, but do not exclude former smokers because of how long ago they "
                   "stopped; the number of years since quitting is no longer an eligibility criterion.", LUNG)
    assert [r[3] for r in rows] == [["years since quitting: any", "smoking status: current or former"]]
