"""Intervals: how often a recommendation says to repeat its test, in months ("every 1 or 2 years" = 12-24); several
intervals in one clause become their span ("every two years ... or annual" is 12-24)."""

from __future__ import annotations

import re

from clinrag.tools.frames import set_aside
from clinrag.tools.frames.numbers import NUMBER, number
from clinrag.tools.frames.schema import Interval

# the number words an interval is written with
_NUM = rf"({NUMBER})"


# (regex, months or None for "every N unit", position kind). "pre" intervals are adjectives that modify the
# following test ("annual FIT"); "post" intervals, adverbs among them, follow their test ("colonoscopy every 10
# years", "a fecal immunochemical test annually").
_INTERVAL_PATTERNS: tuple[tuple[str, int | None, str], ...] = (
    (rf"\bevery\s+{_NUM}\s*(?:or|to|-|–)\s*{_NUM}\s+(years?|months?)", None, "post"),
    (rf"\bevery\s+{_NUM}\s+(years?|months?)", None, "post"),
    (rf"\b(?:at\s+)?{_NUM}\s*-?\s*(?:(?:or|to|-|–)\s*{_NUM}\s*-\s*)?(year|month)s?\s+intervals?\b", None, "post"),
    (rf"\bat intervals of\s+{_NUM}\s*(?:(?:or|to|-|–)\s*{_NUM}\s*)?\s(years?|months?)", None, "post"),
    # "one FIT per 12-month period", "one FIT in any 12-month period"
    (rf"\b(?:per|every|each|in any|in (?:a|each) (?:rolling )?)\s*{_NUM}-(year|month)\s+period\b", None, "post"),
    # "colonoscopy, one per 120 months"
    (rf"\b(?:one|once) (?:per|every|each)\s+{_NUM}\s+(years?|months?)", None, "post"),
    # "limited to one fecal immunochemical test (FIT) per 12 months"
    (rf"\bper\s+{_NUM}\s+(years?|months?)\b", None, "post"),
    # "a further kit is sent automatically two years after each normal result"
    (rf"\b(?:sent|invited|offered|repeated|recalled|rescreened)\s+(?:automatically\s+)?(?:again\s+)?{_NUM}\s+"
     r"(years?|months?)\s+(?:after|later)\b", None, "post"),
    # "if your first scan is clear, you will be invited back for another scan two years later"
    (rf"\b(?:another|a further|a repeat|the next)\s+(?:\w+\s+)?(?:scan|test|screen|mammogram|kit|check)\s+{_NUM}\s+"
     r"(years?|months?)\s+later\b", None, "post"),
    # "are recalled 3 years later", "retested after 5 years", "we will invite you again in five years", "you will be
    # invited again in five years", "we will write to you again in three years"
    # a pathway's "if HPV is not detected, set the recall for 5 years", "recall in five years if negative"
    (rf"\b(?:recalled|retested|rescreened|re-?invited|(?:invite|write to|contact) (?:you|them) again|invited again"
     r"|next be (?:invited|recalled|screened|tested|offered)|recall(?: (?:interval|date))?(?: (?:for|at))?"
     r"|rescanned)\s+"
     r"(?:after\s+|in\s+|at\s+)?"
     rf"{_NUM}\s+(years?|months?)", None, "post"),
    # a gapped second schedule that takes the first one's verb: "we will write to you again in three years while you
    # are aged 25 to 49, and in five years once you are aged 50 to 64"
    (rf"^\W*(?:and\s+)?in\s+{_NUM}\s+(years?|months?)\b(?=\s+(?:once|while|when|if|from|for|after)\b)", None, "post"),
    # "a normal colonoscopy need not be repeated for ten years", "if it is negative you will not need another one for
    # five years"
    (rf"\bneed not be repeated (?:for|within|before)\s+{_NUM}\s+(years?|months?)", None, "post"),
    (rf"\b(?:will not|won't|do not|don't) need another(?: one| test)? (?:for|within|before)\s+{_NUM}\s+"
     r"(years?|months?)", None, "post"),
    # a leaflet's "you can have another test in two years' time"
    (rf"\b(?:have|get) another (?:\w+ )?(?:test|scan|check|mammogram)\s+in\s+{_NUM}\s+(years?|months?)['’]? time\b",
     None, "post"),
    # "the next screening test is due in five years"
    (rf"\bdue (?:again )?in\s+{_NUM}\s+(years?|months?)", None, "post"),
    # "if no HPV is found your next test will usually be in 5 years"
    (rf"\bnext (?:test|screen\w*|invitation|scan|check) (?:will|would) (?:usually |normally |generally )?be in\s+"
     rf"{_NUM}\s+(years?|months?)", None, "post"),
    # "your next invitation will come after ten years instead"
    (rf"\bnext (?:test|screen\w*|invitation|scan|check) (?:will|would) (?:usually |normally |generally )?"
     rf"(?:come|arrive) (?:after|in)\s+{_NUM}\s+(years?|months?)", None, "post"),
    # "the screening interval should be five years", "a recall interval of 3 years"
    (rf"\binterval\s+(?:should be|is|of|will be|remains)\s+(?:set at\s+)?{_NUM}\s+(years?|months?)", None, "post"),
    (r"\bevery (?:other|second) year\b|\bbiennially\b", 24, "post"),
    # "quarterly until the goal is reached and twice yearly thereafter" (3-6)
    (r"\b(?:twice|two times) (?:a |per |each )?year(?:ly)?\b|\bsemi-?annually\b|\bsix-monthly\b", 6, "post"),
    (r"\bquarterly\b|\bfour times (?:a|per) year\b", 3, "post"),
    # ("FIT once per calendar year")
    (r"\bevery year\b|\beach year\b|\bonce a year\b|\bannually\b|\b(?:once )?(?:per|a|each|every) calendar year\b", 12,
     "post"),
    (r"\btriennially\b", 36, "post"),
    # "re-invited at four-yearly intervals"
    (rf"\b{_NUM}-(year)ly\b", None, "post"),
    # a quality measure's look-back: "cytology performed within the last 3 years", "a primary hrHPV test within the
    # last 5 years" (not "quit within the past 15 years", an eligibility)
    # (the word before is not part of the span, so that a test's own name ends before it: "a multitarget stool DNA
    # test within the past 3 years", "flexible sigmoidoscopy within the past 5 years; or a colonoscopy within the past
    # 10 years")
    (r"(?:" + "|".join(f"(?<={w} )" for w in (
        "performed", "done", "documented", "result", "results", "test", "tests", "testing", "screened", "screening",
        "colonoscopy", "sigmoidoscopy", "colonography", "mammogram", "mammography", "cytology"))
     + rf")within\s+the\s+(?:last|past|previous)\s+{_NUM}\s+(years?)", None, "post"),
    (r"\bonce (?:a|every) decade\b", 120, "post"),
    (r"\bbiennial\b", 24, "pre"),
    # (not a visit: "at their annual review", "to your annual diabetes review")
    (r"\byearly\b(?! (?:[\w-]+ )?(?:review|visit|check-?up|appointment)s?\b)|\bannual\b(?! (?:[\w-]+ )?(?:review"
     r"|visit|check-?up|appointment|physical|health check)s?\b)", 12, "pre"),
    (r"\btriennial\b", 36, "pre"),
)


# a look-back that counts the measurement year itself: "during the measurement year or the two years prior" is
# three years ("within the measurement period or the four years before it" five), "a FIT during the measurement year"
# one
_MEASUREMENT_YEAR_OR = re.compile(
    rf"\b(?:during|within) the measurement (?:year|period)(?: or the {_NUM} years? (?:prior|before|preceding)"
    r"(?: it)?\b)?", re.I)


# the measurement year bounding who is counted, not a test: "women who turn 52 to 74 years of age during the
# measurement period", "continuously enrolled during the measurement year"
# ("women who turn 52 through 74 during the measurement year")
_WHO_DURING = re.compile(r"\b(?:of age|old|(?:aged?|turns?) \d+\w*(?:\s*(?:through|to|and|-|–)\s*\d+\w*)?"
                         r"|enrolled|alive|members)\s*$", re.I)


# ... and a denominator's measurement year, which says who is counted ("Denominator: men aged 50 to 74 with a PSA
# screening test during the measurement year"), not how often a test is expected (a numerator's "a FIT during the
# measurement year" is)
# ("Measure PCS-1: the denominator is men aged 55 to 69 years who had a PSA screening test during the measurement year")
_IN_A_DENOMINATOR = re.compile(r"\bdenominator(?:\s*\([^()]*\))?\s*(?::|\bis\b|\bincludes\b)"
                               r"(?![^;]*\bnumerator\b)[^;]*$", re.I)


def interval_spans(text: str) -> list[tuple[int, int, Interval, str]]:
    """Every interval mention as (start, end, interval, "pre"|"post"), except an alternative set aside."""
    taken: list[tuple[int, int]] = []
    out = []
    harmful: set[int] = set()  # where an interval named for its harm starts ("as annual testing increases ...")
    for m in _MEASUREMENT_YEAR_OR.finditer(text):
        if not m.group(1) and (_WHO_DURING.search(text[: m.start()]) or _IN_A_DENOMINATOR.search(text[: m.start()])):
            continue
        taken.append((m.start(), m.end()))
        months = 12 * (number(m.group(1) or "0") + 1)
        out.append((m.start(), m.end(), Interval(min=months, max=months), "post"))
    for pattern, months, where in _INTERVAL_PATTERNS:
        for m in re.finditer(pattern, text, re.I):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            if set_aside.REJECTED_INTERVAL.search(text[: m.start()]) or set_aside.IN_A_REASON.search(text[: m.start()]):
                continue
            if set_aside.HARMFUL_INTERVAL_AFTER.match(text, m.end()):
                harmful.add(m.start())
            if months is not None:
                iv = Interval(min=months, max=months)
            else:
                unit = 12 if m.group(m.lastindex).lower().startswith("year") else 1
                nums = [number(g) * unit for g in m.groups()[:-1] if g]
                iv = Interval(min=min(nums), max=max(nums))
            out.append((m.start(), m.end(), iv, where))
    # an interval named for its harm beside the one advised is no schedule of the sentence
    if len(harmful) < len(out):
        out = [t for t in out if t[0] not in harmful]
    return sorted(out, key=lambda t: t[0])


def schedule_text(interval: Interval, test: str | None = None, unnamed: str | None = None) -> str:
    """An interval as a conflict shows it, with the test it is for: "24 months (FIT)", "36 months (test not named)"
    (``unnamed`` where the test is not named), "12 months"."""
    name = test or unnamed
    return f"{interval.text()} months" + (f" ({name})" if name else "")


def span_interval(intervals: list[Interval]) -> Interval | None:
    if not intervals:
        return None
    return Interval(min=min(i.min for i in intervals), max=max(i.max for i in intervals))
