"""How two frames' schedules are compared (the ``interval`` facet): each frame's interval widened to the span of
its document's intervals for the same test and people; the same test, or a document that names none; a schedule
for one tier of a tiered one matched with a schedule that names both tiers; and the schedules of two documents that
each schedule one test, a different one (:func:`sole_test_schedules`)."""

from __future__ import annotations

import re
from typing import Any

from clinrag.tools.frames import bands
from clinrag.tools.frames.groups import general
from clinrag.tools.frames.intervals import schedule_text, span_interval
from clinrag.tools.frames.pairing import ages_meet, pair_kind
from clinrag.tools.frames.schema import RECOMMEND_LIKE, Frame, Interval


def schedules_differ(a: Frame, b: Frame, docs: dict[Any, list[Frame]], kind: str) -> tuple[Interval, Interval] | None:
    """The two schedules where two comparable frames' schedules differ, else None. How often to repeat a test is also
    stated for the people who choose it ("for men who opt in: every 12 months"), so individual decisions count."""
    ia, ib = _schedule(a, docs), _schedule(b, docs)
    if ({a.action, b.action} <= _SCHEDULED and ia and ib and _same_test(a, b, docs, kind) and ia != ib
            and not (_one_tier(a) and ib.max == ia.max) and not (_one_tier(b) and ia.max == ib.max)
            and not _limit_within_choice(a, ia, ib) and not _limit_within_choice(b, ib, ia)):
        return ia, ib
    return None


# a coverage policy's frequency limit ("covered once every 12 months", "limited to one screening study every 12
# months", "Frequency limit: one screening LDCT per 12 months")
_COVERAGE_LIMIT = re.compile(r"\bcovered\b[^.;]{0,60}\bonce (?:every|per|in|a)\b|\blimited to one\b"
                              r"|\bfrequency limits?\b", re.I)


def _limit_within_choice(f: Frame, limit: Interval, other: Interval) -> bool:
    """A frequency limit that is one end of a schedule left to choice ("once every 12 months" beside "every year, or
    every two years if you prefer", 12-24): the limit pays for either, so the two do not differ."""
    return (bool(_COVERAGE_LIMIT.search(f.sentence or "")) and limit.min == limit.max and other.min < other.max
            and other.min <= limit.min <= other.max)


_SCHEDULED = RECOMMEND_LIKE | {"individual_decision"}  # actions whose interval is a schedule to compare


# a schedule stated for one tier of a tiered schedule: with an unnamed more frequent tier ("at least twice a year,
# and more often if you are not meeting your goal") or for the stable tier alone ("once glycemic control is stable,
# about every six months", "once at target, repeat HbA1c every six months"); the same as a schedule that names both
# tiers ("twice yearly at goal, quarterly otherwise", 3-6 months) where both schedules' longest gap is the same
_ONE_TIER = re.compile(r"\b(?:and|or) more (?:often|frequently) (?:if|when|in|for)\b"
                       r"|\b(?:once|when|while|if) (?:\w+ ){0,2}(?:is|are|has been|have been) stable\b"
                       # "once at target, repeat HbA1c every six months", "every six months in stable patients"
                       r"|\b(?:once|when|while) (?:at|meeting) (?:the |their |your )?(?:target|goal)\b"
                       r"|\bin stable patients\b", re.I)


# the tier below a PSA cut-off: "repeating the test every two years is reasonable when the PSA is below 2.5 ng/mL"
# beside "every two years if the result is under 2.5 ng/mL and yearly if it is 2.5 ng/mL or above" (not "every two
# years; the interval may be extended to four years when the PSA is below 1 ng/mL", where the cut-off changes the
# interval and the two years are the schedule above it)
_BELOW_A_CUT_OFF = re.compile(r"\b(?:when|if|while) (?:the |your |his |a )?PSA (?:level |result )?(?:is|was|stays"
                              r"|remains) (?:below|under|less than)\b", re.I)
_CHANGES_THE_INTERVAL = re.compile(r"\b(?:extend|lengthen|shorten|widen)\w*|\b(?:longer|shorter) interval", re.I)


def _one_tier(f: Frame) -> bool:
    sentence = f.sentence or ""
    return bool(_ONE_TIER.search(sentence)) or bool(
        _BELOW_A_CUT_OFF.search(sentence) and not _CHANGES_THE_INTERVAL.search(sentence))


def _same_test(a: Frame, b: Frame, docs: dict[Any, list[Frame]], kind: str) -> bool:
    """The same test, or between organizations a schedule from a document that names no test of the intervention at
    all (a letter's "we will write to you again in three years") beside one that names it: the only schedule that
    document has (between versions, :func:`sole_test_schedules` compares such schedules)."""
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


def sole_test_schedules(docs: dict[Any, list[Frame]], add: Any) -> None:
    """Schedules of different tests for the same ages. Between versions of one organization where one schedules a
    single test that the other does not schedule, a different interval is an ``interval`` change ("cytology every 3
    years" in 2015, "primary hrHPV testing every 5 years" in 2022; "cytology every 3 years at 21-29, co-testing every
    5 years at 30-65" in 2019, "primary hrHPV testing every 5 years" from 25 in 2024; a letter's "you will be invited
    every three years", which names no test, against "we now invite everyone aged 25 to 64 every five years" for HPV
    testing): the organization's screening schedule changed. Between organizations, where each schedules one named
    test, a different one, for the ages both cover ("a Pap test every three years" from 21 until 30 against "primary
    hrHPV testing every 5 years" from 25; :func:`_sole_test_over_shared_ages`): how often each screens those people
    differs. Where either offers several tests for those ages, schedules are compared test by test
    (:func:`schedules_differ`)."""
    timed: dict[tuple, list[Frame]] = {}
    for key, fs in docs.items():
        if found := [f for f in fs if f.interval_months and f.action in RECOMMEND_LIKE and general(f)]:
            timed[key] = found
    for (doc_a, intervention), fa in timed.items():
        for (doc_b, other), fb in timed.items():
            kind = pair_kind(fa[0], fb[0]) if other == intervention and doc_a < doc_b else None
            if kind == "change":
                tests_a, tests_b = {f.test for f in fa}, {f.test for f in fb}
                if tests_a & tests_b or min(len(tests_a), len(tests_b)) != 1:
                    continue
                pairs = [(a, b) for a in fa for b in fb if ages_meet(a, b, docs)]
            elif kind == "disagreement":
                pairs = [(a, b) for a in fa for b in fb if a.test and b.test and a.test != b.test
                         and _sole_test_over_shared_ages(a, b, fa, fb, docs)]
            else:
                continue
            for a, b in pairs:
                if a.interval_months != b.interval_months:
                    old, new = sorted((a, b), key=lambda f: (f.issued or "", f.doc_id or ""))
                    add(kind, "interval",
                        old, schedule_text(old.interval_months, old.test, "test not named"),
                        new, schedule_text(new.interval_months, new.test, "test not named"))


def _sole_test_over_shared_ages(a: Frame, b: Frame, fa: list[Frame], fb: list[Frame],
                                docs: dict[Any, list[Frame]]) -> bool:
    """Whether the ages both frames' bands cover are scheduled with ``a``'s test alone in ``a``'s document and with
    ``b``'s alone in ``b``'s. Another test's band that touches those ages in one boundary year only does not count
    ("a Pap test every 3 years until you turn 30" beside "from 30 to 65, an HPV test every 5 years": 21-30 and 30-65
    as read)."""
    (alo, ahi), (blo, bhi) = (bands.band(f, docs[(f.doc_id, f.intervention)]) for f in (a, b))
    lo, hi = max(alo, blo), min(ahi, bhi)
    if lo > hi:
        return False

    def covers(g: Frame) -> bool:
        glo, ghi = bands.band(g, docs[(g.doc_id, g.intervention)])
        olo, ohi = max(glo, lo), min(ghi, hi)
        return olo <= ohi and (ohi > olo or (olo, ohi) == (lo, hi))

    return not any(g.test != f.test and covers(g) for f, fs in ((a, fa), (b, fb)) for g in fs)
