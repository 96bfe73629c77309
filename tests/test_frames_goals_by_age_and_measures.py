"""Frames and conflicts for goals stated for most adults and for an older age band, a gapped value for people at
higher risk, a leaflet's "good goal" and definition of high blood pressure, titrating "until" a level, a quality
measure's description, "before the age of 50", a suggestion to talk with the doctor about starting, and a PSA level
"treated as raised" (``tools/frames/clauses.py``, ``action_cues.py``, ``ages.py``, ``quantities.py``,
``pairing.py``, ``conflicts.py``)."""

from __future__ import annotations

from frame_fixtures import BP, BREAST, CRC, PSA
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.ages import age_bounds
from clinrag.tools.frames.extract import document_frames, extract_frames


def _goals(text: str) -> list[tuple]:
    return [(f.action, f.population.age_min, [(q.op, q.value) for q in f.targets], [(q.op, q.value) for q in
            f.thresholds], f.population.criteria) for f in extract_frames(text, doc_meta=BP)]


def test_a_goal_for_most_adults_and_another_for_an_older_band():
    assert _goals("For most adults on treatment, the panel recommends a blood-pressure goal of less than 130/80 mm Hg, "
                  "and for those aged 80 years or older a goal below 140/90 mm Hg is reasonable.") == [
        ("recommend", None, [("<", "130/80")], [], []), ("suggest_or_consider", 80, [("<", "140/90")], [], [])]


def test_a_gapped_value_for_people_at_higher_risk():
    assert _goals("Drug therapy should be started at 140/90 mm Hg or above in every adult, and from 130/80 mm Hg in "
                  "those at high cardiovascular risk.") == [
        ("recommend", None, [], [(">=", "140/90")], []),
        ("recommend", None, [], [("=", "130/80")], ["high cardiovascular risk"])]


def test_a_leaflets_good_goal_its_definition_and_titrating_until_a_level():
    assert _goals("If you are 80 or older, a blood pressure below 150/90 is a good goal.") == [
        ("recommend", 80, [("<", "150/90")], [], [])]
    assert [f.action for f in extract_frames("You have high blood pressure if your reading at the clinic is 140/90 or "
                                             "higher.", doc_meta=BP)] == ["recommend"]
    assert _goals("Step 4: Titrate every four weeks until the office blood pressure is below 130/80 mm Hg.") == [
        ("recommend", None, [("<", "130/80")], [], [])]


def test_documents_with_the_same_goals_by_age_agree():
    """Each document's goal for 80 and older is compared with the other's, not its goal for most adults."""
    consensus = _doc("nh-bp", BP["topic"],
                     "For most adults on treatment, the panel recommends a blood-pressure goal of less than 130/80 mm "
                     "Hg, and for those aged 80 years or older a goal below 140/90 mm Hg is reasonable.")
    guideline = _doc("tm-bp", BP["topic"],
                     "A target below 130/80 mm Hg is recommended for most adults with confirmed hypertension (class I; "
                     "LOE B-R); in people aged 80 or older, a target below 140/90 mm Hg may be reasonable (class IIb; "
                     "LOE C-EO).")
    assert ("target", ("nh-bp", "tm-bp")) not in _facets(consensus, guideline)
    leaflet = _doc("yk-bp", BP["topic"], "Once you are on treatment, try to keep your clinic reading below 140/90 if "
                                         "you are under 80 years old. If you are 80 or older, below 150/90 is a good "
                                         "goal.")
    assert ("target", ("nh-bp", "yk-bp")) in _facets(consensus, leaflet)


def test_a_quality_measures_description_gives_its_ages():
    measure = _doc("zq-crc", CRC["topic"], "Description: the percentage of members 45 to 75 years of age who had "
                                           "appropriate screening for colorectal cancer.")
    assert [(f.action, f.population.age_min, f.population.age_max) for f in document_frames(measure)] == [
        ("recommend", 45, 75)]
    letter = _doc("nb-crc", CRC["topic"], "We are writing to invite you to bowel cancer screening, which we offer to "
                                          "everyone aged 50 to 74.")
    assert {("start_age", ("nb-crc", "zq-crc")), ("stop_age", ("nb-crc", "zq-crc"))} <= _facets(measure, letter)


def test_before_the_age_of_and_a_suggested_talk_about_starting():
    assert age_bounds("the decision to start screening before the age of 50 years should be an individual one") == (
        None, 49)
    frames = extract_frames("If you are at average risk, we suggest you talk with your doctor about starting yearly "
                            "mammograms at 40, and we recommend that you have one every year from age 45.",
                            doc_meta=BREAST)
    assert [(f.action, f.population.age_min) for f in frames] == [("individual_decision", 40), ("recommend", 45)]


def test_a_psa_level_treated_as_raised_is_a_threshold():
    aid = _doc("dm-psa", PSA["topic"], "A PSA level of 4 ng/mL or higher is usually treated as raised, and your doctor "
                                       "will then talk with you about an MRI scan.")
    guideline = _doc("jv-psa", PSA["topic"], "A PSA of 3.0 ng/mL or above should prompt repeat testing.")
    assert ("threshold", ("dm-psa", "jv-psa")) in _facets(aid, guideline)


def test_a_suggested_lower_goal_is_compared_between_versions_not_between_organizations():
    """Between organizations a goal suggested beside the recommended one is an option for some; a new edition that
    encourages a lower goal has changed."""
    old = _doc("ah-bp-2017", BP["topic"], "The 2017 guideline sets a treatment target under 130/80 mm Hg for most "
                                          "adults with hypertension.", org="AH", superseded_by="ah-bp-2025",
               status="superseded", issued="2017-11-13")
    new = _doc("ah-bp-2025", BP["topic"], "The 2025 guideline sets a treatment target under 130/80 mm Hg for most "
                                          "adults. The 2025 guideline encourages aiming for a lower systolic pressure, "
                                          "toward 120 mm Hg, where it is tolerated.", org="AH", issued="2025-08-14")
    assert ("target", ("ah-bp-2017", "ah-bp-2025")) in _facets(old, new)
    other = {**new, "doc_id": "es-bp", "org": "ES"}
    assert ("target", ("ah-bp-2017", "es-bp")) not in _facets({**old, "status": "current", "superseded_by": None},
                                                               other)
