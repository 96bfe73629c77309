"""Frames and conflicts for a schedule of those who chose testing, readings spoken as "130 over 80", a leaflet's
definition with the reading first, a change note's "now defines", age groups a statement includes or grades, "target
organ damage", a risk the population is without, intervals written "per 12 months", "need not be repeated for" and
"next be invited in", a measure of avoidance, an order set's numbered steps and labelled target, a goal "is
recommended", a lung health check and a recall after a negative HPV test (``tools/frames/action_cues.py``,
``quantities.py``, ``quantity_names.py``, ``ages.py``, ``intervals.py``, ``extract.py``, ``rules.py``,
``lexicon.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, CERVICAL, CRC, LUNG, PSA
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.tools.frames.ages import age_bounds
from clinrag.tools.frames.extract import document_frames, extract_frames


def _values(text: str, meta: dict) -> list[tuple]:
    """(intervention, action, age_min, age_max, thresholds, targets) of each frame of one sentence."""
    return [(f.intervention, f.action, f.population.age_min, f.population.age_max,
             [(q.op, q.value) for q in f.thresholds], [(q.op, q.value) for q in f.targets])
            for f in extract_frames(text, doc_meta=meta)]


def test_a_schedule_for_those_who_chose_testing_is_their_decision():
    assert _summary("If he chooses testing, order a total PSA and repeat it every year.", PSA) == [
        ("individual_decision", None, None, None, 12)]
    assert _summary("If you decide to have the test, it is usually repeated every two years.", PSA) == [
        ("individual_decision", None, None, None, 24)]
    # a leaflet and a pathway that both leave testing to the man agree on the action, and differ on the interval
    leaflet = _doc("lf-psa", PSA["topic"], "This leaflet is for men aged 55 to 69. Whether to be tested is your "
                   "choice. If you decide to be tested, the test is usually repeated every two years.")
    pathway = _doc("pw-psa", PSA["topic"], "Step 1: Identify men aged 55 to 69 without urinary symptoms. Step 2: "
                   "Offer a shared decision-making conversation. Step 3: If he chooses testing, order a PSA and "
                   "repeat it annually.")
    found = _facets(leaflet, pathway)
    assert ("interval", ("lf-psa", "pw-psa")) in found
    assert ("action", ("lf-psa", "pw-psa")) not in found


def test_a_reading_spoken_as_over_is_a_reading_not_an_age():
    assert _values("Once you are on treatment, try to keep it below 135 over 85.", BP) == [
        ("blood-pressure target", "recommend", None, None, [], [("<", "135/85")])]
    # the reading first, then what it means
    assert _values("If your readings are 140 over 90 or higher at two visits, you have high blood pressure.", BP) == [
        ("blood-pressure threshold", "recommend", None, None, [(">=", "140/90")], [])]
    # an age over 80 stays an age
    assert _values("Adults over 80 should aim for a blood pressure below 150/90 mm Hg.", BP) == [
        ("blood-pressure target", "recommend", 81, None, [], [("<", "150/90")])]
    leaflet = _doc("lf-bp", BP["topic"], "If your readings are 140 over 90 or higher at two visits, you have high "
                   "blood pressure.")
    statement = _doc("st-bp", BP["topic"], "Hypertension is diagnosed when the average office blood pressure is "
                     "130/80 mm Hg or higher.")
    assert ("threshold", ("lf-bp", "st-bp")) in _facets(leaflet, statement)


def test_a_change_note_that_states_the_new_definition():
    assert _values("What's new: the Council has lowered the diagnostic threshold, so that an office blood pressure of "
                   "135/85 mm Hg or higher now defines hypertension.", BP) == [
        ("blood-pressure threshold", "recommend", None, None, [(">=", "135/85")], [])]
    # a change narrative that states no current value stays out
    assert _values("The Council has lowered the diagnostic threshold after a review of trials.", BP) == []


def test_included_and_graded_age_groups_do_not_narrow_a_statement():
    assert age_bounds("The target for adults with hypertension, including those over 80 who live independently, is "
                      "below 130/80 mm Hg.") == (None, None)
    assert age_bounds("Screening is recommended beginning at age 45 and continuing until age 75 (Grade A for ages 50 "
                      "to 75; Grade B for ages 45 to 49).") == (45, 75)
    # bands that contradict each other without a grade keep the first
    assert age_bounds("Adults aged 50 to 75, and adults aged 40 to 45.") == (50, 75)


def test_target_organ_damage_is_no_target_and_lifestyle_first_is_no_diabetes():
    assert _values("Offer medication to adults with target organ damage and a clinic blood pressure of 150/95 mm Hg or "
                   "higher.", BP) == [("blood-pressure threshold", "recommend", None, None, [(">=", "150/95")], [])]
    f = extract_frames("Adults with stage 1 hypertension and a low 10-year risk should start with lifestyle measures "
                       "alone.", doc_meta=BP)
    assert [x.population.conditions for x in f] == [[]]
    f = extract_frames("For adults whose diabetes is managed with lifestyle measures alone, an A1C goal below 6.5% is "
                       "reasonable.", doc_meta=A1C)
    assert [x.population.conditions for x in f] == [["diabetes managed by diet alone"]]


def test_a_risk_the_population_is_without():
    f = extract_frames("The plan covers colorectal cancer screening for members aged 45 through 75 who have no "
                       "personal or family history that puts them at increased risk.", doc_meta=CRC)
    assert [(x.population.risk, x.population.age_min, x.population.age_max) for x in f] == [(None, 45, 75)]
    f = extract_frames("Members at increased risk because of a family history are covered from age 40.", doc_meta=CRC)
    assert [x.population.risk for x in f] == ["high"]


def test_intervals_per_period_not_repeated_for_and_next_invited():
    assert _summary("Covered screening services are limited to one FIT per 12 months or one colonoscopy every 10 "
                    "years.", CRC) == [("recommend", "FIT", None, None, 12),
                                       ("recommend", "colonoscopy", None, None, 120)]
    assert _summary("A FIT should be done every year; a normal colonoscopy need not be repeated for ten years.",
                    CRC) == [("recommend", "FIT", None, None, 12), ("recommend", "colonoscopy", None, None, 120)]
    assert _summary("Everyone aged 25 to 64 is invited, and if no HPV is found you will next be invited in five "
                    "years.", CERVICAL) == [("recommend", "hrHPV testing", 25, 64, 60)]


def test_a_measure_of_avoidance_recommends_nothing_in_its_parts():
    measure = _doc("qm-psa", PSA["topic"], "Measure QM-4: Avoidance of PSA screening in men aged 75 and older. "
                   "Denominator: men aged 75 years or older seen in primary care during the measurement year. "
                   "Numerator: men in the denominator who had no screening PSA test during the measurement year.")
    assert [(f.action, f.population.age_min) for f in document_frames(measure)] == [("recommend_against", 75)]
    # a measure of what should be done still recommends in its parts
    done = _doc("qd-psa", PSA["topic"], "Measure QD-2: Shared decision-making before PSA screening. Denominator: men "
                "aged 55 to 69 with a PSA test during the measurement year.")
    assert "recommend" in [f.action for f in document_frames(done)]


def test_an_order_sets_numbered_steps_labelled_target_and_a_goal_that_is_recommended():
    assert _summary("(1) Order HbA1c at diagnosis and every 3 months until stable.", A1C) == [
        ("recommend", None, None, None, 3)]
    assert _values("(2) Usual individual target: HbA1c 53 to 58 mmol/mol (7% to 7.5%), recorded in the care plan.",
                   A1C) == [("A1C target", "recommend", None, None, [], [("range", "53-58"), ("range", "7-7.5")])]
    assert _values("For most adults with type 2 diabetes, an A1C below 7.5% is recommended.", A1C) == [
        ("A1C target", "recommend", None, None, [], [("<", "7.5")])]
    # a level at which to act is still a threshold
    assert _values("(4) Consider reducing therapy when HbA1c falls below 6.5%.", A1C) == [
        ("A1C target", "suggest_or_consider", None, None, [("<", "6.5")], [])]


def test_an_invitation_to_a_lung_health_check():
    assert _values("Your records show that you are aged 55 to 74 and have smoked, so we are inviting you to a free "
                   "lung health check.", LUNG) == [("low-dose CT lung cancer screening", "recommend", 55, 74, [], [])]
