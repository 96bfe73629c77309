"""Whom a frame is about, as the conflict summaries need it: the general population, a higher-risk group, people
selected by a high LDL cholesterol, or the people at a test result (what to do at a result, or when to test again)."""

from __future__ import annotations

from clinrag.tools.frames.schema import Frame

# criteria that make a higher-risk group, not an eligibility of the general population (as pack-years are)
RISK_GROUP_CRITERIA = frozenset({"Black ancestry", "family history", "germline mutation"})


def general(frame: Frame) -> bool:
    """A frame about the general (not high-risk, not a subgroup) population. People selected by a lower limit on
    LDL-C ("aged 20 to 75 with an LDL-C of 190 mg/dL or higher": severe hypercholesterolemia) are a subgroup; a
    band of LDL-C ("LDL-C of 70 to 189 mg/dL") describes the general population the recommendation is for, and so
    does a risk threshold stated beside the LDL-C limit ("adults aged 40 to 75 with a 10-year risk of 10% or more,
    and any adult with LDL cholesterol of 190 mg/dL or higher")."""
    return not frame.population.conditions and not higher_risk(frame) and not selected_by_ldl(frame)


def higher_risk(frame: Frame) -> bool:
    """A frame about a higher-risk group: a stated risk other than average ("high", "very high") or a criterion that
    makes one (:data:`RISK_GROUP_CRITERIA`)."""
    p = frame.population
    return p.risk not in (None, "average") or bool(RISK_GROUP_CRITERIA.intersection(p.criteria))


# levels of a screening test's result: a statement at such a level says what to do at the result ("A PSA of 3 ng/mL or
# above in a man younger than 70 should be confirmed and followed by MRI"), not whom to screen or until when
RESULT_LEVELS = frozenset({"PSA", "FIT haemoglobin", "ng/mL value"})


def at_a_result(frame: Frame) -> bool:
    """A statement of what to do at a test result (:data:`RESULT_LEVELS`); its ages bound no screening band."""
    return any(q.name in RESULT_LEVELS for q in frame.thresholds)


def retest_tier(frame: Frame) -> bool:
    """A result below the level at which to act that sets when to test again ("A baseline PSA below 1 ng/mL ...: these
    men can be retested every 5 years; men with a PSA of 1 to less than 3 ng/mL should be retested every 2 years"):
    its levels are tiers of a schedule, not a threshold to compare with another document's referral level."""
    levels = [q for q in frame.thresholds if q.name in RESULT_LEVELS]
    return frame.interval_months is not None and bool(levels) and all(q.op in ("<", "<=", "range") for q in levels)


def selected_by_ldl(frame: Frame) -> bool:
    """People selected by a lower limit on LDL-C and no 10-year risk ("with an LDL-C of 190 mg/dL or higher"), a
    subgroup (:func:`general`)."""
    return any(q.name == "LDL-C" and q.op in (">=", ">") for q in frame.thresholds) and not any(
        q.name == "10-year CVD risk" for q in frame.thresholds)
