"""Frames and conflicts for a first invitation "when you turn 25" and invitations that "continue to be invited from",
a quality measure's numerator changed in a change note, years since quitting that "should not be used as an
eligibility criterion" or are "no longer checked", "computed tomographic colonography", a "negative hrHPV result", a
second band for a risk group ("or 45 to 69 if he is of Black African or Caribbean ancestry"), adults with diabetes
for aspirin, and the schedules a question asks about for an age band (``tools/frames/programme_cues.py``,
``quantities.py``, ``subgroups.py``, ``populations.py``, ``rules.py``, ``lexicon.py``, ``clauses.py``, ``conflicts.py``;
``clinrag/question/understanding.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, CERVICAL, CRC, LUNG, PSA
from frame_fixtures import conflict_facets as _facets
from frame_fixtures import make_doc as _doc
from frame_fixtures import summary as _summary

from clinrag.question.understanding import asked_ages, narrowed_facets, person
from clinrag.tools.frames.conflicts import ALL_FACETS, BAND_FACETS, find_conflicts
from clinrag.tools.frames.extract import document_frames, extract_frames


def test_a_first_invitation_and_invitations_that_continue_set_the_ages():
    assert _summary("You will get your first invitation when you turn 25, and we will invite you again every "
                    "five years.", CERVICAL) == [("recommend", None, 25, None, 60)]
    assert _summary("Eligible people continue to be invited from the age of twenty-five until their 65th birthday.",
                    CERVICAL) == [("recommend", None, 25, 64, None)]
    leaflet = _doc("kl-cx", CERVICAL["topic"], "You will get your first invitation when you turn 25. You should keep "
                   "going for screening until you are 65.")
    statement = _doc("dc-cx", CERVICAL["topic"], "The College recommends cytology every 3 years for women aged 21 to "
                     "29 years. For women aged 30 to 65 years, the College recommends primary HPV testing every 5 "
                     "years.")
    assert ("start_age", ("dc-cx", "kl-cx")) in _facets(leaflet, statement)


def test_a_measures_numerator_changed_in_a_change_note_is_its_goal():
    """"the numerator threshold ... has been tightened to an HbA1c below 7.0%" is what the measure now counts as good
    control for those ages; "the numerator continues to require ... under 8.0%" for the others."""
    sentence = ("Changes for this measurement year: the numerator threshold for patients aged 18 to 64 has been "
                "tightened to an HbA1c below 7.0% (53 mmol/mol).")
    [frame] = extract_frames(sentence, doc_meta=A1C)
    assert (frame.action, frame.population.age_min, frame.population.age_max) == ("recommend", 18, 64)
    assert [f"{q.name} {q.text()}" for q in frame.targets] == ["A1C <7 %", "A1C <53 mmol/mol"]
    [older] = extract_frames("For patients aged 65 to 75 the numerator continues to require a most recent HbA1c under "
                             "8.0%.", doc_meta=A1C)
    assert (older.population.age_min, [f"{q.name} {q.text()}" for q in older.targets]) == (65, ["A1C <8 %"])
    old = {**_doc("wq-2018", A1C["topic"], "Numerator: patients aged 18 to 75 whose most recent HbA1c in the "
                  "measurement year is less than 8.0%."), "status": "superseded", "superseded_by": "wq-2024"}
    new = {**_doc("wq-2024", A1C["topic"], sentence), "issued": "2024-01-01"}
    frames = document_frames(old) + document_frames(new)
    assert {(c.kind, c.facet) for c in find_conflicts(frames, replaced_on={"wq-2018": "2024-01-01"})} == {
        ("change", "target")}


def test_years_since_quitting_that_no_longer_count_are_no_limit():
    for sentence in ("The number of years since quitting should not be used as an eligibility criterion to begin or "
                     "to stop screening.",
                     "Step 2: Confirm a smoking history of 20 or more pack-years; former smokers are eligible however "
                     "long ago they quit, so years since quitting is no longer checked."):
        frames = extract_frames(sentence, doc_meta=LUNG)
        assert frames and {f.action for f in frames} == {"recommend"}, sentence
        assert any("years since quitting: any" in f.population.criteria for f in frames), sentence
    window = _doc("tc-lung", LUNG["topic"], "The Society recommends yearly low-dose CT screening for adults aged 50 "
                  "to 80 who have smoked at least 20 pack-years and who still smoke or stopped within the last 15 "
                  "years.")
    any_time = _doc("tt-lung", LUNG["topic"], "The Society recommends annual low-dose CT screening for adults aged 50 "
                    "to 80 with a 20 or more pack-year history of smoking. The number of years since quitting should "
                    "not be used as an eligibility criterion to begin or to stop screening.")
    assert _facets(window, any_time) == {("eligibility", ("tc-lung", "tt-lung"))}


def test_each_colorectal_test_keeps_its_own_interval():
    """"a faecal immunochemical test every year; computed tomographic colonography every 5 years" is FIT yearly: the
    written-out CT colonography is a test of its own, so its interval does not widen FIT's to 1 to 5 years."""
    frames = extract_frames("Acceptable strategies include colonoscopy every 10 years or a faecal immunochemical test "
                            "every year; computed tomographic colonography every 5 years may be considered when "
                            "neither is acceptable.", doc_meta=CRC)
    assert {f.test: (f.interval_months.min, f.interval_months.max) for f in frames} == {
        "colonoscopy": (120, 120), "FIT": (12, 12), "CT colonography": (60, 60)}


def test_a_negative_hpv_result_names_the_test():
    [frame] = extract_frames("Everyone with a negative hrHPV result, at any age in the programme, is recalled at "
                             "five-year intervals.", doc_meta=CERVICAL)
    assert (frame.test, frame.interval_months.min) == ("hrHPV testing", 60)


def test_a_band_narrows_the_schedule_when_the_question_asks_how_often_for_it():
    """The part of the question that names the band is what it asks for those ages: "how often ... for people aged
    30 to 64" narrows schedules to 30-64, "the FIT interval, and the advice for adults aged 45 to 49" does not."""
    how_often = "Do A and B agree on how often primary HPV testing should be repeated for people aged 30 to 64?"
    listed = ("What changed between the 2017 and 2024 statements on the starting age, the FIT interval, and the advice "
              "for average-risk adults aged 45 to 49?")
    between = "How often should women between 30 and 65 be screened?"
    dad = "Should my 72 year old dad still get PSA tests every year?"
    assert narrowed_facets(how_often, asked_ages(how_often, None), None) == BAND_FACETS | {"interval"}
    assert narrowed_facets(listed, asked_ages(listed, None), None) == BAND_FACETS
    assert narrowed_facets(between, asked_ages(between, None), None) == BAND_FACETS | {"interval"}
    age = person(dad)[0]
    assert narrowed_facets(dad, asked_ages(dad, age), age) == ALL_FACETS
    assert narrowed_facets("How often should women be screened?", None, None) == frozenset()
    # a Pap test every 3 years at 21-29 against HPV testing every 5 years from 25: a difference at 25-29 only
    young = _doc("dc-cx", CERVICAL["topic"], "The College recommends cytology alone every 3 years for women aged 21 "
                 "to 29 years. For women aged 30 to 65 years, the College recommends primary HPV testing every 5 "
                 "years.")
    leaflet = _doc("kl-cx", CERVICAL["topic"], "You will get your first invitation when you turn 25. If your HPV test "
                   "is negative, we will invite you again in five years. You should keep going for screening until "
                   "you are 65.")
    frames = document_frames(young) + document_frames(leaflet)
    assert "interval" in {c.facet for c in find_conflicts(frames, None, (30, 64))}
    assert "interval" not in {c.facet for c in find_conflicts(frames, None, (30, 64), BAND_FACETS | {"interval"})}
    assert "interval" in {c.facet for c in find_conflicts(frames, None, (21, 29), BAND_FACETS | {"interval"})}


def test_a_second_band_for_a_risk_group_is_a_recommendation_of_its_own():
    """"aged 50 to 69, or 45 to 69 if he is of Black African or Caribbean ancestry or has a father or brother
    diagnosed" is two recommendations: from 50 for every man, from 45 for the higher-risk groups, so the pathway's
    start age for average-risk men is 50, as the decision aid's."""
    step = ("Step 1 (eligibility check): confirm that the man has no urinary symptoms, and that he is aged 50 to 69, "
            "or 45 to 69 if he is of Black African or Caribbean ancestry or has a father or brother diagnosed with "
            "prostate cancer.")
    frames = extract_frames(step, doc_meta=PSA)
    assert [(f.population.age_min, f.population.age_max, sorted(f.population.criteria)) for f in frames] == [
        (50, 69, []), (45, 69, ["Black ancestry", "family history"])]
    pathway = _doc("sp-psa", PSA["topic"], step + " Step 2: hold a shared decision-making conversation and record the "
                   "outcome.")
    aid = _doc("um-psa", PSA["topic"], "This decision aid is for men between 50 and 69 who are deciding whether to "
               "have a PSA blood test. If you are Black or your father or brother had prostate cancer, your doctor "
               "may suggest talking about the test from age 45.")
    assert not {facet for facet, _ in _facets(pathway, aid)} & {"start_age"}


def test_adults_with_diabetes_are_their_own_population_for_aspirin_only():
    """"may be considered in adults with diabetes aged 50 to 69" does not refine a general "not recommended": it is
    about other people, so that stance still differs from another organization's "might be considered at 40 to 70";
    for a glycemic target, diabetes is everyone the guidance is about."""
    [diabetic] = extract_frames("In adults with diabetes aged 50 to 69 who are at high cardiovascular risk, low-dose "
                                "aspirin may be considered.", doc_meta=ASPIRIN)
    assert diabetic.population.conditions == ["diabetes"]
    [goal] = extract_frames("For adults with type 2 diabetes, an A1C below 7% is recommended.", doc_meta=A1C)
    assert goal.population.conditions == []
    general = _doc("zr-asa", ASPIRIN["topic"], "Aspirin is not recommended for primary prevention of cardiovascular "
                   "disease in adults without established disease, whatever their 10-year risk. In adults with "
                   "diabetes aged 50 to 69 who are at high cardiovascular risk, low-dose aspirin may be considered.")
    select = _doc("qb-asa", ASPIRIN["topic"], "Low-dose aspirin might be considered for primary prevention among "
                  "select adults 40 to 70 years of age who are at higher cardiovascular risk (Class IIb).")
    assert ("action", ("qb-asa", "zr-asa")) in _facets(general, select)
