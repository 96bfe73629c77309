"""Frames for a letter's next invitation and the schedule it replaces, an age named as "once you are 65", results that
were normal as adequate prior screening, a reading named by the setting of its own part, a decision "you and your
doctor may still" take, a result that triggers the next step, an order set's default goal, a risk-factor list written
inline, a criterion that should no longer exclude, an earlier specification's value, and the test a document says its
screening is (``tools/frames/ages.py``, ``subgroups.py``, ``quantity_names.py``, ``action_cues.py``, ``set_aside.py``,
``lexicon.py``, ``rules.py``, ``document_passes.py``); the comparisons they feed (``bands.py``,
``value_comparison.py``, ``conflicts.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, CERVICAL, CRC, LUNG, PSA, STATIN
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.question.understanding import asked_tests
from clinrag.tools.frames import bands
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames
from clinrag.tools.frames.schema import Quantity
from clinrag.tools.frames.value_comparison import targets_differ


def test_a_letters_next_invitation_without_the_schedule_it_replaces():
    sentence = ("What has changed: because an HPV test gives more protection than the old smear test, if no HPV is "
                "found you will next be invited in five years' time, whatever your age, rather than after three years "
                "as before for those under 50.")
    # five years for everyone: "under 50" belongs to the schedule replaced
    assert _frames(sentence, CERVICAL) == [("recommend", None, None, [], [], 60, "hrHPV testing", [], [])]
    assert _frames("After that you will not be invited again if your recent tests were normal.", CERVICAL) == [
        ("recommend_against", None, None, [], ["adequate prior screening"], None, None, [], [])]


def test_once_you_are_an_age_with_normal_results_is_where_screening_stops_for_the_adequately_screened():
    assert _frames("Once you are 65, we do not recommend further screening if your recent results were normal.",
                   CERVICAL) == [("recommend_against", 65, None, [], ["adequate prior screening"], None, None, [], [])]
    # and so it differs from a leaflet that keeps screening to 74
    letter = _doc("wn-cx", CERVICAL["topic"], "Cervical screening is offered to everyone with a cervix from age 25 up "
                  "to their 65th birthday. Once you are 65, we do not recommend further screening if your recent "
                  "results were normal.")
    leaflet = _doc("yc-cx", CERVICAL["topic"], "If you are aged 25 to 74, you should have a cervical screening test "
                   "every five years.")
    assert ("action", ("wn-cx", "yc-cx")) in _facets(letter, leaflet)


def test_a_reading_is_named_by_the_setting_of_its_own_part():
    sentence = ("You have high blood pressure if your reading at the surgery is 140/90 or higher and your average at "
                "home, or over 24 hours on a monitor, is 135/85 or higher.")
    # the clinic reading is no home reading, and "over 24 hours" is no age
    assert _frames(sentence, BP) == [("recommend", None, None, [], [], None, None,
                                      ["hypertension >=140/90 mm Hg", "hypertension (home) >=135/85 mm Hg"], [])]


def test_a_decision_you_and_your_doctor_may_still_take_and_a_result_that_triggers_the_next_step():
    assert _frames("If you are aged 70 to 74 and in good health, you and your doctor may still decide that testing "
                   "makes sense for you.", PSA) == [
        ("individual_decision", 70, 74, ["good overall health"], [], None, None, [], [])]
    assert _frames("Step 4: A PSA of 4 ng/mL or above triggers a repeat test within six weeks and, if confirmed, a "
                   "routine urology referral.", PSA) == [("recommend", None, None, [], [], None, None,
                                                          ["PSA >=4 ng/mL"], [])]
    # the decision at 70 to 74 moves the aid's stop age to 74, where the pathway's is 69
    aid = _doc("em-psa", PSA["topic"], "If you are between 50 and 69, whether to have a PSA test is your choice. If "
               "you are aged 70 to 74 and in good health, you and your doctor may still decide that testing makes "
               "sense for you. Once you are 75 or over, routine PSA testing is not advised.")
    assert bands.stop_age(document_frames(aid))[0] == 74


def test_an_order_sets_default_goal_is_its_target():
    assert _frames("Step 2: Record the individual HbA1c target; the network default for adults with type 2 diabetes "
                   "is below 53 mmol/mol.", A1C) == [("recommend", None, None, [], [], None, None, [],
                                                      ["A1C <53 mmol/mol"])]


def test_a_risk_factor_list_written_inline_names_no_intervention():
    assert [f.intervention for f in extract_frames(
        "If you are aged 40 to 75, have never had a heart attack or stroke, and have at least one risk factor such as "
        "diabetes, high blood pressure, smoking or high cholesterol, your doctor will usually recommend a statin when "
        "your chance of a heart attack or stroke over the next 10 years is 7.5% or more.", doc_meta=STATIN)] == [
        "statin"]


def test_a_criterion_that_should_no_longer_exclude_and_an_earlier_specifications_value():
    assert _frames("Time since quitting should no longer be used to exclude people from screening, because lung "
                   "cancer risk remains raised for decades after cessation.", LUNG) == [
        ("recommend", None, None, ["years since quitting: any"], [], None, None, [], [])]
    sentence = ("Denominator: patients aged 40 through 75 with no documented ASCVD or diabetes and a calculated "
                "10-year cardiovascular risk of 10% or higher; the earlier specification used a risk cut-off of 20%.")
    assert _frames(sentence, STATIN)[0][7] == ["10-year CVD risk >=10 %"]


def test_recommendations_stated_without_ages_are_about_the_documents_population():
    update = _doc("ic-statin", STATIN["topic"], "This update applies to adults aged 40 to 75 years who have no "
                  "clinical ASCVD. A moderate- or high-intensity statin is recommended if the estimated 10-year ASCVD "
                  "risk is 10% or greater (Class I; LOE A). In adults older than 75, the decision to start a statin "
                  "should be individualized (Class IIb; LOE C-LD).", population="adults aged 40 to 75 years")
    frames = document_frames(update)
    assert bands.start_age(frames)[0] == 40 and bands.stop_age(frames)[0] == 75
    # not where the document leaves ages inside its population to a decision: a referral threshold "recommended" in a
    # guideline for men aged 40 and older starts nothing
    guideline = _doc("ku-psa", PSA["topic"], "For men at average risk, a shared decision about PSA screening should be "
                     "offered from age 50 to 69. A PSA of 3.0 ng/mL or higher is the threshold for referral for MRI.",
                     population="men aged 40 and older")
    assert bands.start_age(document_frames(guideline))[0] == 50


def test_a_cholesterol_goal_in_mmol_per_litre_is_compared_in_mg_per_decilitre():
    def ldl(value: str, unit: str) -> list[Quantity]:
        return [Quantity(name="LDL-C", op="<", value=value, unit=unit)]

    assert targets_differ(ldl("3.0", "mmol/L"), ldl("100", "mg/dL"))  # 115 mg/dL against 100
    assert not targets_differ(ldl("2.6", "mmol/L"), ldl("100", "mg/dL"))  # the same goal, as guidelines convert it
    assert not targets_differ(ldl("1.8", "mmol/L"), ldl("70", "mg/dL"))
    leaflet = _doc("bf-statin", STATIN["topic"], "Once you are taking a statin, the aim is usually to get your LDL "
                   "cholesterol below 3.0 mmol/L.")
    guideline = _doc("ic-statin", STATIN["topic"], "Once treatment has begun, an LDL cholesterol below 100 mg/dL is a "
                     "reasonable goal (Class IIa; LOE B-NR).")
    assert ("target", ("bf-statin", "ic-statin")) in _facets(leaflet, guideline)


def test_the_test_a_document_says_its_screening_is_names_its_schedules():
    leaflet = _doc("yc-cx", CERVICAL["topic"], "Cervical screening checks a small sample of cells from your cervix for "
                   "the human papillomavirus (HPV). If you are aged 25 to 74, you should have a cervical screening "
                   "test every five years.")
    assert {f.test for f in document_frames(leaflet) if f.interval_months} == {"hrHPV testing"}
    # so its five years is an HPV schedule, against a bulletin's cytology for people in their twenties (not a schedule
    # of the same test)
    bulletin = _doc("ro-cx", CERVICAL["topic"], "From 21 through 29 years, cytology alone should be performed every 3 "
                    "years. For patients aged 30 to 65, primary high-risk HPV testing every five years is preferred.")
    frames = document_frames(bulletin) + document_frames(leaflet)
    [interval] = [c for c in find_conflicts(frames) if c.facet == "interval"]
    assert sorted(v.value for v in interval.values) == ["36 months (cytology)", "60 months (hrHPV testing)"]
    # ... which a question about HPV testing does not ask about
    assert [c for c in find_conflicts(frames, tests={"hrHPV testing"}) if c.facet == "interval"] == []
    unnamed = _doc("yc-cx", CERVICAL["topic"], "If you are aged 25 to 74, you should have a cervical screening test "
                   "every five years.")
    assert {f.test for f in document_frames(unnamed) if f.interval_months} == {None}


def test_a_question_that_names_a_test_compares_schedules_of_other_tests_only_where_it_names_them():
    assert asked_tests("Do ROGC, WNCS and YCHT agree on how often to repeat primary HPV testing?") == {"hrHPV testing"}
    assert asked_tests("How often should the FIT and colonoscopy be repeated?") == {"FIT", "colonoscopy"}
    assert asked_tests("Do they agree on when to start screening?") == frozenset()
    bulletin = _doc("ro-cx", CERVICAL["topic"], "From 21 through 29 years, cytology alone should be performed every 3 "
                    "years.")
    letter = _doc("wn-cx", CERVICAL["topic"], "Women aged 25 to 64 are invited for primary HPV testing every five "
                  "years.")
    frames = document_frames(bulletin) + document_frames(letter)

    def intervals(tests=()):
        return [c for c in find_conflicts(frames, tests=tests) if c.facet == "interval"]

    assert len(intervals()) == 1  # cytology every 3 years against HPV every 5 for people aged 25 to 29
    assert intervals(asked_tests("how often to repeat primary HPV testing")) == []
    assert len(intervals(asked_tests("how often to repeat cytology or HPV testing"))) == 1


def test_you_can_choose_to_start_leaves_a_band_to_a_decision_before_the_routine_start():
    assert _frames("If you are between 40 and 44, you can choose to start yearly mammograms now; your doctor can help "
                   "you decide whether that is right for you.", BREAST) == [
        ("individual_decision", 40, 44, [], [], 12, None, [], [])]
    leaflet = _doc("ki-breast", BREAST["topic"], "If your risk is average, we advise a mammogram every year from age "
                   "45 until you turn 55. If you are between 40 and 44, you can choose to start yearly mammograms now.")
    frames = document_frames(leaflet)
    assert bands.start_age_text(bands.start_age(frames), frames) == "45 (individual decision from 40)"


def test_a_cut_off_a_test_counts_as_abnormal_at_and_invitations_only_after_an_abnormal_result():
    assert _frames("The test now counts as abnormal when it finds 120 micrograms of haemoglobin per gram of faeces or "
                   "more, a lower cut-off than before.", CRC) == [
        ("recommend", None, None, [], [], None, "FIT", ["FIT haemoglobin >=120 µg/g"], [])]
    # invited after 65 only after an abnormal result: not everyone, so no stop age moves
    assert _frames("If you are 65 or over, you will be invited again only if one of your last three tests was "
                   "abnormal.", CERVICAL) == [("recommend", 65, None, [], ["inadequate prior screening"], None, None,
                                               [], [])]


def test_a_start_weighed_against_comorbidity_and_a_discussion_still_possible_are_individual_decisions():
    assert _frames("For people over 75, starting a statin may be considered when the expected benefit is weighed "
                   "against comorbidity and life expectancy.", STATIN)[0][:3] == ("individual_decision", 76, None)
    assert _frames("For people aged 85 or older, statins may still be discussed, but the risk calculator is not "
                   "validated.", STATIN)[0][:3] == ("individual_decision", 85, None)


def test_a_schedule_that_names_no_test_is_of_the_one_test_its_document_names():
    letter = _doc("pr-crc", CRC["topic"], "The programme invites people from age 50 and continues to invite them every "
                  "other year until their 75th birthday. The test now counts as abnormal when it finds 120 micrograms "
                  "of haemoglobin per gram of faeces or more.")
    assert {f.test for f in document_frames(letter) if f.interval_months} == {"FIT"}
    # a document naming two tests says which each schedule is: an unnamed one stays unnamed
    both = _doc("tw-crc", CRC["topic"], "FIT every two years is recommended from 50 to 74. Colonoscopy every 10 years "
                "is also recommended. Adults screened should be re-invited every two years.")
    assert [f.test for f in document_frames(both)] == ["FIT", "colonoscopy", None]
