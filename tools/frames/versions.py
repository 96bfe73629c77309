"""Conflicts only between versions of one organization: a test added to or dropped from an age band's options (an
``action`` change), the schedule that changes with it when the new test takes the old one's place (an ``interval``
change), and a goal set for a measure the earlier version set none for (a ``target`` change)."""

from __future__ import annotations

import re
from typing import Any

from clinrag.tools.frames import bands
from clinrag.tools.frames.groups import general, higher_risk
from clinrag.tools.frames.intervals import schedule_text
from clinrag.tools.frames.pairing import ages_meet, pair_kind
from clinrag.tools.frames.schema import RECOMMEND_LIKE, Frame, quantities_text


def option_changes(docs: dict[Any, list[Frame]], add: Any) -> None:
    """Between versions of one organization, a test recommended for an age band where the other version
    recommends other tests of the same intervention and says nothing of this one is an ``action`` change: an
    option added or dropped (USPSTF cervical screening 2012 -> 2018 adds high-risk HPV testing alone from 30,
    beside cytology and co-testing). Only between versions: that one organization's list of options changed is a
    statement of its documents; that another organization names fewer tests is not a disagreement about any of
    them."""
    by_doc = {key: [f for f in fs if f.test and general(f)] for key, fs in docs.items()}
    for (doc_a, intervention), fa in by_doc.items():
        for (doc_b, other), fb in by_doc.items():
            if other != intervention or doc_a == doc_b or not fa or not fb or pair_kind(fa[0], fb[0]) != "change":
                continue
            for f in fa:
                if f.action not in RECOMMEND_LIKE:
                    continue
                if any(g.test == f.test and ages_meet(f, g, docs) for g in fb):
                    continue
                listed = [g for g in fb if g.action in RECOMMEND_LIKE and ages_meet(f, g, docs)]
                if listed:
                    ages = bands.band_label(*bands.band(f, docs[(doc_a, intervention)]))
                    tests = ", ".join(sorted({g.test for g in listed if g.test}))
                    add(
                        "change", "action",
                        f, f"{f.action}: {f.test} ({ages})",
                        listed[0], f"{f.test} not among its recommended tests for {ages} ({tests})",
                    )
                    if replaced := _schedule_replaced(f, listed, fa):
                        add("change", "interval", f, schedule_text(f.interval_months, f.test), replaced,
                            schedule_text(replaced.interval_months, replaced.test))


def _schedule_replaced(new: Frame, listed: list[Frame], own: list[Frame]) -> Frame | None:
    """The other version's one recommended schedule that ``new`` takes the place of: "cervical cytology every three
    years" (2016) against "primary hrHPV testing every 5 years is the preferred strategy", with cytology every 3 years
    "acceptable" only "where hrHPV testing is not yet available" (2022). Only where the other version recommends one
    schedule, the new test is recommended (not suggested) on a schedule of its own, and the old test, if named beside
    it, is no longer recommended."""
    recommended = [g for g in listed if g.action == "recommend" and g.interval_months]
    if new.action != "recommend" or not new.interval_months or len({g.test for g in recommended}) != 1:
        return None
    old = recommended[0]
    if old.interval_months == new.interval_months or any(
            g.test == old.test and g.action == "recommend" for g in own):
        return None
    return old


# a version that says it sets no goal: "No LDL cholesterol target is set; the treatment goal is the intensity of
# therapy rather than an achieved level"
_NO_GOAL = re.compile(r"\bno\b[^.;]{0,40}\b(?:target|goal)s? (?:is|are|has been|have been) (?:set|given|recommended)\b"
                      r"|\b(?:does|do) not (?:set|recommend|use) (?:an?|any) [^.;]{0,30}\b(?:target|goal)\b", re.I)


def goal_changes(docs: dict[Any, list[Frame]], add: Any) -> None:
    """Between versions of one organization, a goal the later version recommends (for everyone or for a subgroup, not
    a higher-risk group) on a measure no frame of the earlier version sets a goal for is a ``target`` change: a goal
    introduced ("an LDL cholesterol goal has been introduced": below 100 mg/dL in 2025, "No LDL cholesterol target is
    set" in 2020; a time-in-range goal for people using continuous glucose monitoring added beside the A1C target).
    The earlier version is quoted where it says it sets no goal, else where it states its goals. Only a goal
    introduced: a later version that does not restate an earlier goal (a focused update) has not dropped it."""
    goals = {key: [f for f in fs if f.action in RECOMMEND_LIKE and not higher_risk(f) and f.targets]
             for key, fs in docs.items()}
    measures = {key: {q.name for f in fs for q in f.targets} for key, fs in docs.items()}
    for (doc_new, intervention), new in docs.items():
        for (doc_old, other), old in docs.items():
            if other != intervention or doc_new == doc_old or pair_kind(new[0], old[0]) != "change" or (
                    (old[0].issued or "") >= (new[0].issued or "")):
                continue
            introduced = [f for f in goals[(doc_new, intervention)]
                          if not measures[(doc_old, other)] & {q.name for q in f.targets}]
            if not introduced:
                continue
            quoted = (next((f for f in old if _NO_GOAL.search(f.sentence)), None)
                      or next((f for f in old if f.targets), None) or old[0])
            for f in introduced:
                add("change", "target", quoted, f"no {f.targets[0].name} goal", f, quantities_text(f.targets))
