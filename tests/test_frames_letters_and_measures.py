"""Recommendation frames of programme letters, patient leaflets, quality measures and numbered guidance, second
part (the first: test_frames_document_kinds.py): replaced ages and values, evidence grades, schedules written as
tables, and how versions that name no test compare (``tools/frames/rules.py``, ``ages.py``, ``intervals.py``,
``quantities.py``, ``conflicts.py``, ``value_comparison.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, BP, BREAST, CERVICAL, CRC, LUNG, summary
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames


def _bands(sentence: str, meta: dict) -> list[tuple]:
    return [(action, lo, hi, interval) for action, _, lo, hi, interval in summary(sentence, meta)]


def test_a_letters_new_ages_and_schedule_without_the_ones_it_replaced():
    assert _bands("From this year you will be invited for a mammogram from your 45th birthday rather than from age "
                  "50.", BREAST) == [("recommend", 45, None, None)]
    assert _bands("We will write to you once every three years, and invitations now continue until you turn 75, up "
                  "from the previous upper limit of your 71st birthday.", BREAST) == [("recommend", None, 74, 36)]
    assert _bands("Invitations are sent once every three years.", BREAST) == [("recommend", None, None, 36)]
    assert _bands("We will send your first invitation shortly before your 25th birthday and your last one before "
                  "your 65th birthday.", CERVICAL) == [("recommend", 25, 64, None)]
    assert _bands("We now invite everyone aged 25 to 64 every five years, instead of every three years for people "
                  "under 50.", CERVICAL)[0][1:3] == (25, 64)
    # what may happen to someone screened is no suggestion
    assert extract_frames("About 6 in every 100 women screened between 45 and 49 may be called back for more tests.",
                          doc_meta=BREAST) == []


def test_leaflets_and_pathways_that_say_who_can_have_it_and_when_it_ends():
    assert _bands("You can have a low-dose CT scan to check for lung cancer if you are aged 50 to 80.", LUNG) == [
        ("recommend", 50, 80, None)]
    assert _bands("Once it has been 15 years since your last cigarette, or once you turn 81, you'll stop being "
                  "invited.", LUNG) == [("recommend_against", 81, None, None)]
    assert _bands("Exit the pathway at the patient's 78th birthday.", LUNG) == [("recommend_against", 78, None, None)]
    f = extract_frames("Time since quitting is not an exclusion, so former smokers remain eligible however long ago "
                       "they stopped.", doc_meta=LUNG)
    assert [c for x in f for c in x.population.criteria if c.startswith("years since")] == ["years since quitting: any"]
    assert _bands("Step 2, frequency: a further kit is sent automatically two years after each normal result.",
                  CRC) == [("recommend", None, None, 24)]


def test_stopping_suggested_and_older_members_not_covered_routinely():
    assert _bands("We suggest that persons who are up to date with screening stop routine screening after age 75.",
                  CRC) == [("discourage", 76, None, None)]
    assert _bands("We suggest that screening continue up to age 70 and then stop for individuals whose last three "
                  "screens were negative.", CERVICAL)[0][0] != "discourage"
    assert _bands("Screening of members aged 76 or older is not considered routine and is covered only when the "
                  "clinician documents the reason.", CRC) == [("discourage", 76, None, None)]


def test_a_grade_paired_with_a_level_of_evidence_does_not_decide_the_action():
    f = extract_frames("4.4 Measure A1C at least twice a year in people who are meeting their goal, and every three "
                       "months in those whose therapy has changed [Grade D, consensus].", doc_meta=A1C)
    assert [(x.action, x.strength, x.interval_months.min, x.interval_months.max) for x in f] == [
        ("recommend", "grade D", 3, 6)]
    f = extract_frames("A1C should be measured every three months in all people treated with glucose-lowering drugs "
                       "[Grade D, consensus].", doc_meta=A1C)
    assert [x.action for x in f] == ["recommend"]
    # a USPSTF-style grade still decides
    f = extract_frames("The task force recommends against screening in men 70 years and older (Grade D).",
                       doc_meta={"topic": "prostate-cancer-screening"})
    assert [x.action for x in f] == ["recommend_against"]


def test_a_level_to_ease_treatment_is_a_threshold_and_a_table_schedule_is_read():
    f = extract_frames("Clinicians should consider deintensifying therapy in patients whose A1C is below 6.5%, because "
                       "treating to lower levels showed no benefit.", doc_meta=A1C)
    assert [([(q.op, q.value) for q in x.thresholds], x.targets) for x in f] == [([("<", "6.5")], [])]
    f = extract_frames("Read as a table, the monitoring schedule is: A1C at 3 months after any change in therapy, then "
                       "every 6 months once the patient is at goal.", doc_meta=A1C)
    assert [(x.action, x.interval_months.min) for x in f] == [("recommend", 6)]


def test_definitions_kept_unchanged_confirmations_out_of_office_and_measure_results():
    def values(sentence: str) -> list[tuple]:
        return [(q.name, q.op, q.value) for f in extract_frames(sentence, doc_meta=BP)
                for q in f.thresholds + f.targets]

    assert values("The definition of hypertension is unchanged: an office blood pressure of 140/90 mm Hg or more, "
                  "confirmed by home monitoring (average of 135/85 mm Hg or more).") == [
        ("hypertension", ">=", "140/90"), ("hypertension (home)", ">=", "135/85")]
    assert values("Out-of-office measurement is recommended to confirm the diagnosis, using a daytime ambulatory or "
                  "home average of 130/80 mm Hg or higher as the corresponding threshold.") == [
        ("hypertension (ambulatory)", ">=", "130/80")]
    assert values("Rationale: in the baseline year network performance was 61%, and the improvement goal is 70%.") == []
    assert values("Systolic blood pressure should be brought into the range of 120 to 129 mm Hg in most treated "
                  "adults, whereas the previous edition aimed first for below 140/90 mm Hg.") == [
        ("blood pressure", "range", "120-129")]


def test_goals_matched_by_measure_and_a_schedule_that_names_no_test():
    topic = BP["topic"]
    a = _doc("s", topic, "For adults with confirmed hypertension, a blood-pressure target of less than 130/80 mm Hg is "
                         "recommended, including adults aged 65 years and older, for whom the systolic target is below "
                         "130 mm Hg.")
    b = _doc("p", topic, "Numerator: patients whose most recent systolic pressure is below 140 mm Hg and diastolic "
                         "pressure below 90 mm Hg.")
    assert {c.facet for c in find_conflicts([f for d in (a, b) for f in document_frames(d)])} == {"target"}
    old = _doc("n-2019", CERVICAL["topic"], "The Programme invites everyone with a cervix from the age of 25 until "
                                            "their 65th birthday. Between 25 and 49 you will be invited every three "
                                            "years, and from 50 to 64 every five years.",
               status="superseded", superseded_by="n-2024", issued="2019-01-01")
    new = _doc("n-2024", CERVICAL["topic"], "Your sample will be tested first for HPV. We now invite everyone aged 25 "
                                            "to 64 for an HPV test every five years.", issued="2024-01-01")
    frames = [f for d in (old, new) for f in document_frames(d)]
    changes = [c for c in find_conflicts(frames, replaced_on={"n-2019": "2024-01-01"}) if c.facet == "interval"]
    assert [(c.kind, [v.value for v in c.values]) for c in changes] == [
        ("change", ["36 months (test not named)", "60 months (hrHPV testing)"])]


def test_prostate_leaflets_and_consensus_intervals_usual_practice_and_carriers():
    psa = {"topic": "prostate-cancer-screening"}
    f = extract_frames("Men who have a negative first screen should be re-invited at four-yearly intervals; the panel "
                       "did not support annual testing.", doc_meta=psa)
    assert [(x.interval_months.min, x.interval_months.max) for x in f] == [(48, 48)]
    assert _bands("If you decide to be tested and your result is normal, most men repeat the test every two years.",
                  psa) == [("individual_decision", None, None, 24)]
    assert _bands("Once you are over 75, the test is not usually offered.", psa) == [("discourage", 76, None, None)]
    f = extract_frames("Carriers of a pathogenic BRCA2 variant should be offered screening from age 40.", doc_meta=psa)
    assert [x.population.criteria for x in f] == [["germline mutation"]]
    # a change narrative states the new values (the interval it lengthened from is not one of them); its
    # "recommend" is not a stance (pairing.states_no_stance)
    assert _bands("What's new: the starting age has been lowered from 55 to 50, and the recommended interval has been "
                  "lengthened from yearly to every two years.", psa) == [("recommend", 50, None, 24)]
