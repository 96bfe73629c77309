"""Per-document summaries of frames: effective age bands, start age, stop age and eligibility criteria.

A sentence often states only one end of a band ("begin at age 40", "continue until at least age 75") or none
("screen every 1 or 2 years"). Within one document and intervention the other end is implied by its other
frames, so an open end is closed by the document's own later band: "begin at 45" followed by "through 75" and
"76 to 85: individualized" is 45-75, not 45 to any age. A band-less frame takes the document's stated
population (``scope``) or else the span of its recommended bands. Only condition-free frames about the
general/average-risk population shape these summaries.
"""

from __future__ import annotations

import re
from typing import Any

from clinrag.tools.frames import rules
from clinrag.tools.frames.groups import RISK_GROUP_CRITERIA, at_a_result, general
from clinrag.tools.frames.schema import RECOMMEND_LIKE, STANCE, Frame

NO_UPPER_LIMIT = "no upper age limit"


def _decision_bands(frames: list[Frame]) -> list[tuple[int, int]]:
    """Closed age bands a document leaves to an individual decision ("may begin at ages 40 to 49 if the patient
    chooses"). A decision for the people of those ages within a band of a measure ("members aged 40 through 75 with
    a calculated risk of 7.5 % to less than 10 %") leaves the others of those ages to the document's other
    statements, and is no such band."""
    return [
        (f.population.age_min, f.population.age_max)
        for f in frames
        if f.action == "individual_decision"
        and general(f)
        and not f.thresholds
        and f.population.age_min is not None
        and f.population.age_max is not None
    ]


def _unaged(frames: list[Frame], actions: frozenset[str] | set[str]) -> list[Frame]:
    """Statements about the general population that state no ages, in a document that states its population: the
    statement is about that population ("Step 2, discuss: PSA screening is an individual decision" in a pathway for
    men aged 55 to 69; "A statin is recommended if the 10-year risk is 10% or greater" in an update that "applies to
    adults aged 40 to 75"). A recommendation so stated is not about the whole population where the document leaves
    ages inside it to an individual decision (a referral threshold "recommended" in a guideline for men aged 40 and
    older that leaves screening at 50 to 69 to a shared decision)."""
    def decided_inside(scope: Any) -> bool:
        lo, hi = scope.age_min or 0, scope.age_max or 200
        return any(f.action == "individual_decision" and general(f) and f.population.age_min is not None
                   and lo <= f.population.age_min <= hi for f in frames)

    return [f for f in frames if f.action in actions and general(f) and f.scope
            and f.population.age_min is None and f.population.age_max is None
            and (f.action == "individual_decision" or not decided_inside(f.scope))]


def start_age(frames: list[Frame]) -> tuple[int, Frame] | None:
    """The lowest age at which one document recommends (or suggests/offers) the intervention routinely; for a
    document that recommends it to no one but leaves it to an individual decision from some age on (PSA-based
    screening: "the decision ... for men aged 55 to 69 is an individual one", "the discussion should start at age
    50"), the lowest age of that decision, where screening starts being offered.

    A recommendation that starts inside a closed band the same document leaves to an individual decision does
    not start the routine band: "offer screening mammography starting at age 40" beside "may begin at ages 40 to
    49 if the patient chooses, and should begin no later than age 50" starts routinely at 50 (the narrower,
    closed band says what the open one means for those ages).

    A recommendation or decision stated without ages, in a document that states ages for neither, is about the
    document's own population ("Step 2, discuss: PSA screening is an individual decision" in a pathway for men aged 55
    to 69; a statin "recommended if the 10-year risk is 10% or greater" in an update for adults aged 40 to 75)."""
    decided = _decision_bands(frames)
    for actions in (RECOMMEND_LIKE, {"individual_decision"}):
        cands = [
            (f.population.age_min, f)
            for f in frames
            if f.action in actions and general(f) and not at_a_result(f) and f.population.age_min is not None
        ]
        if not cands:
            cands = [(f.scope.age_min, f) for f in _unaged(frames, actions) if f.scope.age_min is not None]
        if actions == RECOMMEND_LIKE:
            cands = [(a, f) for a, f in cands if not any(lo <= a <= hi for lo, hi in decided)] or cands
        if cands:
            return min(cands, key=lambda t: t[0])
    return None


def start_age_text(start: tuple[int, Frame] | None, frames: list[Frame]) -> str | None:
    """The start age (:func:`start_age` of ``frames``) as the document states it, with the band left to an
    individual decision before it: "50 (individual decision from 40)"."""
    if start is None:
        return None
    age, frame = start
    if frame.action not in RECOMMEND_LIKE:
        return str(age)
    earlier = [lo for lo, hi in _decision_bands(frames) if lo < age <= hi + 1]
    return f"{age} (individual decision from {min(earlier)})" if earlier else str(age)


def _cap(frame: Frame, frames: list[Frame]) -> int | None:
    """Upper end implied for an open band: one below the next band of the same document that starts later."""
    lo = frame.population.age_min
    later = [
        f.population.age_min
        for f in frames
        if f is not frame
        and general(f)
        and f.population.age_min is not None
        and lo is not None
        and f.population.age_min > lo
    ]
    return min(later) - 1 if later else None


def stop_age(frames: list[Frame]) -> tuple[int | str, Frame] | None:
    """Upper end of the recommended band, "no upper age limit" when a later recommended band is left open, the upper
    end of a band left to an individual decision when none is recommended, or one below the first age of an
    open-ended band recommended against ("over 85"; a closed band such as "not at 45 to 49" is not a stop); None
    when the document does not say."""
    rec = [f for f in frames if f.action in RECOMMEND_LIKE and general(f) and not at_a_result(f)]
    # "screening should not stop at a set age"
    if continuing := next((f for f in rec if rules.CONTINUES.search(f.sentence)), None):
        return NO_UPPER_LIMIT, continuing
    start = start_age(frames)
    for f in rec:
        p = f.population
        if p.age_min is not None and p.age_max is None and _cap(f, frames) is None and start and p.age_min > start[0]:
            # (not a schedule for the older people of a closed band: "from age 30 until age 65" beside "If your HPV
            # test is negative and you are 40 or older, your next invitation will come after ten years")
            if f.interval_months and any(g.population.age_min is not None and g.population.age_max is not None
                                         and g.population.age_min <= p.age_min <= g.population.age_max for g in rec):
                continue
            # (nor what may be considered beyond a recommended band that ends: "Offer atorvastatin 20 mg to adults
            # aged 40 to 84 ...; for people aged 85 or over, atorvastatin may be considered" stops at 84)
            if f.action == "suggest_or_consider" and any(
                    g.action == "recommend" and g.population.age_max is not None and g.population.age_max < p.age_min
                    for g in rec):
                continue
            return NO_UPPER_LIMIT, f
    bounded = [(f.population.age_max if f.population.age_max is not None else _cap(f, frames), f) for f in rec]
    bounded = [(a, f) for a, f in bounded if a is not None]
    # recommendations stated without ages are about the document's own population, as in :func:`start_age`
    bounded = bounded or [(f.scope.age_max, f) for f in _unaged(frames, RECOMMEND_LIKE) if f.scope.age_max is not None]
    against = _open_against(frames)
    if bounded:
        age, frame = max(bounded, key=lambda t: t[0])
        if (frame.interval_months and frame.population.age_max is not None
                and (stated_stop := _stop_after_gap(age, against, frames))):
            return stated_stop
        return _before_own_stop(age, against), frame
    # a document that recommends to no one but leaves a band to an individual decision ("men aged 55 to 69 ...
    # shared decision-making") stops where that band ends, as it starts where the band starts (:func:`start_age`)
    decided = [(f.population.age_max, f) for f in frames
               if f.action == "individual_decision" and general(f) and f.population.age_max is not None]
    # a decision stated without ages is about the document's own population (a decision aid "for men aged 55 to
    # 69"), as in :func:`start_age`
    decided = decided or [(f.scope.age_max, f) for f in _unaged(frames, {"individual_decision"})
                          if f.scope.age_max is not None]
    if decided:
        age, frame = max(decided, key=lambda t: t[0])
        return _before_own_stop(age, against), frame
    return min(against, key=lambda t: t[0]) if against else None


def _open_against(frames: list[Frame]) -> list[tuple[int, Frame]]:
    """(the age before it, frame) for each open-ended band a document advises against ("over 85", "once you reach
    70, we advise stopping")."""
    return [
        (f.population.age_min - 1, f)
        for f in frames
        if f.action in ("recommend_against", "discourage")
        and (general(f) or _ended_routine(f))
        and f.population.age_min is not None
        and f.population.age_max is None
    ]


def _stop_after_gap(age: int, against: list[tuple[int, Frame]], frames: list[Frame]) -> tuple[int, Frame] | None:
    """A stop the document states more than a year beyond its last recommended band, when that band is one tier of a
    schedule with its own ages and nothing is said of the ages between: "people aged 25 to 49 whose HPV test is
    negative are now recalled every five years" beside "routine screening stops at the 65th birthday" stops at 64; not
    where another statement fills the gap (an individual decision from 76 to 85 before "not over 85", also one for
    those never screened: the routine band's end, 75, is the stop)."""
    later = [(a, f) for a, f in against if a > age + 1]
    if not later:
        return None
    stop, frame = min(later, key=lambda t: t[0])
    filled = any(g.population.age_min is not None and age < g.population.age_min <= stop
                 or g.population.age_max is not None and age < g.population.age_max <= stop
                 for g in frames if g is not frame)
    return None if filled else (stop, frame)


def _before_own_stop(age: int, against: list[tuple[int, Frame]]) -> int:
    """A band's upper end that is the first age its own document advises against is the year before it ("from your
    50th birthday until you turn 70" beside "once you reach 70, we advise stopping": to 69)."""
    return age - 1 if any(a + 1 == age for a, _ in against) else age


def _ended_routine(frame: Frame) -> bool:
    """Routine screening's end, stated for the adequately screened ("after age 65, screening should stop for
    individuals with adequate negative prior screening"): the usual way a stop age is written where those who were
    not adequately screened go on."""
    return frame.population.conditions == ["adequate prior screening"] and not frame.population.criteria


def band_label(lo: int, hi: int) -> str:
    """An effective band as the answer writes it: "ages 40-74", "ages 75-up" (200 = no upper end), "ages up to 24"
    (0 = no lower end), "all ages"."""
    if not lo and hi >= 200:
        return "all ages"
    if not lo:
        return f"ages up to {hi}"
    return f"ages {lo}-{hi if hi < 200 else 'up'}"


def band(frame: Frame, frames: list[Frame]) -> tuple[int, int]:
    """Effective inclusive age band of a frame among its document's frames for the same intervention."""
    p = frame.population
    if p.age_min is None and p.age_max is None:
        scoped = frame.scope and (frame.scope.age_min is not None or frame.scope.age_max is not None)
        if frame.intervention.endswith(("target", "threshold")):
            # targets and thresholds have no recommended age band to inherit
            return (frame.scope.age_min or 0, frame.scope.age_max or 200) if scoped else (0, 200)
        start, stop = start_age(frames), stop_age(frames)
        if start and start[1].action not in RECOMMEND_LIKE and start[1].population.age_max is None:
            # an open band left to a decision at older ages ("people aged 85 and over: individualised") is where the
            # document's recommendation ends, not where it starts
            start = None
        lo, hi = (start[0] if start else 0), (stop[0] if stop and isinstance(stop[0], int) else 200)
        if scoped:
            # the document's stated population, narrowed to the band it recommends when it states one ("adults
            # aged 45 or older" recommending screening at 45 to 75: a test-options sentence is about 45 to 75)
            s_lo, s_hi = frame.scope.age_min or 0, frame.scope.age_max or 200
            narrowed = max(s_lo, lo), min(s_hi, hi)
            return narrowed if narrowed[0] <= narrowed[1] else (s_lo, s_hi)
        return (lo, hi) if lo <= hi else (0, 200)
    # an open lower end: from the document's start age for a recommended band ("continue up to 75"), from birth for
    # one advised against ("not recommended before age 25")
    lo = p.age_min if p.age_min is not None else (
        (start_age(frames) or (0, None))[0] if frame.action in RECOMMEND_LIKE else 0)
    hi = p.age_max if p.age_max is not None else (_cap(frame, frames) or _stop_above(lo, frames) or 200)
    if frame.action not in ("recommend_against", "discourage"):
        hi = _before_own_stop(hi, _open_against(frames))  # "until you turn 70" beside "once you reach 70, stop"
    # a start age above the frame's own upper end belongs to another band ("aged 84 and under" beside "85 and over:
    # may be considered"): the band is open below
    return (lo if lo <= hi else 0), hi


def _stop_above(lo: int, frames: list[Frame]) -> int | None:
    """The document's stop age closing an open band that starts below it ("from your 50th birthday ... every two
    years" beside "the last kit is posted in the year you turn 74")."""
    stop = stop_age(frames)
    return stop[0] if stop and isinstance(stop[0], int) and stop[0] >= lo else None


def risk_group_starts(frames: list[Frame]) -> dict[str, tuple[int, Frame]]:
    """The age at which one document starts screening (or the conversation about it) for each higher-risk group it
    names (:data:`RISK_GROUP_CRITERIA`: "Black men ... may begin this conversation at 45"), keyed by the group."""
    out: dict[str, tuple[int, Frame]] = {}
    for f in frames:
        p = f.population
        if (f.action in RECOMMEND_LIKE or f.action == "individual_decision") and not p.conditions and (
                p.age_min is not None):
            for group in RISK_GROUP_CRITERIA.intersection(p.criteria):
                if group not in out or p.age_min < out[group][0]:
                    out[group] = (p.age_min, f)
    return out


_FAMILY, _RELATIVE_AGE = "family history", "relative's age at diagnosis"
_NAMED_RELATIVE = re.compile(r"\b(?:first-degree|close|blood) relatives?\b|\b(?:father|brother|son|mother|sister"
                             r"|daughter|parent|sibling)s?\b", re.I)
_EARLY_AGE = re.compile(r"\b(?:early|young|younger) age\b", re.I)


# the people a goal of their own is for (a less stringent A1C goal), named in an eligibility key
SUBGROUP_GOAL = "for a subgroup's own goal"


def _keyed(criteria: list[str]) -> list[tuple[str, str]]:
    """The criteria that state a value, as (key, value): "pack-years >= 20" -> ("pack-years", ">= 20")."""
    out = []
    for c in criteria:
        for sep in (" >= ", " <= ", " > ", " < ", ": "):
            if sep in c:
                key, value = c.split(sep, 1)
                out.append((key, f"{sep.strip(' :')} {value}".strip()))
                break
    return out


def criteria_map(frames: list[Frame]) -> dict[str, tuple[str, Frame]]:
    """Eligibility criteria of a document's recommended frames, keyed ("pack-years" -> ">= 20"). Where a
    recommendation and a suggestion name one criterion, the recommendation's value is the document's: "screening
    is recommended for 30 pack-years or more (class I)" beside "may be considered ... with at least 20 pack-years
    and one additional risk factor (class IIb)" requires 30. A criterion no recommendation names is the one of the
    document's individual decisions ("Step 1, identify eligible patients: men aged 50 to 74 with a life expectancy of
    at least 15 years" in a pathway that leaves the test to the man). A subgroup's own goal adds the criteria that
    say who it is for, keyed apart (:data:`SUBGROUP_GOAL`)."""
    out: dict[str, tuple[str, Frame]] = {}
    # recommendations first, then suggestions, then decisions; stable otherwise
    order = {"recommend": 0, "individual_decision": 2}
    eligible = [f for f in sorted(frames, key=lambda f: order.get(f.action, 1))
                if (f.action in RECOMMEND_LIKE or f.action == "individual_decision") and not f.population.conditions]
    for f in eligible:
        for key, value in _keyed(f.population.criteria):
            if key not in out or out[key][1].action == f.action:
                out[key] = (value, f)
    # who a subgroup's own goal is for, where a number says it ("a less stringent target of below 8.0% ... for adults
    # with a life expectancy of less than 5 years", "... less than 10 years" in the next edition), a goal of its own
    # being also none ("people with a life expectancy of less than 10 years: avoid targeting a specific A1C")
    for f in frames:
        if f.population.conditions and ((f.action in RECOMMEND_LIKE and f.targets) or (
                f.intervention.endswith("target") and STANCE[f.action] == "against")):
            for key, value in _keyed(f.population.criteria):
                out.setdefault(f"{key} ({SUBGROUP_GOAL})", (value, f))
    # a relative with the cancer, at no stated age of diagnosis, is one diagnosed at any age ("men with a first-degree
    # relative diagnosed with prostate cancer" beside "... diagnosed before age 65"; not "a strong family history" or
    # "relatives diagnosed at an early age", which name no relative or an age)
    related = next((f for f in eligible if _FAMILY in f.population.criteria and _NAMED_RELATIVE.search(f.sentence)
                    and not _EARLY_AGE.search(f.sentence)), None)
    if _RELATIVE_AGE not in out and related:
        out[_RELATIVE_AGE] = ("any", related)
    return out
