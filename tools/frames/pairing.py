"""Which frames of two documents are compared, and how they relate: the kind of a pair (a change between versions of
one organization, a disagreement between organizations in force at the same time), comparable frames (the same
intervention, test, sex, risk group and subgroup, with overlapping age and risk bands), stances that disagree, and
the frames whose stance is not compared on action (a general statement its own document refines by age, a pathway's
entry step, a change note's new age)."""

from __future__ import annotations

from typing import Any

from clinrag.tools.frames import bands
from clinrag.tools.frames.groups import RISK_GROUP_CRITERIA
from clinrag.tools.frames.no_stance import IS_AUDIENCE, NO_STANCE
from clinrag.tools.frames.schema import STANCE, Frame


def org_key(org: str | None) -> frozenset[str]:
    """ "ACC/AHA" and "AHA/ACC" are one organization."""
    return frozenset(part.strip().upper() for part in (org or "").split("/"))


def pair_kind(a: Frame, b: Frame, replaced_on: dict[str, str] | None = None) -> str | None:
    """"change" between versions of one organization; "disagreement" between organizations whose documents were
    in force at the same time: two current documents, or a superseded one and a document issued before it was
    replaced (``replaced_on``: doc_id -> issue date of the version that replaced it; without it, superseded
    documents take part in changes only)."""
    if a.doc_id == b.doc_id:
        return None
    if org_key(a.org) == org_key(b.org):
        return "change"
    for old, other in ((a, b), (b, a)):
        if old.status == "superseded":
            replaced = (replaced_on or {}).get(old.doc_id or "")
            if not replaced or other.status == "superseded" or not other.issued or other.issued >= replaced:
                return None
    return "disagreement"


def era(kind: str, a: Frame, b: Frame) -> tuple:
    """Disagreements that involve a superseded document are grouped apart from today's (one group per superseded
    document), so a current and a superseded version of one organization never sit in one disagreement."""
    if kind != "disagreement":
        return ()
    return tuple(sorted(f.doc_id or "" for f in (a, b) if f.status == "superseded"))


def _risk_range(frame: Frame) -> tuple[float, float] | None:
    for q in frame.thresholds:
        if q.name == "10-year CVD risk":
            if q.op == "range":
                lo, hi = q.value.split("-")
                return float(lo), float(hi) - 1e-6
            v = float(q.value)
            return {">=": (v, 100.0), ">": (v + 1e-6, 100.0), "<": (0.0, v - 1e-6), "<=": (0.0, v)}.get(q.op, (v, v))
    return None


def comparable(a: Frame, b: Frame, docs: dict[Any, list[Frame]]) -> bool:
    """Same intervention, test, sex, risk group and conditions, and overlapping age and risk bands."""
    pa, pb = a.population, b.population
    if a.intervention != b.intervention or (a.test and b.test and a.test != b.test):
        return False
    if pa.sex and pb.sex and pa.sex != pb.sex:
        return False
    if (pa.risk or "average") != (pb.risk or "average") or not _same_group(a, b):
        return False
    if RISK_GROUP_CRITERIA.intersection(pa.criteria) != RISK_GROUP_CRITERIA.intersection(pb.criteria):
        return False  # "Black men ... from 40" is not compared with a recommendation for average-risk men
    return ages_meet(a, b, docs) and risks_overlap(a, b)


# people who quit smoking long ago, one subgroup whether a condition ("once a person has not smoked for 15 years") or
# a criterion ("patients who quit more than 15 years ago do not meet criteria") names it; that a recommendation
# includes them "regardless of how many years ago they quit" is its eligibility (the ``eligibility`` facet)
_QUIT_LONG_AGO = "quit smoking long ago"


def _group(f: Frame) -> frozenset[str]:
    """The subgroup a frame is about: its conditions, with the time since quitting named as one subgroup."""
    p = f.population
    named = {c for c in p.conditions if not c.startswith("not smoked for")}
    if len(named) < len(p.conditions) or any(c.startswith("years since quitting >") for c in p.criteria):
        named.add(_QUIT_LONG_AGO)
    return frozenset(named)


def _same_group(a: Frame, b: Frame) -> bool:
    """The same subgroup (:func:`_group`); for two goals, conditions that name one subgroup in other words are enough
    ("older adults with limited life expectancy or severe hypoglycemia" and "older adults who are frail, have limited
    life expectancy, or have a history of severe hypoglycemia"); adequate prior screening, where routine screening
    ends, only against a recommendation for everyone."""
    ca, cb = _group(a), _group(b)
    if ca ^ cb == {"adequate prior screening"}:
        # the end of routine screening ("not after 65 in individuals with adequate negative prior screening") meets a
        # recommendation for everyone of those ages ("aged between 25 and 74, ... every five years")
        ended, other = (a, b) if "adequate prior screening" in ca else (b, a)
        return STANCE[ended.action] == "against" and STANCE[other.action] == "for"
    return ca == cb or bool(a.targets and b.targets and ca & cb)


def _within(a: Frame, b: Frame, scope: Frame, docs: dict[Any, list[Frame]]) -> bool:
    """Whether the ages ``a``'s effective band shares with ``scope``'s lie within ``b``'s band (:func:`bands.band`):
    "80 and over" against a measure's goals for 18 to 85, within its goal for 80 to 85."""
    (alo, ahi), (blo, bhi), (slo, shi) = (bands.band(f, docs[(f.doc_id, f.intervention)]) for f in (a, b, scope))
    return blo <= max(alo, slo) and min(ahi, shi) <= bhi


def ages_meet(a: Frame, b: Frame, docs: dict[Any, list[Frame]]) -> bool:
    """Whether two frames' effective age bands (:func:`bands.band`, each among its own document's frames) meet."""
    (alo, ahi), (blo, bhi) = (bands.band(f, docs[(f.doc_id, f.intervention)]) for f in (a, b))
    return max(alo, blo) <= min(ahi, bhi)


def refined(f: Frame, docs: dict[Any, list[Frame]]) -> bool:
    """A frame that states no ages, in a document whose frames for the same intervention, test, risk group,
    conditions and 10-year risk state ages within its band and another stance: a general statement its own
    document refines by age ("aspirin should not be used routinely for primary prevention" before "in adults aged
    40 to 70 ... may be considered"; "clinicians should not screen men who do not express a preference" beside
    "for men aged 55 to 69 ... an individual one"). Its stance is the exception's background, not a stance on
    every age of the document's band, so it is not compared on action."""
    p = f.population
    if p.age_min is not None or p.age_max is not None:
        return False
    return any(
        g is not f
        and (g.population.age_min is not None or g.population.age_max is not None)
        and g.test == f.test
        and (g.population.risk or "average") == (p.risk or "average")
        and _group(g) == _group(f)
        and STANCE[g.action] != STANCE[f.action]
        and risks_overlap(f, g)
        and ages_meet(f, g, docs)
        # (who a leaflet is for, "This leaflet is for you if you are a man between 50 and 69", says whom its other
        # statements address: its "whether to be tested is your choice" is the stance for them, not background)
        and not IS_AUDIENCE.search(g.sentence or "")
        # a statement for a band of 10-year risk ("if the 10-year risk is below 10%, do not routinely prescribe") is
        # specific already: a statement with ages but no risk band does not refine it
        and (_risk_range(f) is None or _risk_range(g) is not None)
        for g in docs[(f.doc_id, f.intervention)]
    )


def states_no_stance(f: Frame, docs: dict[Any, list[Frame]]) -> bool:
    """A pathway's entry step ("Step 1, identify: men aged 55 to 69 ..."), who a leaflet or decision aid is for ("This
    decision aid is for people aged 40 to 59 ..."), a change note's new age ("the starting age has been lowered from
    55 to 50"), a referral on a result ("Refer to urology if ...") or what follows a result ("A raised PSA usually
    leads to an MRI scan before a biopsy is considered") (:data:`no_stance.NO_STANCE`) in a document that
    states another stance for the intervention elsewhere ("Step 2, discuss: PSA screening is an individual
    decision"): it says who the document is for or what to do at a result, and the document's stance is that of its
    other statements, so its "recommend" is not compared on action (an age it excludes, "screening is no longer
    offered to people aged 21 to 24", still is)."""
    return f.action in ("recommend", "suggest_or_consider") and bool(NO_STANCE.search(f.sentence or "")) and any(
        g.sentence != f.sentence and STANCE[g.action] not in ("for", "against")
        for g in docs[(f.doc_id, f.intervention)])


def risks_overlap(a: Frame, b: Frame) -> bool:
    """Whether two frames' 10-year-risk ranges meet (a frame that states none covers every risk)."""
    ra, rb = _risk_range(a), _risk_range(b)
    return not (ra and rb and max(ra[0], rb[0]) > min(ra[1], rb[1]))


def goal_set_aside(f: Frame, other: Frame, docs: dict[Any, list[Frame]], kind: str = "disagreement") -> bool:
    """Whether ``f``'s goal gives way to another goal of its own document when compared with ``other``:

    - between organizations, a goal the document only suggests beside the goal it recommends for the same people ("A
      lower goal, such as <6.5%, may be acceptable if it can be achieved safely" after "An A1C goal of <7.0% ... is
      appropriate"): an option for some, compared with another document's suggested goals, not with its recommended
      one (a suggested goal for an age band of its own, "In patients aged 80 years and older, a systolic target of
      140 to 150 mm Hg is acceptable", is that band's goal, and is compared). Between versions of one organization
      such a goal is compared: a lower goal a new edition encourages ("aiming for a lower systolic pressure, toward
      120 mm Hg") is a change;
    - a goal stated without ages where the document states another for the ages of ``other`` ("less than 130/80 mm
      Hg for most adults" beside "below 140/90 mm Hg for those aged 80 years or older", against another document's
      goal at 80 or older): the document's goal for those ages is the one compared (not against a goal for a wider
      band, "patients aged 18 to 85", which the general goal also covers)."""
    def stated(g: Frame) -> tuple[int | None, int | None]:
        return g.population.age_min, g.population.age_max

    own = [g for g in docs[(f.doc_id, f.intervention)] if g is not f and g.targets and _group(g) == _group(f)]
    suggested_beside = (kind == "disagreement" and f.action == "suggest_or_consider" and other.action == "recommend"
                        and any(g.action == "recommend" and stated(g) == stated(f) for g in own))
    general_beside_banded = stated(f) == (None, None) and stated(other) != (None, None) and any(
        stated(g) != (None, None) and _within(other, g, f, docs) for g in own)
    return bool(f.targets) and (suggested_beside or general_beside_banded)
