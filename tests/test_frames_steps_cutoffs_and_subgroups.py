"""Frames and conflicts for an order set's criteria written one per step, a FIT's haemoglobin cut-off, what a
programme "will offer", start ages of higher-risk groups, a reason clause that names no one, a first test's age, an
invitation "again in five years", people living with HIV, a test named only as unavailable, permission to exit
screening, a definition of hypertension that is "still" in force, and an age after "no upper age limit"
(``tools/frames/action_cues.py``, ``ages.py``, ``bands.py``, ``clauses.py``, ``pairing.py``, ``conflicts.py``,
``extract.py``, ``intervals.py``, ``lexicon.py``, ``quantities.py``)."""

from __future__ import annotations

import pytest
from frame_fixtures import A1C, BP, CERVICAL, CRC, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames
from clinrag.tools.frames.quantities import quantities

_ORDER_SET = ("Lung cancer screening pathway (primary care order set). Step 1 - Age: patient is 55 through 77 years "
              "old. Step 2 - Smoking history: at least 30 pack-years, and either currently smokes or quit no more "
              "than 15 years ago; patients who quit more than 15 years ago do not meet criteria and the LDCT order "
              "should not be placed. Step 3 - Order 'CT chest low-dose screening' and set the recall to repeat every "
              "12 months while the patient remains eligible.")


def test_an_order_sets_criteria_one_per_step():
    frames = document_frames(_doc("ih-lung", LUNG["topic"], _ORDER_SET))
    assert [(f.action, f.population.age_min, f.population.age_max, f.population.criteria) for f in frames] == [
        ("recommend", 55, 77, []),
        ("recommend", None, None, ["pack-years >= 30", "years since quitting <= 15",
                                   "smoking status: current or former"]),
        # the semicolon divides those who meet the criteria from those who quit long ago
        ("recommend_against", None, None, ["years since quitting > 15"]),
        ("recommend", None, None, []),
    ]


def test_an_order_set_with_its_steps_compares_on_ages_and_criteria():
    statement = _doc("el-lung", LUNG["topic"], "Annual low-dose CT screening is recommended for adults 50 to 80 years "
                                               "of age with a 20 pack-year or greater smoking history who currently "
                                               "smoke or who quit within the last 15 years (COR 1, LOE A). Screening "
                                               "should be stopped once a person has not smoked for 15 years.")
    found = _facets(statement, _doc("ih-lung", LUNG["topic"], _ORDER_SET))
    assert {("start_age", ("el-lung", "ih-lung")), ("stop_age", ("el-lung", "ih-lung")),
            ("eligibility", ("el-lung", "ih-lung"))} <= found
    # both advise against screening those who quit long ago, whether a condition or a criterion names them
    assert ("action", ("el-lung", "ih-lung")) not in found


@pytest.mark.parametrize("text, value", [
    ("A FIT result of 20 µg haemoglobin per gram of faeces or more is considered positive.", "20"),
    ("If your sample contains 80 micrograms of blood per gram or more, we will offer you an appointment.", "80"),
    ("Refer for colonoscopy when FIT is 10 µg/g or higher.", "10"),
])
def test_a_fit_cut_off_in_micrograms_per_gram(text, value):
    thresholds, targets = quantities(text)
    assert [(q.name, q.op, q.value, q.unit) for q in thresholds] == [("FIT haemoglobin", ">=", value, "µg/g")]
    assert targets == []


def test_a_fit_cut_off_is_about_the_fit_whatever_test_it_leads_to():
    f = extract_frames("If your sample contains 80 micrograms of blood per gram or more, we will offer you an "
                       "appointment with a specialist nurse to discuss having a colonoscopy.", doc_meta=CRC)
    assert [(x.action, x.test) for x in f] == [("recommend", "FIT")]
    guideline = _doc("ad-crc", CRC["topic"], "Screen adults aged 45 to 75 with FIT every year. A FIT result of 20 µg "
                                             "haemoglobin per gram of faeces or more should be followed by "
                                             "colonoscopy.")
    letter = _doc("gb-crc", CRC["topic"], "We will post you a home test kit every two years from your 50th birthday "
                                          "until your 75th birthday. If your sample contains 80 micrograms of blood "
                                          "per gram or more, we will offer you a colonoscopy.")
    assert ("threshold", ("ad-crc", "gb-crc")) in _facets(guideline, letter)


def test_what_you_will_be_offered_is_recommended():
    assert _summary("If your risk is 20% or higher, you will usually be offered a statin such as simvastatin 40 mg.",
                    STATIN) == [("recommend", None, None, None, None)]


def test_higher_risk_groups_start_ages_are_compared():
    one = _doc("am-psa", PSA["topic"], "For men aged 50 to 69 years, the decision to be screened with PSA should be an "
                                       "individual one [Grade C]. Black men may begin this conversation at 45.")
    other = _doc("fp-psa", PSA["topic"], "If you are between 50 and 69, whether to have a PSA test is your choice. If "
                                         "you are Black, you may want to start that conversation at 40.")
    same = _doc("cq-psa", PSA["topic"], "PSA screening for men aged 50 to 69 is an individual decision. Black men may "
                                        "begin this discussion at 45.")
    frames = document_frames(one) + document_frames(other)
    rows = [c for c in find_conflicts(frames) if c.facet == "start_age"]
    assert [sorted(v.value for v in c.values) for c in rows] == [["40 (Black ancestry)", "45 (Black ancestry)"]]
    assert ("start_age", ("am-psa", "cq-psa")) not in _facets(one, same)


def test_a_reason_clause_names_no_one():
    f = extract_frames("If your A1C drops below 6.5% and you take insulin or a sulfonylurea, ask whether your "
                       "medicines should be reduced, because very low levels can cause dangerous hypos.", doc_meta=A1C)
    assert [(x.population.conditions, [(q.name, q.op, q.value) for q in x.thresholds]) for x in f] == [
        ([], [("A1C", "<", "6.5")])]


@pytest.mark.parametrize("sentence, expected", [
    ("You should have your first cervical screening test at 25, even if you have had the HPV vaccine.",
     [("recommend", None, 25, None, None)]),
    ("Your first smear test (cytology) is due at 21, and while you are in your twenties you will be invited every "
     "three years.", [("recommend", "cytology", 21, 29, 36)]),
    ("The test looks for human papillomavirus (HPV), and if no HPV is found you will be invited again in five years.",
     [("recommend", "hrHPV testing", None, None, 60)]),
    # the test named as unavailable is the one replaced
    ("If primary HPV testing is unavailable, order cervical cytology every three years instead.",
     [("recommend", "cytology", None, None, 36)]),
    ("Statement 3: women may exit screening at 70 years of age provided the two most recent HPV tests, taken within "
     "the last 10 years, were negative (consensus 86%).", [("discourage", "hrHPV testing", 71, None, None)]),
])
def test_first_tests_invitations_alternatives_and_exits(sentence, expected):
    assert _summary(sentence, CERVICAL) == expected


@pytest.mark.parametrize("who, conditions", [
    ("women living with HIV should be screened with HPV testing every 3 years from the age of 25",
     ["immunocompromised"]),
    ("people with a cervix aged 25 to 65 years who have no symptoms and are not immunosuppressed should be screened",
     []),
])
def test_people_living_with_hiv_are_a_subgroup(who, conditions):
    assert [f.population.conditions for f in extract_frames(f"{who}.", doc_meta=CERVICAL)] == [conditions]


def test_a_subgroup_living_with_hiv_does_not_start_the_general_band():
    consensus = _doc("tc-cx", CERVICAL["topic"], "Cervical screening should begin at age 30 with primary HPV testing. "
                                                 "Women living with HIV should be screened with HPV testing every 3 "
                                                 "years from the age of 25.")
    pathway = _doc("nc-cx", CERVICAL["topic"], "Step 1, eligibility: people with a cervix aged 25 to 65 years. Step 2, "
                                               "test: order primary hrHPV testing every five years.")
    assert ("start_age", ("nc-cx", "tc-cx")) in _facets(consensus, pathway)


def test_a_definition_still_in_force_states_its_threshold():
    f = extract_frames("The diagnostic threshold is unchanged: hypertension is still diagnosed at a clinic blood "
                       "pressure of 140/90 mm Hg or above, confirmed by home or ambulatory readings.", doc_meta=BP)
    assert [(x.action, [(q.name, q.op, q.value) for q in x.thresholds]) for x in f] == [
        ("recommend", [("hypertension", ">=", "140/90")])]


def test_an_age_after_no_upper_age_limit_starts_no_band():
    leaflet = _doc("nh-st", STATIN["topic"], "If that chance is 10% or more, you should be offered a statin. There is "
                                             "no upper age limit: if you are over 85, a statin may still lower your "
                                             "risk of a heart attack.")
    frames = document_frames(leaflet)
    assert [(f.population.age_min, f.population.age_max) for f in frames] == [(None, None), (None, None)]
    guideline = _doc("sl-st", STATIN["topic"], "In adults 40 to 75 years of age we recommend a statin when the 10-year "
                                               "ASCVD risk is 7.5% or higher (strong recommendation).")
    found = _facets(leaflet, guideline)
    assert ("threshold", ("nh-st", "sl-st")) in found
    assert ("start_age", ("nh-st", "sl-st")) not in found
