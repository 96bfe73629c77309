"""Frames for a measure's "stool DNA with FIT test" (a stool DNA test, not a FIT), a pathway whose identify step is
followed by "testing is the man's choice and should not be ordered without this conversation", a step that asks a man
"to avoid ejaculation" before his test, "where screening is chosen, the interval may range from every 2 years to every
4 years", "screening can stop cancer before it starts", a letter "inviting them for a smear test once every five
years", and "your next invitation will come after ten years" for people of 40 or older inside a band that ends at 65
(``tools/frames/``: ``lexicon.py``, ``rules.py``, ``action_cues.py``, ``document_passes.py``, ``intervals.py``,
``bands.py``)."""

from __future__ import annotations

from frame_fixtures import CERVICAL, CRC, LUNG, PSA, conflict_facets
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import stop_age
from clinrag.tools.frames.extract import document_frames


def test_a_stool_dna_test_with_fit_is_a_stool_dna_test():
    rows = _frames("Numerator: members with a fecal immunochemical test during the measurement year, or a stool DNA "
                   "with FIT test during the measurement year or the two years before it.", CRC)
    assert sorted((r[6], r[5]) for r in rows) == [("FIT", 12), ("mt-sDNA", 36)]


def test_a_pathway_that_leaves_the_test_to_the_man_offers_a_decision():
    assert [r[0] for r in _frames("Step 2, talk through benefits and harms with the decision aid, because testing is "
                                  "the man's choice and should not be ordered without this conversation.", PSA)] == [
        "individual_decision"]
    # (preparing for the test is no advice against it)
    assert [r[0] for r in _frames("Step 3, if he opts in, order a total PSA and ask him to avoid ejaculation and "
                                  "vigorous exercise for 48 hours beforehand.", PSA)] == ["individual_decision"]
    pathway = _doc("ab-psa", PSA["topic"], "Step 1, identify who is eligible: men aged 50 to 69 with no urinary "
                   "symptoms. Step 2, talk through benefits and harms with the decision aid, because testing is the "
                   "man's choice and should not be ordered without this conversation.")
    assert [(f.action, f.population.age_min, f.population.age_max) for f in document_frames(pathway)] == [
        ("individual_decision", 50, 69), ("individual_decision", None, None)]
    # (an identify step of a pathway that recommends the test stays a recommendation)
    offered = _doc("cd-psa", PSA["topic"], "Step 1, identify who is eligible: men aged 50 to 69 with no urinary "
                   "symptoms. Step 2, order a PSA test every 2 years.")
    assert document_frames(offered)[0].action == "recommend"
    # (nor does a shared decision-making visit before a scan the pathway orders)
    lung = _doc("gh-lung", LUNG["topic"], "Step 1: identify patients aged 50 to 80 years with at least 20 pack-years. "
                "Step 2: hold a shared decision-making visit before the first scan. Step 3: order annual low-dose CT.")
    assert document_frames(lung)[0].action == "recommend"


def test_an_interval_for_those_who_chose_screening():
    rows = _frames("Where screening is chosen, the interval may range from every 2 years to every 4 years, guided by "
                   "the baseline PSA value.", PSA)
    assert [(r[0], r[5]) for r in rows] == [("individual_decision", 24)]
    old = _doc("ef-psa-2019", PSA["topic"], "Where screening is chosen, the interval may range from every 2 years to "
               "every 4 years.", status="superseded", superseded_by="ef-psa-2025", issued="2019-01-01")
    new = _doc("ef-psa-2025", PSA["topic"], "In men who choose screening, the PSA test should be repeated every 2 "
               "years.", supersedes="ef-psa-2019", issued="2025-01-01")
    assert ("interval", ("ef-psa-2019", "ef-psa-2025")) in conflict_facets(old, new)


def test_what_screening_can_stop_is_no_permission_to_stop_it():
    assert _frames("Cervical screening can stop cancer before it starts by finding cell changes early.", CERVICAL) == []
    # (people who can stop cervical cancer screening may stop it)
    rows = _frames("Women older than 65 who have had adequate negative prior screening can stop cervical cancer "
                   "screening.", CERVICAL)
    assert [(r[0], r[1]) for r in rows] == [("discourage", 66)]


def test_a_letter_inviting_women_at_an_interval():
    rows = _frames("In Ulvene, all women between 30 and 60 years old receive a letter inviting them for a smear test "
                   "once every five years.", CERVICAL)
    assert [(r[0], r[1], r[2], r[5]) for r in rows] == [("recommend", 30, 60, 60)]


def test_a_longer_recall_for_older_people_inside_the_programme_s_band():
    rows = _frames("If your HPV test is negative and you are 40 or older, your next invitation will come after ten "
                   "years instead.", CERVICAL)
    assert [(r[1], r[2], r[5]) for r in rows] == [(40, None, 120)]
    leaflet = _doc("gh-cervical", CERVICAL["topic"], "We now invite everyone with a cervix from age 30 until age 65. "
                   "You will usually be invited every five years. If your HPV test is negative and you are 40 or "
                   "older, your next invitation will come after ten years instead.")
    assert stop_age(document_frames(leaflet))[0] == 65
