"""Recommendation frames: how a guideline sentence's ages are read (``tools/frames/ages.py``)."""

from __future__ import annotations

import pytest
from test_frames_rules import one

from clinrag.tools.frames.ages import age_bounds
from clinrag.tools.frames.extract import extract_frames


@pytest.mark.parametrize(
    ("sentence", "bounds"),
    [("Adults 45 years and older should be screened for colorectal cancer.", (45, None)),
     ("The ACS discourages colorectal cancer screening for people over age 85.", (86, None)),
     ("Screening mammography is not recommended for women older than 75.", (76, None)),
     ("The USPSTF recommends against cervical cancer screening in women younger than 21 (grade D).", (None, 20)),
     ("Women at ages 40-49 may choose to begin screening mammography.", (40, 49)),
     ("The ACS recommends that cervical cancer screening start at age 25.", (25, None)),
     ("Past the age of 70, PSA screening is not recommended.", (71, None)),
     ("Among 50- to 59-year-olds at high cardiovascular risk, low-dose aspirin may be considered.", (50, 59)),
     ("From 45 onward, adults should be screened for colorectal cancer.", (45, None)),
     # a relative's age at diagnosis bounds nobody in the population
     ("Men whose brother had prostate cancer before age 60 should discuss PSA screening from age 40.", (40, None)),
     # symbols and events
     ("Men aged ≥ 55 y should be offered a discussion about PSA testing.", (55, None)),
     ("Patients >65 y with adequate prior negative screening can stop cervical screening.", (66, None)),
     ("Aspirin for primary prevention: do not initiate in adults ≥60 (grade D).", (60, None)),
     ("Cervical screening should stop after 65 for women with adequate prior screening (grade D).", (66, None)),
     ("The Task Force advises against cervical screening before the 21st birthday (grade D).", (None, 20)),
     ("We advise against starting aspirin for primary prevention in anyone aged 60 years or more.", (60, None)),
     ("Cervical screening is not recommended before 25 because cell changes usually clear up.", (None, 24)),
     ("Aspirin may be considered in adults <70 years at high cardiovascular risk.", (None, 69)),
     ("Women between 40 and 49 years should have the opportunity to begin screening mammography.", (40, 49)),
     ("The society suggests offering PSA testing starting at 45 to men at high risk.", (45, None)),
     ("LDCT screening should cease when a person turns 81.", (81, None)),
     ("LDCT screening should be stopped once a patient turns 81.", (81, None)),
     ("Offer PSA testing to men from 45 years of age who have a family history of prostate cancer.", (45, None)),
     ("Beyond 85, colorectal cancer screening is not recommended.", (86, None)),
     ("Atorvastatin 20 mg should be offered to people aged 84 and under with a 10-year risk of 10% or more.",
      (None, 84)),
     # a changed start age: the new age bounds the people, the old one nobody
     ("The task force raised the starting age from 21 to 25 and now recommends HPV testing every 5 years for people "
      "aged 25 through 65.", (25, 65))],
)
def test_age_bounds(sentence, bounds):
    f = one(sentence)
    assert (f.population.age_min, f.population.age_max) == bounds


@pytest.mark.parametrize(
    ("sentence", "bounds"),
    [("People in their 50s should be screened for colorectal cancer.", (50, 59)),
     ("Aspirin may be considered for adults in their 40s and 50s at high cardiovascular risk.", (40, 59)),
     ("Screening mammography every 2 years is recommended for women ≥ 50 years of age.", (50, None)),
     ("Men ≤ 69 years old may be offered PSA-based screening.", (None, 69))],
)
def test_age_bounds_in_decades_and_symbols_before_years(sentence, bounds):
    f = one(sentence)
    assert (f.population.age_min, f.population.age_max) == bounds


@pytest.mark.parametrize(
    ("text", "bounds"),
    [("the society lowered the starting age for colorectal cancer screening from 50 to 45", (45, None)),
     ("the stopping age for mammography was moved from 74 to 79", (None, 79)),
     ("screening from 50 to 74", (50, 74))],
)
def test_a_changed_start_or_stop_age_bounds_by_its_new_value(text, bounds):
    assert age_bounds(text) == bounds


def test_between_two_ages_without_years():
    f = one("If you're between 45 and 75, a stool DNA test every 3 years is an option you can consider.")
    assert (f.population.age_min, f.population.age_max, f.test) == (45, 75, "mt-sDNA")


def test_ages_by_decade_word_and_between_without_years():
    f = one("Consider tomosynthesis for women in their forties.")
    assert (f.intervention, f.population.age_min, f.population.age_max) == ("digital breast tomosynthesis", 40, 49)
    f = one("People between 50 and 74 should do a bowel cancer screening test every 2 years.")
    assert (f.intervention, f.population.age_min, f.population.age_max) == ("colorectal cancer screening", 50, 74)
    # a value between two numbers with a unit is not an age band
    f = one("Adults with hypertension should be treated to a systolic pressure between 120 and 129 mm Hg.")
    assert (f.population.age_min, f.population.age_max) == (None, None)


def test_ages_written_in_words():
    f = one("People aged forty-five to seventy-four should do a faecal immunochemical test every two years.")
    assert (f.population.age_min, f.population.age_max, f.test, f.interval_months.min) == (45, 74, "FIT", 24)


def test_two_age_bands_that_do_not_meet_joined_by_or_are_two_populations():
    frames = extract_frames("Clinicians should not screen men younger than 50 or aged 75 and over with PSA (grade D).")
    assert [(f.population.age_min, f.population.age_max, f.action) for f in frames] == [
        (None, 49, "recommend_against"), (75, None, "recommend_against")]


def test_a_start_verb_before_the_intervention_and_the_age():
    f = one("National programmes should start bowel screening at 50 with a FIT every two years.")
    assert (f.population.age_min, f.population.age_max, f.test) == (50, None, "FIT")


def test_a_start_age_after_a_longer_phrase_and_a_relatives_cancer_away_from_the_age():
    f = one("Women should start having a mammogram every other year at 40.")
    assert (f.population.age_min, f.interval_months.min) == (40, 24)
    f = one("Men whose father had prostate cancer may be offered a PSA test from the age of 45.")
    assert (f.population.age_min, f.population.age_max) == (45, None)


def test_until_a_person_turns_an_age_is_the_year_before():
    """"until they turn 75" is "before their 75th birthday": to 74 ("until age 75" is to 75)."""
    f = one("Adults at average risk should be screened for colorectal cancer from age 45 until they turn 75.")
    assert (f.population.age_min, f.population.age_max) == (45, 74)
    f = one("Adults at average risk should be screened for colorectal cancer from age 45 until age 75.")
    assert (f.population.age_min, f.population.age_max) == (45, 75)
    # turning an age without "until" starts the band
    assert one("Mammography should begin when a woman turns 40.").population.age_min == 40


def test_bands_of_a_table_written_as_prose():
    frames = extract_frames("Cervical screening by age: 25-49, cytology every 3 years (grade A); 50-64, cytology "
                            "every 5 years (grade A).")
    assert [(f.population.age_min, f.population.age_max, f.interval_months.min) for f in frames] == [
        (25, 49, 36), (50, 64, 60)]
    # a band that does not open the part is not read as ages
    assert one("Offer cytology every 3 years, with 25-49 as the usual ages (grade A).").population.age_min is None


def test_birthdays_bound_the_band():
    """"from her 50th birthday up to her 71st birthday" is 50-70: the 71st birthday ends it."""
    f = one("The programme invites every woman for a screening mammogram once every three years, from her 50th "
            "birthday up to her 71st birthday.")
    assert (f.population.age_min, f.population.age_max) == (50, 70)
    assert (f.interval_months.min, f.action) == (36, "recommend")


def test_two_bands_with_the_people_named_twice():
    frames = extract_frames("The evidence is insufficient to assess aspirin use for primary prevention in adults "
                            "younger than 50 years or adults aged 70 years or older (I statement).")
    assert [(f.population.age_min, f.population.age_max) for f in frames] == [(None, 49), (70, None)]
    assert {f.action for f in frames} == {"insufficient_evidence"}


def test_whatever_the_time_since_quitting_is_any():
    f = extract_frames("The panel agrees that low-dose CT screening should be offered to people from 50 years of age "
                       "who have smoked at least 20 pack-years, whatever the time since they stopped smoking.",
                       doc_meta={"topic": "lung-cancer-screening"})
    assert "years since quitting: any" in f[0].population.criteria
