"""Typed conflicts between recommendation frames of different documents.

Two frames are compared when they are about the same intervention (and, when both name one, the same test),
the same sex, a compatible risk group (unstated = average), the same subgroup conditions, overlapping
effective age bands (:func:`bands.band`) and, when both carry a 10-year-risk threshold, overlapping risk ranges.
Frames of one document never conflict. Between versions of one organization (same org, another document) a
difference is a "change"; between organizations it is a "disagreement", and only current documents take part
(a superseded version differs from other organizations by definition of being replaced).

Facets: ``start_age`` (also per higher-risk group) and ``stop_age`` per document (:mod:`bands`), ``eligibility`` (a
criterion both documents state with different values: pack-years 30 vs 20), ``action`` (different stances: for /
conditional / against / uncertain; a conditional answer to insufficient evidence is not a conflict; between
versions, also a test added to or dropped from an age band's options: :func:`_option_changes`), ``interval`` (both
recommended, same test), ``threshold`` (same action and the same measured quantities) and ``target`` (both
recommended). For target/threshold interventions an action is compared only between frames about the same (stated)
numbers (a weaker "aim toward 120" is a target change, not an action change). All conflicts of one kind, facet and
intervention (and organization, for changes) form one :class:`Disagreement` listing every document's value and
naming the document pairs that conflict (``pairs``: a row can hold documents that differ from a third but not from
each other).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from clinrag.tools.frames import bands
from clinrag.tools.frames.action_cues import ENTRY_STEP, NEW_AGE
from clinrag.tools.frames.schedules import schedules_differ
from clinrag.tools.frames.schema import RECOMMEND_LIKE, STANCE, ConflictValue, Disagreement, Frame
from clinrag.tools.frames.value_comparison import targets_differ, thresholds_differ

_COMPATIBLE_STANCES = frozenset({"conditional", "uncertain"})
_SCREENING_FACETS_SKIP = ("target", "threshold")  # start/stop ages are not meaningful for BP/A1C targets


def org_key(org: str | None) -> frozenset[str]:
    """ "ACC/AHA" and "AHA/ACC" are one organization."""
    return frozenset(part.strip().upper() for part in (org or "").split("/"))


def _kind(a: Frame, b: Frame, replaced_on: dict[str, str] | None = None) -> str | None:
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


def _era(kind: str, a: Frame, b: Frame) -> tuple:
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
    if bands.RISK_GROUP_CRITERIA.intersection(pa.criteria) != bands.RISK_GROUP_CRITERIA.intersection(pb.criteria):
        return False  # "Black men ... from 40" is not compared with a recommendation for average-risk men
    return _ages_meet(a, b, docs) and _risks_overlap(a, b)


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


def _ages_meet(a: Frame, b: Frame, docs: dict[Any, list[Frame]]) -> bool:
    """Whether two frames' effective age bands (:func:`bands.band`, each among its own document's frames) meet."""
    (alo, ahi), (blo, bhi) = (bands.band(f, docs[(f.doc_id, f.intervention)]) for f in (a, b))
    return max(alo, blo) <= min(ahi, bhi)


def actions_disagree(a: str, b: str) -> bool:
    sa, sb = STANCE[a], STANCE[b]
    return sa != sb and {sa, sb} != _COMPATIBLE_STANCES


def _refined(f: Frame, docs: dict[Any, list[Frame]]) -> bool:
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
        and _risks_overlap(f, g)
        and _ages_meet(f, g, docs)
        for g in docs[(f.doc_id, f.intervention)]
    )


_NO_STANCE = re.compile(f"{ENTRY_STEP}|{NEW_AGE}", re.I)


def _states_no_stance(f: Frame, docs: dict[Any, list[Frame]]) -> bool:
    """A pathway's entry step ("Step 1, identify: men aged 55 to 69 ...") or a change note's new age ("the starting
    age has been lowered from 55 to 50") in a document that states another stance for the intervention elsewhere
    ("Step 2, discuss: PSA screening is an individual decision"): it says who the document is for, and its stance is
    that of its other statements, so its "recommend" is not compared on action (an age it excludes, "screening is no
    longer offered to people aged 21 to 24", still is)."""
    return f.action == "recommend" and bool(_NO_STANCE.search(f.sentence or "")) and any(
        g.sentence != f.sentence and STANCE[g.action] not in ("for", "against")
        for g in docs[(f.doc_id, f.intervention)])


def _risks_overlap(a: Frame, b: Frame) -> bool:
    """Whether two frames' 10-year-risk ranges meet (a frame that states none covers every risk)."""
    ra, rb = _risk_range(a), _risk_range(b)
    return not (ra and rb and max(ra[0], rb[0]) > min(ra[1], rb[1]))


def _qtext(qs: list) -> str:
    return "; ".join(f"{q.name} {q.text()}" for q in qs)


def _band_text(f: Frame, docs: dict[Any, list[Frame]]) -> str:
    lo, hi = bands.band(f, docs[(f.doc_id, f.intervention)])
    return f"ages {lo if lo else 'any'}-{hi if hi < 200 else 'up'}"


def _pair_values(a: Frame, b: Frame, docs: dict[Any, list[Frame]], kind: str = "disagreement"
                 ) -> dict[str, tuple[str, str]]:
    """Facet -> (value of a, value of b) for every facet on which two comparable frames differ. Between versions
    of one organization (``kind`` "change") any other stance is a change of action ("insufficient evidence" in
    2014, "individualized" in 2021); between organizations the two compatible stances (an individual decision and
    insufficient evidence) are not a disagreement. A goal to treat to is compared on action only with another
    goal."""
    out = {}
    numbers_a = sorted(q.key() for q in a.thresholds + a.targets)
    same_numbers = bool(numbers_a) and numbers_a == sorted(q.key() for q in b.thresholds + b.targets)
    stances_differ = STANCE[a.action] != STANCE[b.action] if kind == "change" else actions_disagree(a.action, b.action)
    if (
        stances_differ
        and bool(a.targets) == bool(b.targets)
        # what to do at a result ("refer to urology if PSA is 4.0 ng/mL or higher") is not whom to screen
        and (bool(a.thresholds) == bool(b.thresholds) or not a.intervention.endswith("screening"))
        and (same_numbers or not a.intervention.endswith(_SCREENING_FACETS_SKIP))
        and not (_refined(a, docs) or _refined(b, docs) or _states_no_stance(a, docs) or _states_no_stance(b, docs))
    ):
        out["action"] = (f"{a.action} ({_band_text(a, docs)})", f"{b.action} ({_band_text(b, docs)})")
    both_rec = a.action in RECOMMEND_LIKE and b.action in RECOMMEND_LIKE
    if differ := schedules_differ(a, b, docs, kind):
        t = f" ({a.test})" if a.test else ""
        out["interval"] = (f"{differ[0].text()} months{t}", f"{differ[1].text()} months{t}")
    # thresholds of two recommendations for (or left to a decision about) the intervention; targets of two
    # recommendations
    if {STANCE[a.action], STANCE[b.action]} <= {"for", "conditional"} and thresholds_differ(a.thresholds, b.thresholds):
        out["threshold"] = (_qtext(a.thresholds), _qtext(b.thresholds))
    if both_rec and targets_differ(a.targets, b.targets):
        out["target"] = (_qtext(a.targets), _qtext(b.targets))
    return out


def _value(f: Frame, value: str) -> ConflictValue:
    return ConflictValue(
        doc_id=f.doc_id,
        org=f.org,
        issued=f.issued,
        status=f.status,
        value=value,
        strength=f.strength,
        sentence=f.sentence,
    )


def _population_text(frames: list[Frame], docs: dict[Any, list[Frame]]) -> str:
    sexes = {f.population.sex for f in frames if f.population.sex}
    risks = {f.population.risk or "average" for f in frames}
    spans = [bands.band(f, docs[(f.doc_id, f.intervention)]) for f in frames]
    lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
    conds = sorted({c for f in frames for c in f.population.conditions})
    parts = [
        " / ".join(sorted(sexes)) or "adults",
        f"{' / '.join(sorted(risks))} risk",
        f"ages {lo or 'any'}-{hi if hi < 200 else 'up'}",
    ] + ([", ".join(conds)] if conds else [])
    return ", ".join(parts)


def find_conflicts(frames: list[Frame], replaced_on: dict[str, str] | None = None) -> list[Disagreement]:
    """Typed conflicts among frames (see module docstring; ``replaced_on`` as in :func:`_kind`)."""
    docs: dict[Any, list[Frame]] = defaultdict(list)
    for f in frames:
        docs[(f.doc_id, f.intervention)].append(f)
    groups: dict[tuple, dict[tuple, tuple[Frame, str]]] = defaultdict(dict)
    pairs: dict[tuple, set[tuple[str, str]]] = defaultdict(set)

    def add(kind: str, facet: str, a: Frame, va: str, b: Frame, vb: str) -> None:
        org = tuple(sorted(org_key(a.org))) if kind == "change" else _era(kind, a, b)
        group = groups[(kind, facet, a.intervention, org)]
        group.setdefault((a.doc_id, va), (a, va))
        group.setdefault((b.doc_id, vb), (b, vb))
        pairs[(kind, facet, a.intervention, org)].add(tuple(sorted((a.doc_id or "", b.doc_id or ""))))

    ordered = sorted(frames, key=lambda f: (f.issued or "", f.doc_id or ""))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            kind = _kind(a, b, replaced_on)
            if kind and comparable(a, b, docs):
                for facet, (va, vb) in _pair_values(a, b, docs, kind).items():
                    add(kind, facet, a, va, b, vb)
    _document_facets(docs, add, replaced_on)
    _option_changes(docs, add)
    _sole_test_changes(docs, add)
    out = []
    for key, entries in groups.items():
        kind, facet, intervention, _ = key
        values = sorted(entries.values(), key=lambda t: (t[0].issued or "", t[0].doc_id or ""))
        if len({v for _, v in values}) >= 2:
            out.append(
                Disagreement(
                    kind=kind,
                    facet=facet,
                    intervention=intervention,
                    population=_population_text([f for f, _ in values], docs),
                    values=[_value(f, v) for f, v in values],
                    pairs=sorted(pairs[key]),
                )
            )
    return sorted(out, key=lambda d: (d.intervention, d.kind, d.facet))


def _document_facets(docs: dict[Any, list[Frame]], add: Any, replaced_on: dict[str, str] | None = None) -> None:
    """start_age, stop_age and eligibility, compared between the per-document summaries."""
    summaries: dict[tuple, dict[str, Any]] = {}
    for (doc_id, intervention), fs in docs.items():
        if not intervention.endswith(_SCREENING_FACETS_SKIP):
            start = bands.start_age(fs)
            summaries[(doc_id, intervention)] = {
                "start_age": start,
                "start_age_text": bands.start_age_text(start, fs),
                "stop_age": bands.stop_age(fs),
                "eligibility": bands.criteria_map(fs),
                "risk_group_starts": bands.risk_group_starts(fs),
            }
    keys = sorted(summaries, key=lambda k: (k[1], k[0] or ""))
    for i, ka in enumerate(keys):
        for kb in keys[i + 1 :]:
            if ka[1] != kb[1]:
                continue
            sa, sb = summaries[ka], summaries[kb]
            for facet in ("start_age", "stop_age"):
                if sa[facet] and sb[facet]:
                    (va, fa), (vb, fb) = sa[facet], sb[facet]
                    kind = _kind(fa, fb, replaced_on)
                    if kind and va != vb:
                        ta, tb = (sa["start_age_text"], sb["start_age_text"]) if facet == "start_age" else (va, vb)
                        add(kind, facet, fa, str(ta), fb, str(tb))
            for group in sorted(set(sa["risk_group_starts"]) & set(sb["risk_group_starts"])):
                (va, fa), (vb, fb) = sa["risk_group_starts"][group], sb["risk_group_starts"][group]
                kind = _kind(fa, fb, replaced_on)
                if kind and va != vb:
                    add(kind, "start_age", fa, f"{va} ({group})", fb, f"{vb} ({group})")
            for key in sorted(set(sa["eligibility"]) & set(sb["eligibility"])):
                (va, fa), (vb, fb) = sa["eligibility"][key], sb["eligibility"][key]
                kind = _kind(fa, fb, replaced_on)
                if kind and va != vb:
                    add(kind, "eligibility", fa, f"{key} {va}", fb, f"{key} {vb}")


def _option_changes(docs: dict[Any, list[Frame]], add: Any) -> None:
    """Between versions of one organization, a test recommended for an age band where the other version
    recommends other tests of the same intervention and says nothing of this one is an ``action`` change: an
    option added or dropped (USPSTF cervical screening 2012 -> 2018 adds high-risk HPV testing alone from 30,
    beside cytology and co-testing). Only between versions: that one organization's list of options changed is a
    statement of its documents; that another organization names fewer tests is not a disagreement about any of
    them."""
    by_doc = {key: [f for f in fs if f.test and bands.general(f)] for key, fs in docs.items()}
    for (doc_a, intervention), fa in by_doc.items():
        for (doc_b, other), fb in by_doc.items():
            if other != intervention or doc_a == doc_b or not fa or not fb or _kind(fa[0], fb[0]) != "change":
                continue
            for f in fa:
                if f.action not in RECOMMEND_LIKE:
                    continue
                if any(g.test == f.test and _ages_meet(f, g, docs) for g in fb):
                    continue
                listed = [g for g in fb if g.action in RECOMMEND_LIKE and _ages_meet(f, g, docs)]
                if listed:
                    lo, hi = bands.band(f, docs[(doc_a, intervention)])
                    tests = ", ".join(sorted({g.test for g in listed if g.test}))
                    add(
                        "change", "action",
                        f, f"{f.action}: {f.test} (ages {lo}-{hi})",
                        listed[0], f"{f.test} not among its recommended tests for ages {lo}-{hi} ({tests})",
                    )


def _sole_test_changes(docs: dict[Any, list[Frame]], add: Any) -> None:
    """Between versions of one organization where one recommends a single test that the other does not schedule, a
    different interval for the same ages is an ``interval`` change ("cytology every 3 years" in 2015, "primary hrHPV
    testing every 5 years" in 2022; "cytology every 3 years at 21-29, co-testing every 5 years at 30-65" in 2019,
    "primary hrHPV testing every 5 years" from 25 in 2024; a letter's "you will be invited every three years", which
    names no test, against "we now invite everyone aged 25 to 64 every five years" for HPV testing): the
    organization's screening schedule changed. Versions that share a test are compared test by test."""
    timed: dict[tuple, list[Frame]] = {}
    for key, fs in docs.items():
        if found := [f for f in fs if f.interval_months and f.action in RECOMMEND_LIKE and bands.general(f)]:
            timed[key] = found
    for (doc_a, intervention), fa in timed.items():
        for (doc_b, other), fb in timed.items():
            tests_a, tests_b = {f.test for f in fa}, {f.test for f in fb}
            if (other != intervention or doc_a >= doc_b or _kind(fa[0], fb[0]) != "change" or tests_a & tests_b
                    or min(len(tests_a), len(tests_b)) != 1):
                continue
            for a in fa:
                for b in fb:
                    if _ages_meet(a, b, docs) and a.interval_months != b.interval_months:
                        old, new = sorted((a, b), key=lambda f: (f.issued or "", f.doc_id or ""))
                        add("change", "interval",
                            old, f"{old.interval_months.text()} months ({old.test or 'test not named'})",
                            new, f"{new.interval_months.text()} months ({new.test or 'test not named'})")
