"""Typed conflicts between recommendation frames of different documents.

Two frames are compared when they are about the same intervention (and, when both name one, the same test),
the same sex, a compatible risk group (unstated = average), the same subgroup conditions, overlapping
effective age bands (:func:`bands.band`) and, when both carry a 10-year-risk threshold, overlapping risk ranges.
Frames of one document never conflict. Between versions of one organization (same org, another document) a
difference is a "change"; between organizations it is a "disagreement", and only current documents take part
(a superseded version differs from other organizations by definition of being replaced).

Facets: ``start_age`` (also per higher-risk group) and ``stop_age`` per document (:mod:`bands`), ``eligibility`` (a
criterion both documents state with different values: pack-years 30 vs 20; for a goal, the life expectancy its
subgroup's own goal is for, :func:`bands.criteria_map`), ``action`` (different stances: for /
conditional / against / uncertain: "insufficient evidence" and "an individual decision" for one band differ, as one
organization leaves the choice to patient and clinician where the other finds no evidence to guide it; between
versions, also a test added to or dropped from an age band's options, :func:`versions.option_changes`, and a graded
recommendation turned into a graded suggestion, :func:`_downgraded`), ``interval`` (both recommended, same test),
``threshold`` (same action and the same measured quantities) and ``target`` (both recommended; between versions, also
a goal for a measure the earlier version set none for, :func:`versions.goal_changes`). For target/threshold
interventions an action is compared only between frames about the same (stated) numbers (a weaker "aim toward 120" is
a target change, not an action change). All conflicts of one kind, facet and intervention (and organization, for
changes) form one :class:`Disagreement` listing every document's value and naming the document pairs that conflict
(``pairs``: a row can hold documents that differ from a third but not from each other).

A question that names ages (``ages``: "women aged 75 and older", "people in their sixties") is answered for those ages
on the facets it asks about at those ages (``narrowed``: action, and the interval when it asks how often for them);
one about a person of a stated age ("my 72 year old dad") on every facet for that age (:func:`asked_about`). One
that names tests (``tests``: "how often to repeat primary HPV testing") compares schedules of two different tests only
where it names both: a cytology schedule against an HPV schedule is not what it asks.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection
from typing import Any, get_args

from clinrag.tools.frames import bands
from clinrag.tools.frames.groups import higher_risk, retest_tier, selected_by_ldl
from clinrag.tools.frames.intervals import schedule_text
from clinrag.tools.frames.pairing import (
    comparable,
    era,
    goal_set_aside,
    org_key,
    pair_kind,
    refined,
    states_no_stance,
)
from clinrag.tools.frames.schedules import schedules_differ, sole_test_schedules
from clinrag.tools.frames.schema import (
    RECOMMEND_LIKE,
    STANCE,
    ConflictValue,
    Disagreement,
    Facet,
    Frame,
    quantities_text,
)
from clinrag.tools.frames.value_comparison import joined_tiers, targets_differ, thresholds_differ
from clinrag.tools.frames.versions import goal_changes, option_changes

_SCREENING_FACETS_SKIP = ("target", "threshold")  # start/stop ages are not meaningful for BP/A1C targets


def _band_text(f: Frame, docs: dict[Any, list[Frame]]) -> str:
    return bands.band_label(*bands.band(f, docs[(f.doc_id, f.intervention)]))


def _downgraded(a: Frame, b: Frame, kind: str) -> bool:
    """Between versions of one organization, a graded recommendation turned into a graded suggestion or the reverse
    ("recommends ... (Class I)" in 2016, "may consider ... (Class IIb)" in 2022): both are for the intervention, and
    the change of strength is the change of action. Between organizations, strengths are graded on different scales
    and the two are one stance."""
    return kind == "change" and {a.action, b.action} == {"recommend", "suggest_or_consider"} and bool(
        a.strength and b.strength)


def _pair_values(a: Frame, b: Frame, docs: dict[Any, list[Frame]], kind: str = "disagreement"
                 ) -> dict[str, tuple[str, str]]:
    """Facet -> (value of a, value of b) for every facet on which two comparable frames differ; a goal to treat to
    is compared on action only with another goal."""
    out = {}
    numbers_a = sorted(q.key() for q in a.thresholds + a.targets)
    same_numbers = bool(numbers_a) and numbers_a == sorted(q.key() for q in b.thresholds + b.targets)
    if (
        (STANCE[a.action] != STANCE[b.action] or _downgraded(a, b, kind))
        and bool(a.targets) == bool(b.targets)
        # what to do at a result ("refer to urology if PSA is 4.0 ng/mL or higher") is not whom to screen
        and (bool(a.thresholds) == bool(b.thresholds) or not a.intervention.endswith("screening"))
        and (same_numbers or not a.intervention.endswith(_SCREENING_FACETS_SKIP))
        # people with LDL-C of 190 mg/dL or more are not those of a 10-year-risk band ("a statin is advised whatever
        # your calculated risk" against "reasonable after a risk discussion" at 7.5% to 10%)
        and selected_by_ldl(a) == selected_by_ldl(b)
        and not (refined(a, docs) or refined(b, docs) or states_no_stance(a, docs) or states_no_stance(b, docs))
    ):
        out["action"] = (f"{a.action} ({_band_text(a, docs)})", f"{b.action} ({_band_text(b, docs)})")
    both_rec = a.action in RECOMMEND_LIKE and b.action in RECOMMEND_LIKE
    if differ := schedules_differ(a, b, docs, kind):
        out["interval"] = (schedule_text(differ[0], a.test), schedule_text(differ[1], a.test))
    # thresholds of two recommendations for (or left to a decision about) the intervention; targets of two
    # recommendations
    tiers_a, tiers_b = (joined_tiers(f, docs[(f.doc_id, f.intervention)]) for f in (a, b))
    if {STANCE[a.action], STANCE[b.action]} <= {"for", "conditional"} and not (
            retest_tier(a) or retest_tier(b)) and thresholds_differ(tiers_a, tiers_b):
        out["threshold"] = (quantities_text(a.thresholds), quantities_text(b.thresholds))
    if both_rec and not (goal_set_aside(a, b, docs, kind) or goal_set_aside(b, a, docs, kind)) and targets_differ(
            a.targets, b.targets):
        out["target"] = (quantities_text(a.targets), quantities_text(b.targets))
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
        bands.band_label(lo, hi),
    ] + ([", ".join(conds)] if conds else [])
    return ", ".join(parts)


AgeBand = tuple[int | None, int | None]  # inclusive; None = open at that end
# the facets a question's age band narrows unless it asks how often for those ages (a person's age narrows every facet)
BAND_FACETS: frozenset[str] = frozenset({"action"})
ALL_FACETS: frozenset[str] = frozenset(get_args(Facet))


def _first_age(value: str) -> int | None:
    """The age a start or stop value leads with ("50 (shared decision at 45-49)" -> 50; "no upper age limit" is open
    above: 200)."""
    if value == bands.NO_UPPER_LIMIT:
        return 200
    m = re.match(r"\s*(\d{1,3})\b", value)
    return int(m.group(1)) if m else None


def asked_about(facet: str, a: Frame, va: str, b: Frame, vb: str, docs: dict[Any, list[Frame]],
                ages: AgeBand | None, narrowed: Collection[str] = BAND_FACETS) -> bool:
    """Whether a difference matters to the ages a question asks about (always, when it names none, and for every
    facet not in ``narrowed``, the facets the question asks about at those ages).

    Two stances, or two schedules, differ for the ages both frames' effective bands share, so such a conflict is kept
    when the question's band meets both bands. A question's band ("women aged 75 and older") narrows the stance, and
    the schedule when it asks how often for those ages ("how often should women aged 30 to 65 have HPV testing";
    :func:`clinrag.question.understanding.narrowed_facets`); its other facets are kept, because a question often
    names ages for one of its parts only ("the FIT interval, and the advice for adults aged 45 to 49"). A person's
    age ("should my 72 year old dad still get PSA tests") is the whole question's, so every facet is narrowed to it:
    two start ages s1 < s2 differ for someone aged s1 to s2 - 1, two stop ages t1 < t2 for someone aged t1 + 1 to
    t2, any other facet for the ages both frames' bands share.
    """
    if ages is None or ages == (None, None) or facet not in narrowed:
        return True
    lo, hi = ages[0] if ages[0] is not None else 0, ages[1] if ages[1] is not None else 200
    if facet in ("start_age", "stop_age"):
        x, y = _first_age(va), _first_age(vb)
        if x is None or y is None:
            return True
        first, second = sorted((x, y))
        return (lo < second and hi >= first) if facet == "start_age" else (lo <= second and hi > first)
    a_lo, a_hi = bands.band(a, docs[(a.doc_id, a.intervention)])
    b_lo, b_hi = bands.band(b, docs[(b.doc_id, b.intervention)])
    return max(a_lo, b_lo, lo) <= min(a_hi, b_hi, hi)


def find_conflicts(frames: list[Frame], replaced_on: dict[str, str] | None = None, ages: AgeBand | None = None,
                   narrowed: Collection[str] = BAND_FACETS, tests: Collection[str] = (),
                   most_people: bool = False, average_risk: bool = False) -> list[Disagreement]:
    """Typed conflicts among frames (see module docstring; ``replaced_on`` as in :func:`pairing.pair_kind`;
    ``ages``: the ages the question asks about; ``narrowed``: the facets narrowed to them, :func:`asked_about`;
    ``tests``: the tests the question names; schedules of two different tests are compared only where it names both;
    ``most_people``: the question asks about most people ("the A1C target for most adults"), so the goals and
    thresholds of groups named by a condition ("below 58 mmol/mol for those with frailty") are not what it asks;
    ``average_risk``: the question asks about people at average risk, so the advice for higher-risk groups ("Black men
    and men with a family history from 40") is not what it asks)."""
    docs: dict[Any, list[Frame]] = defaultdict(list)
    for f in frames:
        docs[(f.doc_id, f.intervention)].append(f)
    groups: dict[tuple, dict[tuple, tuple[Frame, str]]] = defaultdict(dict)
    pairs: dict[tuple, set[tuple[str, str]]] = defaultdict(set)

    def add(kind: str, facet: str, a: Frame, va: str, b: Frame, vb: str) -> None:
        if not asked_about(facet, a, va, b, vb, docs, ages, narrowed):
            return
        if facet == "interval" and tests and a.test != b.test and any(f.test and f.test not in tests for f in (a, b)):
            return
        if most_people and facet in ("target", "threshold") and (a.population.conditions or b.population.conditions):
            return
        if average_risk and (higher_risk(a) or higher_risk(b)):
            return
        org = tuple(sorted(org_key(a.org))) if kind == "change" else era(kind, a, b)
        group = groups[(kind, facet, a.intervention, org)]
        group.setdefault((a.doc_id, va), (a, va))
        group.setdefault((b.doc_id, vb), (b, vb))
        pairs[(kind, facet, a.intervention, org)].add(tuple(sorted((a.doc_id or "", b.doc_id or ""))))

    ordered = sorted(frames, key=lambda f: (f.issued or "", f.doc_id or ""))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            kind = pair_kind(a, b, replaced_on)
            if kind and comparable(a, b, docs):
                for facet, (va, vb) in _pair_values(a, b, docs, kind).items():
                    add(kind, facet, a, va, b, vb)
    _document_facets(docs, add, replaced_on)
    option_changes(docs, add)
    goal_changes(docs, add)
    sole_test_schedules(docs, add)
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
    """start_age (also per higher-risk group), stop_age and eligibility, compared between the per-document
    summaries."""
    summaries: dict[tuple, dict[str, Any]] = {}
    for (doc_id, intervention), fs in docs.items():
        summary: dict[str, Any] = {"start_age": None, "stop_age": None, "risk_group_starts": {},
                                   "eligibility": bands.criteria_map(fs)}
        # a goal or a threshold has no start or stop age; who a subgroup's own goal is for is still its eligibility
        if not intervention.endswith(_SCREENING_FACETS_SKIP):
            start = bands.start_age(fs)
            summary.update(start_age=start, start_age_text=bands.start_age_text(start, fs),
                           stop_age=bands.stop_age(fs), risk_group_starts=bands.risk_group_starts(fs))
        summaries[(doc_id, intervention)] = summary
    keys = sorted(summaries, key=lambda k: (k[1], k[0] or ""))
    for i, ka in enumerate(keys):
        for kb in keys[i + 1 :]:
            if ka[1] != kb[1]:
                continue
            sa, sb = summaries[ka], summaries[kb]
            for facet in ("start_age", "stop_age"):
                if sa[facet] and sb[facet]:
                    (va, fa), (vb, fb) = sa[facet], sb[facet]
                    kind = pair_kind(fa, fb, replaced_on)
                    if kind and va != vb:
                        ta, tb = (sa["start_age_text"], sb["start_age_text"]) if facet == "start_age" else (va, vb)
                        add(kind, facet, fa, str(ta), fb, str(tb))
            # the keyed summaries: a start age per higher-risk group, a value per eligibility criterion
            for field, facet, text in (("risk_group_starts", "start_age", "{value} ({key})"),
                                       ("eligibility", "eligibility", "{key} {value}")):
                for key in sorted(set(sa[field]) & set(sb[field])):
                    (va, fa), (vb, fb) = sa[field][key], sb[field][key]
                    kind = pair_kind(fa, fb, replaced_on)
                    if kind and va != vb:
                        add(kind, facet, fa, text.format(key=key, value=va), fb, text.format(key=key, value=vb))


