"""How two frames' schedules are compared (the ``interval`` facet): each frame's interval widened to the span of
its document's intervals for the same test and people; the same test, or a document that names none; and a schedule
for one tier of a tiered one matched with a schedule that names both tiers."""

from __future__ import annotations

import re
from typing import Any

from clinrag.tools.frames.intervals import span_interval
from clinrag.tools.frames.schema import RECOMMEND_LIKE, Frame, Interval


def schedules_differ(a: Frame, b: Frame, docs: dict[Any, list[Frame]], kind: str) -> tuple[Interval, Interval] | None:
    """The two schedules where two comparable frames' schedules differ, else None. How often to repeat a test is also
    stated for the people who choose it ("for men who opt in: every 12 months"), so individual decisions count."""
    ia, ib = _schedule(a, docs), _schedule(b, docs)
    if ({a.action, b.action} <= _SCHEDULED and ia and ib and _same_test(a, b, docs, kind) and ia != ib
            and not (_one_tier(a) and ib.max == ia.max) and not (_one_tier(b) and ia.max == ib.max)):
        return ia, ib
    return None


_SCHEDULED = RECOMMEND_LIKE | {"individual_decision"}  # actions whose interval is a schedule to compare


# a schedule stated for one tier of a tiered schedule: with an unnamed more frequent tier ("at least twice a year,
# and more often if you are not meeting your goal") or for the stable tier alone ("once glycemic control is stable,
# about every six months"); the same as a schedule that names both tiers ("twice yearly at goal, quarterly
# otherwise", 3-6 months) where both schedules' longest gap is the same
_ONE_TIER = re.compile(r"\b(?:and|or) more (?:often|frequently) (?:if|when|in|for)\b"
                       r"|\b(?:once|when|while|if) (?:\w+ ){0,2}(?:is|are|has been|have been) stable\b", re.I)


def _one_tier(f: Frame) -> bool:
    return bool(_ONE_TIER.search(f.sentence or ""))


def _same_test(a: Frame, b: Frame, docs: dict[Any, list[Frame]], kind: str) -> bool:
    """The same test, or between organizations a schedule from a document that names no test of the intervention at
    all (a letter's "we will write to you again in three years") beside one that names it: the only schedule that
    document has (between versions, :func:`versions.sole_test_changes` compares such schedules)."""
    if a.test == b.test:
        return True
    return kind == "disagreement" and any(
        f.test is None and not any(g.test for g in docs[(f.doc_id, f.intervention)]) for f in (a, b))


def _schedule(f: Frame, docs: dict[Any, list[Frame]]) -> Interval | None:
    """A frame's interval, widened to the span of every interval its document recommends for the same test and the
    same people: "at least twice yearly in patients meeting goals" beside "quarterly in patients whose therapy has
    changed" is one schedule of 3-6 months for people the rules read as the same."""
    if not f.interval_months:
        return None
    same = [g.interval_months for g in docs.get((f.doc_id, f.intervention), [f])
            if g.interval_months and g.action in _SCHEDULED and g.test == f.test and g.population == f.population]
    return span_interval(same or [f.interval_months])
