"""Frames and conflicts for the same advice "or from age 45 for men of Black ancestry ...", an interval named in a
reason ("as it offers most of the benefit of annual testing"), a value per age band in a list, the life expectancy a
subgroup is set no goal for, "screening ends at 65 for people with adequately negative recent results", a replaced
schedule "rather than at three-yearly intervals", a retest after a positive result, "your first test when you are 25",
"Unlike the 2019 statement, this recommendation applies to ...", "your doctor may talk to you about it if ...", the
people a value is for ("adults with confirmed hypertension"), and a dissent (``tools/frames/``: ``clause_parts.py``,
``set_aside.py``, ``bands.py``, ``cues_against.py``, ``subgroups.py``, ``ages.py``, ``cues_for.py``, ``rules.py``,
``cues_decision.py``, ``quantity_names.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, ASPIRIN, BP, CERVICAL, LUNG, PSA, conflict_facets, conflicts_on
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.tools.frames.bands import SUBGROUP_GOAL


def test_the_same_advice_from_another_age_for_a_higher_risk_group():
    rows = _frames("Who: men from age 50 until their 70th birthday who ask about PSA testing, or from age 45 for men "
                   "of Black ancestry or whose father, brother or son was diagnosed with prostate cancer before age "
                   "65.", PSA)
    assert [(r[1], r[2], "Black ancestry" in r[3]) for r in rows] == [(50, 69, False), (45, None, True)]


def test_an_interval_named_in_a_reason_is_not_the_advice_s():
    rows = _frames("For men who choose to be screened, biennial testing is suggested, as it offers most of the benefit "
                   "of annual testing with fewer false positives.", PSA)
    assert [r[5] for r in rows] == [24]


def test_a_value_per_age_band_in_a_list():
    rows = _frames("Refer on the suspected-cancer pathway for MRI when the PSA is at or above the age-specific "
                   "threshold: 2.5 ng/mL at ages 45 to 49, 3.5 ng/mL at ages 50 to 59, and 4.5 ng/mL at ages 60 to 69.",
                   PSA)
    assert [(r[1], r[2], r[7]) for r in rows] == [(45, 49, ["PSA 2.5 ng/mL"]), (50, 59, ["PSA 3.5 ng/mL"]),
                                                  (60, 69, ["PSA 4.5 ng/mL"])]
    other = _doc("dg-psa", PSA["topic"], "For men aged 50 to 69 years, the decision to undergo PSA-based screening "
                 "should be an individual one. A PSA of 3 ng/mL or higher should be confirmed with a repeat test.")
    pathway = _doc("lp-psa", PSA["topic"], "Offer PSA testing to men aged 50 to 69 who ask for it. Refer for MRI when "
                   "the PSA is at or above the age-specific threshold: 2.5 ng/mL at ages 45 to 49, 3.5 ng/mL at ages "
                   "50 to 59, and 4.5 ng/mL at ages 60 to 69.")
    assert ("threshold", ("dg-psa", "lp-psa")) in conflict_facets(other, pathway)


def test_the_life_expectancy_a_subgroup_is_set_no_goal_for():
    old = _doc("br-dm-2018", A1C["topic"], "Recommendation 1: Clinicians should aim for an A1C below 7% in most "
               "nonpregnant adults. Recommendation 2: A less stringent goal of below 8% is reasonable for adults "
               "with a history of severe hypoglycaemia or a life expectancy of less than 5 years.", issued="2018-01-01",
               status="superseded", superseded_by="br-dm-2024")
    new = _doc("br-dm-2024", A1C["topic"], "Recommendation 1: Clinicians should aim for an A1C between 7% and 8% in "
               "most adults. Recommendation 3: In adults aged 80 or older, nursing-home residents, and people with a "
               "life expectancy of less than 10 years, clinicians should avoid targeting a specific A1C.",
               issued="2024-01-01", supersedes="br-dm-2018")
    assert [[v.value for v in c.values] for c in conflicts_on("eligibility", old, new)] == [
        [f"life expectancy ({SUBGROUP_GOAL}) < 5 years", f"life expectancy ({SUBGROUP_GOAL}) < 10 years"]]


def test_where_screening_ends_said_as_a_fact():
    rows = _frames("The age range itself is unchanged: invitations begin at 25 and screening ends at 65 for people "
                   "with adequately negative recent results.", CERVICAL)
    assert [(r[0], r[1], r[4]) for r in rows] == [("recommend_against", 66, ["adequate prior screening"])]


def test_a_replaced_schedule_rather_than_at_an_interval():
    rows = _frames("Because an HPV-negative result gives longer protection than a normal smear, the panel agreed that "
                   "people aged 25 to 65 should be screened every five years, rather than at three-yearly intervals "
                   "for those under 50 as in the 2019 edition.", CERVICAL)
    assert [(r[1], r[2], r[5]) for r in rows] == [(25, 65, 60)]


def test_a_retest_after_a_positive_result_is_no_screening_interval():
    rows = _frames("A person whose sample is HPV-positive with normal triage cytology should be retested after 12 "
                   "months.", CERVICAL)
    assert [(r[4], r[5]) for r in rows] == [(["positive result"], 12)]
    consensus = _doc("og-cvx", CERVICAL["topic"], "People aged 25 to 65 should be screened with HPV testing every five "
                     "years. A person whose sample is HPV-positive with normal triage cytology should be retested "
                     "after 12 months.")
    leaflet = _doc("jc-cvx", CERVICAL["topic"], "If you have a cervix, we will invite you for your first HPV test when "
                   "you are 25, and then every five years while your results stay clear.")
    assert not any(facet == "interval" for facet, _ in conflict_facets(consensus, leaflet))
    # the leaflet's first test at 25 is its start age
    assert [(r[1], r[5]) for r in _frames("If you have a cervix, we will invite you for your first test when you are "
                                          "25, and then every five years while your results stay clear.",
                                          CERVICAL)] == [(25, 60)]


def test_a_recommendation_that_applies_to_former_smokers_whenever_they_quit():
    rows = _frames("Unlike the 2019 statement, this recommendation applies to people who formerly smoked regardless "
                   "of how many years ago they quit, because their risk remains raised for decades after cessation.",
                   LUNG)
    assert [(r[0], "years since quitting: any" in r[3]) for r in rows] == [("recommend", True)]


def test_a_doctor_who_may_talk_to_you_about_it():
    rows = _frames("Your doctor may talk to you about it if you are between 40 and 59 and your chance of having a "
                   "heart attack or stroke in the next 10 years is 10% or more.", ASPIRIN)
    assert [(r[0], r[1], r[2], r[7]) for r in rows] == [("individual_decision", 40, 59, ["10-year CVD risk >=10 %"])]


def test_the_people_a_value_is_for_do_not_name_it():
    rows = _frames("Drug treatment should be offered to adults with confirmed hypertension whose 10-year "
                   "cardiovascular risk is 10% or more, and to everyone whose office pressure is 160/100 mm Hg or "
                   "higher.", BP)
    assert [r[7] for r in rows] == [["10-year CVD risk >=10 %", "blood pressure >=160/100 mm Hg"]]
    # (a definition still names it)
    rows = _frames("Hypertension is present when office blood pressure is 140/90 mm Hg or higher.", BP)
    assert [r[7] for r in rows] == [["hypertension >=140/90 mm Hg"]]


def test_a_dissent_recommends_nothing():
    assert _frames("Two member societies recorded a dissent, preferring the 130/80 mm Hg definition used in some "
                   "other regions.", BP) == []
