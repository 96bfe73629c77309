"""Frames and conflicts for a pathway's gates ("Step 2: Confirm the patient is aged ...", "Eligibility check —"), a
letter's offer and the kits it stops sending, a choice made together with the doctor, "we suggest that they do not
start", who a decision aid "from" an organization is for, years written as teens, eligibility that "no longer depends
on" when someone quit, high blood pressure "defined as", another group named beside the first, and a leaflet's goals
("the aim of treatment is to keep ...", "is usually good enough", "strikes the right balance")
(``tools/frames/no_stance.py``, ``action_cues.py``, ``numbers.py``, ``subgroups.py``, ``rules.py``,
``quantity_names.py``, ``quantities.py``, ``extract.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CRC, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.extract import extract_frames
from clinrag.tools.frames.numbers import tens_as_digits


def _values(text: str, meta: dict) -> list[tuple]:
    return [(f.action, f.population.age_min, f.population.age_max, [(q.name, q.op, q.value) for q in f.thresholds],
             [(q.name, q.op, q.value) for q in f.targets]) for f in extract_frames(text, doc_meta=meta)]


def test_a_pathways_gates_take_no_stance_where_another_step_states_one():
    """"Confirm the patient is aged 40 to 59", "Check for bleeding risk ... and exit" and "Calculate the risk ...
    continue only if" say who goes on, not what is advised: the order set's stance is its shared decision, which agrees
    with another organization's individual decision for those ages (its threshold is still compared)."""
    order_set = _doc("lp-asa", ASPIRIN["topic"], "Step 2: Confirm the patient is aged 40 to 59; do not initiate "
                     "aspirin for primary prevention in patients aged 60 or older. Step 3: Calculate the 10-year ASCVD "
                     "risk with the pooled cohort equations and continue only if the risk is 7.5% or higher. Step 4: "
                     "Check for bleeding risk and exit the order set if any is present. Step 5: Hold a shared "
                     "decision-making conversation and, if the patient chooses aspirin, order aspirin 81 mg daily.")
    statement = _doc("il-asa", ASPIRIN["topic"], "The decision to start low-dose aspirin in adults aged 40 to 59 with "
                     "a 10-year cardiovascular risk of 10 percent or higher should be an individual one (Grade C). The "
                     "League recommends against starting low-dose aspirin in adults 60 years or older (Grade D).")
    assert _summary("Step 2: Confirm the patient is aged 40 to 59; do not initiate aspirin for primary prevention in "
                    "patients aged 60 or older.", ASPIRIN) == [("recommend", None, 40, 59, None),
                                                                ("recommend_against", None, 60, None, None)]
    assert _facets(order_set, statement) == {("threshold", ("il-asa", "lp-asa"))}


def test_an_eligibility_check_with_a_dash_is_where_a_pathway_starts_and_stops():
    pathway = _doc("zc-st", STATIN["topic"], "Step 1: Eligibility check — patient aged 40 to 75 years, no known "
                   "atherosclerotic cardiovascular disease. Step 3: If the 10-year risk is 20% or higher, order a "
                   "high-intensity statin.")
    other = _doc("up-st", STATIN["topic"], "Adults aged 40 to 84 years should have their risk assessed. Atorvastatin "
                 "20 mg daily should be offered to those whose 10-year risk is 10% or more.")
    assert _summary("Step 1: Eligibility check — patient aged 40 to 75 years, no known atherosclerotic cardiovascular "
                    "disease.", STATIN) == [("recommend", None, 40, 75, None)]
    assert ("stop_age", ("up-st", "zc-st")) in _facets(pathway, other)


def test_a_letters_offer_and_the_kits_it_stops_sending():
    """A programme that offers screening from 50 to 70 and stops sending kits after 70 starts and stops where a
    guideline screening 45 to 75 does not."""
    letter = _doc("tb-crc", CRC["topic"], "We offer screening to everyone aged 50 to 70 who is registered with a local "
                  "practice, and our records show that you are now eligible. If your result is normal, we will send "
                  "you a new kit every other year. If you are older than 70, kits are no longer sent automatically, "
                  "although you can ask for one by calling our freephone helpline.")
    guideline = _doc("qc-crc", CRC["topic"], "The Group recommends colorectal cancer screening for all adults aged 45 "
                     "through 75 years (Grade A).")
    assert _summary("We offer screening to everyone aged 50 to 70 who is registered with a local practice.", CRC) == [
        ("recommend", None, 50, 70, None)]
    assert [f.action for f in extract_frames("If you are older than 70, kits are no longer sent automatically.",
                                             doc_meta=CRC)] == ["recommend_against"]
    assert {("start_age", ("qc-crc", "tb-crc")), ("stop_age", ("qc-crc", "tb-crc"))} <= _facets(letter, guideline)


def test_a_choice_together_with_the_doctor_and_a_suggestion_not_to_start():
    assert [f.action for f in extract_frames(
        "If you are 40 to 70 years old and your 10-year risk of heart disease or stroke is 10% or more, taking a "
        "low-dose aspirin is a choice to make together with your doctor.", doc_meta=ASPIRIN)] == ["individual_decision"]
    assert _summary("Most men aged 70 or older are unlikely to benefit, and we suggest that they do not start PSA "
                    "testing.", PSA) == [("discourage", None, 70, None, None)]


def test_who_a_decision_aid_from_an_organization_is_for():
    """Its audience's ages are where its offer starts; its stance is the choice it describes."""
    aid = _doc("pm-psa", PSA["topic"], "This decision aid from the Penhallow Men's Health Network is for men aged "
               "between 50 and 69 who have no urinary symptoms. Whether you are tested is a choice you make together "
               "with your doctor. Most men aged 70 or older are unlikely to benefit, and we suggest that they do not "
               "start PSA testing.")
    consensus = _doc("sp-psa", PSA["topic"], "Men aged 50 and over who ask about the test should receive balanced "
                     "information, and the test may be arranged after an informed discussion.")
    assert _summary("This decision aid from the Penhallow Men's Health Network is for men aged between 50 and 69 who "
                    "have no urinary symptoms.", PSA) == [("recommend", None, 50, 69, None)]
    assert "start_age" not in {facet for facet, _ in _facets(aid, consensus)}


def test_years_written_as_teens_and_eligibility_that_no_longer_depends_on_quitting():
    assert tens_as_digits("stopped within the last fifteen years, aged eighteen or older") == (
        "stopped within the last 15 years, aged 18 or older")
    leaflet = extract_frames("You may be offered a scan if you are between 50 and 80 years old, have smoked twenty "
                             "pack-years or more, and either still smoke or stopped within the last fifteen years.",
                             doc_meta=LUNG)
    assert "years since quitting <= 15" in leaflet[0].population.criteria
    step = extract_frames("Step 3: Eligibility no longer depends on how long ago a former smoker quit; people who "
                          "stopped smoking any number of years ago remain eligible if they meet Steps 1 and 2.",
                          doc_meta=LUNG)
    assert [(f.action, "years since quitting: any" in f.population.criteria) for f in step] == [("recommend", True)]


def test_high_blood_pressure_defined_as_a_reading_is_the_definition_of_hypertension():
    """An edition that defines high blood pressure at 130/80 changed the diagnostic threshold of one that diagnosed
    hypertension at 140/90."""
    assert _values("High blood pressure is now defined as an average office reading of 130/80 mm Hg or more.", BP) == [
        ("recommend", None, None, [("hypertension", ">=", "130/80")], [])]
    old = {**_doc("wc-2015", BP["topic"], "Hypertension is diagnosed when office blood pressure is 140/90 mm Hg or "
                  "higher on repeated measurement."), "status": "superseded", "superseded_by": "wc-2022"}
    new = {**_doc("wc-2022", BP["topic"], "High blood pressure is now defined as an average office reading of 130/80 "
                  "mm Hg or more."), "issued": "2024-01-01"}
    assert ("threshold", ("wc-2015", "wc-2022")) in _facets(old, new)


def test_another_group_named_beside_the_first_is_not_its_risk():
    """"adults 40 or older, and those at increased risk" are everyone 40 and over plus others: an annual check for
    them is compared with a leaflet's every five years over 40."""
    f = extract_frames("Adults 40 or older, and those at increased risk, should have their blood pressure measured "
                       "annually.", doc_meta=BP)
    assert [(x.population.age_min, x.population.risk) for x in f] == [(40, None)]
    guideline = _doc("wc-bp", BP["topic"], "Adults 40 or older, and those at increased risk, should have their blood "
                     "pressure measured annually.")
    leaflet = _doc("yf-bp", BP["topic"], "Adults over 40 should have their blood pressure checked at least every five "
                   "years.")
    assert ("interval", ("wc-bp", "yf-bp")) in _facets(guideline, leaflet)


def test_a_leaflets_goals():
    assert _values("If you are under 80, the aim of treatment is usually to keep your clinic reading below 140/90 "
                   "mmHg.", BP) == [("recommend", None, 79, [], [("blood pressure", "<", "140/90")])]
    assert _values("If you are 80 or over, a clinic reading below 150/90 mmHg is usually good enough.", BP) == [
        ("recommend", 80, None, [], [("blood pressure", "<", "150/90")])]
    goal = _values("For most people with type 2 diabetes, an A1C between 7% and 8% (53 to 64 mmol/mol) strikes the "
                   "right balance between preventing complications and avoiding low blood sugar.", A1C)
    assert [(action, targets[0]) for action, _, _, _, targets in goal] == [("recommend", ("A1C", "range", "7-8"))]
    statement = _doc("sd-a1c", A1C["topic"], "For most nonpregnant adults with type 2 diabetes, the Society recommends "
                     "an A1C goal of 6.5% or lower.")
    leaflet = _doc("tw-a1c", A1C["topic"], "For most people with type 2 diabetes, an A1C between 7% and 8% strikes the "
                   "right balance between preventing complications and avoiding low blood sugar.")
    assert _facets(statement, leaflet) == {("target", ("sd-a1c", "tw-a1c"))}


def test_a_risk_stated_in_tiers_is_compared_as_the_span_they_join_into():
    """"if it is 7.5% to less than 20%" is the 10-year risk named before it; a pathway ordering a high-intensity statin
    from 20 % and a moderate-intensity one from 7.5 % to 20 % starts a statin at 7.5 %, as a guideline recommending one
    at 7.5 % does, and not at 10 %."""
    step = ("Step 3: If the 10-year risk is 20% or higher, order a high-intensity statin; if it is 7.5% to less than "
            "20%, order a moderate-intensity statin after a risk discussion.")
    assert [[(q.name, q.op, q.value) for q in f.thresholds] for f in extract_frames(step, doc_meta=STATIN)] == [
        [("10-year CVD risk", ">=", "20")], [("10-year CVD risk", "range", "7.5-20")]]
    pathway = _doc("zc-st", STATIN["topic"], step)
    same = _doc("vl-st", STATIN["topic"], "For adults aged 40 through 75 with an estimated 10-year risk of 7.5% or "
                "higher, the Council recommends a statin.")
    other = _doc("up-st", STATIN["topic"], "A statin should be offered to those whose 10-year risk is 10% or more.")
    assert "threshold" not in {facet for facet, _ in _facets(pathway, same)}
    assert ("threshold", ("up-st", "zc-st")) in _facets(pathway, other)
    # a reduction beside a risk is not that risk
    assert "10-year CVD risk" not in [
        q.name for f in extract_frames("In apparently healthy people, an LDL-C goal of < 1.8 mmol/L (70 mg/dL), "
                                       "together with a reduction of at least 50% from baseline, is recommended.",
                                       doc_meta=STATIN) for q in f.thresholds]


def test_tiers_join_only_spans_that_rise():
    """A tier written as a range that does not rise ("10% to 10%") joins nothing and is compared as stated."""
    from clinrag.tools.frames.schema import Frame, Population, Quantity
    from clinrag.tools.frames.value_comparison import joined_tiers

    def frame(op: str, value: str) -> Frame:
        return Frame(intervention="statin", population=Population(), action="recommend",
                     thresholds=[Quantity(name="10-year CVD risk", op=op, value=value, unit="%")])

    high, middle, flat = frame(">=", "20"), frame("range", "7.5-20"), frame("range", "10-10")
    own = [high, middle, flat]
    assert [(q.op, q.value) for q in joined_tiers(high, own)] == [(">=", "7.5")]
    assert [(q.op, q.value) for q in joined_tiers(middle, own)] == [(">=", "7.5")]
    assert [(q.op, q.value) for q in joined_tiers(flat, own)] == [("range", "10-10")]
