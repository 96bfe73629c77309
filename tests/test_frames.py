"""Recommendation frames: document defaults, typed conflicts, the gold-set evaluation and the stored frames'
fingerprint (sentence reading: test_frames_rules.py, test_frames_ages.py, test_frames_quantities.py; several
recommendations in one sentence: test_frames_clauses.py)."""

from __future__ import annotations

import json

import pytest

from clinrag.documents import load_documents
from clinrag.evals.frames import GOALS, evaluate_frames
from clinrag.evidence_text import disagreement_line
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames


def test_document_defaults_fill_intervention_and_sex():
    doc = {"doc_id": "x-breast", "org": "X", "issued": "2020-01-01", "status": "current",
           "topic": "breast-cancer-screening", "population": "average-risk women",
           "text": "X says patients aged 45 to 54 should be screened every year."}
    [f] = document_frames(doc)
    assert (f.intervention, f.population.sex, f.doc_id, f.org) == ("screening mammography", "female", "x-breast", "X")


def _meta(doc_id, org, issued, status="current", topic="colorectal-cancer-screening"):
    return {"doc_id": doc_id, "org": org, "issued": issued, "status": status, "topic": topic}


def test_non_overlapping_age_bands_never_conflict():
    frames = (extract_frames("The ACS discourages colorectal cancer screening for people over age 85.",
                             doc_meta=_meta("acs", "ACS", "2018-05-30"))
              + extract_frames("The ACP suggests that clinicians consider not screening adults aged 45 to 49.",
                               doc_meta=_meta("acp", "ACP", "2023-08-01")))
    assert len(frames) == 2
    assert find_conflicts(frames) == []


def test_individual_decision_band_and_recommended_band_do_not_conflict():
    topic = "breast-cancer-screening"
    frames = (extract_frames("Screening mammography at ages 40 to 49 should be an individual decision (grade C).",
                             doc_meta=_meta("a", "A", "2016-01-01", topic=topic))
              + extract_frames("B recommends screening mammography for women aged 50 to 74 years.",
                               doc_meta=_meta("b", "B", "2017-01-01", topic=topic)))
    assert [d for d in find_conflicts(frames) if d.facet == "action"] == []


def test_same_document_frames_never_conflict():
    meta = _meta("one", "ACS", "2018-05-30")
    frames = (extract_frames("The ACS recommends screening adults aged 45 to 75.", doc_meta=meta)
              + extract_frames("The ACS discourages screening adults aged 45 to 75.", doc_meta=meta))
    assert find_conflicts(frames) == []


def test_a_sentence_without_ages_is_about_the_band_the_document_recommends_within_its_population():
    """A document "for adults aged 45 or older" that recommends screening at 45 to 75: its test-options sentence is
    about 45 to 75, so it does not meet another organization's individual decision at 76 to 85."""
    a = {**_meta("a", "A", "2023-01-01"), "population": "adults aged 45 years or older at average risk",
         "text": "A recommends colorectal cancer screening in average-risk adults aged 45 to 75 years. Acceptable "
                 "strategies include FIT once a year or colonoscopy every 10 years. Screening is not recommended for "
                 "adults older than 85."}
    b = {**_meta("b", "B", "2021-01-01"), "population": "average-risk adults",
         "text": "B recommends colorectal cancer screening from age 45 through 75. In persons aged 76 through 85, the "
                 "decision to continue should be individualized."}
    frames = document_frames(a) + document_frames(b)
    assert [d for d in find_conflicts(frames) if d.facet == "action"] == []


def test_a_diagnosis_established_at_a_systolic_or_diastolic_limit_agrees_with_the_same_limit_as_a_pair():
    topic = "hypertension-thresholds"
    frames = (extract_frames("A diagnosis of hypertension is established by a sustained office blood pressure of "
                             "140 mm Hg systolic or 90 mm Hg diastolic or higher.",
                             doc_meta=_meta("a", "A", "2022-01-01", topic=topic))
              + extract_frames("Hypertension should be diagnosed when the average clinic blood pressure is 140/90 mm "
                               "Hg or more.", doc_meta=_meta("b", "B", "2023-01-01", topic=topic)))
    assert [(f.action, [(q.op, q.value) for q in f.thresholds]) for f in frames] == [
        ("recommend", [(">=", "140/90")]), ("recommend", [(">=", "140/90")])]
    assert find_conflicts(frames) == []


def test_quitting_within_the_previous_years_against_any_time_since_quitting_is_an_eligibility_disagreement():
    topic = "lung-cancer-screening"
    frames = (extract_frames("Adults aged 55 to 80 years who have smoked 20 pack-years or more, and who either still "
                             "smoke or quit within the previous 15 years, should be offered low-dose CT screening "
                             "once a year.", doc_meta=_meta("a", "A", "2024-01-01", topic=topic))
              + extract_frames("The Coalition recommends yearly low-dose CT for people aged 50 to 80 who smoke or "
                               "formerly smoked, regardless of how long ago they stopped.",
                               doc_meta=_meta("b", "B", "2023-01-01", topic=topic)))
    assert "years since quitting <= 15" in frames[0].population.criteria
    assert [d.facet for d in find_conflicts(frames) if d.facet == "eligibility"] == ["eligibility"]


@pytest.fixture(scope="module")
def corpus_conflicts():
    frames = [f for doc in load_documents() if doc.source_type == "guideline" for f in document_frames(doc)]
    return find_conflicts(frames)


def _find(conflicts, kind, facet, intervention, org=None):
    found = [d for d in conflicts if (d.kind, d.facet, d.intervention) == (kind, facet, intervention)
             and (org is None or d.values[0].org == org)]
    assert len(found) == 1, [(d.kind, d.facet, d.intervention) for d in conflicts]
    return {v.doc_id: v.value for v in found[0].values}


def test_uspstf_breast_start_age_is_a_change(corpus_conflicts):
    values = _find(corpus_conflicts, "change", "start_age", "screening mammography", org="USPSTF")
    assert values == {"uspstf-breast-2016": "50 (individual decision from 40)", "uspstf-breast-2024": "40"}


def test_offer_from_40_beside_a_choice_at_40_to_49_starts_routinely_at_50(corpus_conflicts):
    """ACOG 2017: "offer ... starting at age 40" and "may begin at ages 40 to 49 if the patient chooses, and
    should begin no later than age 50"; ACOG 2024: "should begin screening mammography at age 40"."""
    values = _find(corpus_conflicts, "change", "start_age", "screening mammography", org="ACOG")
    assert values == {"acog-breast-2017": "50 (individual decision from 40)", "acog-breast-2024": "40"}


def test_a_test_added_between_versions_is_an_action_change(corpus_conflicts):
    values = _find(corpus_conflicts, "change", "action", "cervical cancer screening", org="USPSTF")
    assert values == {
        "uspstf-cervical-2012": "hrHPV testing not among its recommended tests for ages 30-65 (co-testing, cytology)",
        "uspstf-cervical-2018": "recommend: hrHPV testing (ages 30-65)",
    }


def test_a_test_named_by_one_organization_only_is_not_a_disagreement():
    topic = "cervical-cancer-screening"
    frames = (extract_frames("A recommends high-risk HPV testing alone every 5 years for women aged 30 to 65.",
                             doc_meta=_meta("a", "A", "2020-01-01", topic=topic))
              + extract_frames("B recommends co-testing every 5 years for women aged 30 to 65.",
                               doc_meta=_meta("b", "B", "2021-01-01", topic=topic)))
    assert len(frames) == 2 and {f.test for f in frames} == {"hrHPV testing", "co-testing"}
    assert [d for d in find_conflicts(frames) if d.facet == "action"] == []


def test_a_row_names_only_the_pairs_that_conflict(corpus_conflicts):
    """USPSTF and ACS both recommend colorectal screening at 45 to 49; each conflicts with ACP's "consider not
    screening" there, not with each other, although their rows' wording differs."""
    [row] = [d for d in corpus_conflicts if (d.kind, d.facet, d.intervention)
             == ("disagreement", "action", "colorectal cancer screening")]
    assert {v.doc_id for v in row.values} == {"acs-crc-2018", "uspstf-crc-2021", "acp-crc-2023"}
    assert row.pairs == [("acp-crc-2023", "acs-crc-2018"), ("acp-crc-2023", "uspstf-crc-2021")]
    assert disagreement_line(row).endswith(" (in conflict: ACP with ACS, ACP with USPSTF)")
    [start] = [d for d in corpus_conflicts if (d.kind, d.facet, d.intervention)
               == ("disagreement", "start_age", "colorectal cancer screening")]
    assert "in conflict" not in disagreement_line(start)  # every pair of different values conflicts


def test_mammography_start_age_disagreement_lists_all_current_organizations(corpus_conflicts):
    values = _find(corpus_conflicts, "disagreement", "start_age", "screening mammography")
    assert values == {"uspstf-breast-2024": "40", "acs-breast-2015": "45 (individual decision from 40)",
                      "acr-breast-2021": "40",
                      "acog-breast-2024": "40"}


def test_acp_and_uspstf_colorectal_start_age_is_a_disagreement(corpus_conflicts):
    values = _find(corpus_conflicts, "disagreement", "start_age", "colorectal cancer screening")
    assert values["acp-crc-2023"] == "50" and values["uspstf-crc-2021"] == "45"
    assert "uspstf-crc-2016" not in values  # superseded versions only take part in changes


def test_lung_eligibility_and_statin_threshold_conflicts(corpus_conflicts):
    change = _find(corpus_conflicts, "change", "eligibility", "low-dose CT lung cancer screening")
    assert change == {"uspstf-lung-2013": "pack-years >= 30", "uspstf-lung-2021": "pack-years >= 20"}
    statin = _find(corpus_conflicts, "disagreement", "threshold", "statin")
    assert set(statin) == {"uspstf-statin-2022", "accaha-cholesterol-2018"}


def test_conflicts_are_typed_and_serializable(corpus_conflicts):
    for d in corpus_conflicts:
        assert len({v.value for v in d.values}) >= 2
        assert json.loads(d.model_dump_json())["facet"] == d.facet


def test_evaluation_meets_goals_on_both_splits():
    report = evaluate_frames()
    for split in ("corpus", "written"):
        assert report[split]["sentences"] >= (80 if split == "corpus" else 20)
        for field, goal in GOALS.items():
            row = report[split]["fields"][field]
            assert row["precision"] >= goal and row["recall"] >= goal, (split, field, row)


def test_the_extractor_fingerprint_covers_every_module_extraction_imports():
    """Stored frames are rebuilt when the extractor's source changes: every frames module that extraction loads
    must be part of the fingerprint."""
    import subprocess
    import sys

    from clinrag.tools.frames import storage

    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, clinrag.tools.frames.extract; print(' '.join(m for m in sys.modules "
         "if m.startswith('clinrag.tools.frames.') and m != 'clinrag.tools.frames.storage'))"],
        capture_output=True, text=True, check=True).stdout.split()
    assert loaded and {m.rsplit(".", 1)[1] + ".py" for m in loaded} <= set(storage._EXTRACTOR_MODULES)


def test_smoking_history_written_other_ways():
    f = extract_frames("The Board recommends yearly low-dose CT screening for lung cancer in people aged 50 to 80 "
                       "with 20 or more pack-years of smoking who still smoke or gave up within the last 15 years "
                       "(grade B).")[0]
    assert sorted(f.population.criteria) == ["pack-years >= 20", "smoking status: current or former",
                                             "years since quitting <= 15"]
    g = extract_frames("Annual low-dose CT lung cancer screening is recommended for individuals 50 years of age or "
                       "older with 20 pack-years or more, irrespective of the number of years since smoking "
                       "cessation (class I).")[0]
    assert "years since quitting: any" in g.population.criteria
    # "irrespective of when sexual activity began" says nothing of quitting
    h = extract_frames("Cervical cancer screening is not recommended for people under 21, irrespective of when "
                       "sexual activity began (D recommendation).")[0]
    assert h.population.criteria == []
    never = extract_frames("People who have never smoked should not be screened for lung cancer with low-dose CT "
                           "on the basis of second-hand smoke exposure alone.")[0]
    assert (never.action, never.population.conditions) == ("recommend_against", ["never smoked"])


def test_a_stool_dna_fit_test_is_not_fit():
    frames = extract_frames("Suitable strategies for colorectal cancer screening include a fecal immunochemical "
                            "test (FIT) every year, colonoscopy every 10 years, or a stool DNA-FIT test every 1 to 3 "
                            "years.")
    assert [(f.test, f.interval_months.min, f.interval_months.max, f.action) for f in frames] == [
        ("FIT", 12, 12, "recommend"), ("colonoscopy", 120, 120, "recommend"), ("mt-sDNA", 12, 36, "recommend")]
