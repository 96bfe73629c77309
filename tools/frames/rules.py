"""The regex rule layer: ages, intervals, strength, action and non-recommendation sentences.

Ages are inclusive whole years: "older than/over N", "beyond/past/after age N" give ``N+1`` as the lower
bound; "younger than/under N", "before age N" give ``N-1`` as the upper bound. All age expressions of a clause
are intersected ("before age 50, at ages 40 to 49" is 40-49). "by age N" (a deadline) is not a population
bound. Intervals are months; several intervals in one clause become their span ("every two years ... or annual"
is 12-24).
"""

from __future__ import annotations

import re

from clinrag.tools.frames.schema import Interval

_NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "twelve": 12}
_NUM = r"(\d+|one|two|three|four|five|six|ten|twelve)"
_DECADE_WORDS = {"twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
                 "eighties": 80}
_DECADES = "(" + "|".join(_DECADE_WORDS) + ")"
_DECADES_NC = "(?:" + "|".join(_DECADE_WORDS) + ")"
_NOT_AGE_AFTER = r"(?!\s*(?:mm|%|/|mg|\.\d|pack|years? (?:since|ago)))"  # a BP value, a percent, pack-years...


def _n(text: str) -> int:
    return _NUM_WORDS.get(text.lower(), 0) or int(text)


_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_SPELLED = re.compile(rf"\b({'|'.join(_TENS)})(?:[- ]({'|'.join(_UNITS)}))?\b", re.I)


def _digits(text: str) -> str:
    """Numbers from 20 to 99 written in words as digits ("forty-five to fifty-four" -> "45 to 54")."""
    return _SPELLED.sub(lambda m: str(_TENS[m.group(1).lower()] + _UNITS.get((m.group(2) or "").lower(), 0)), text)


def _age(text: str) -> int:
    """An age as digits or as a decade word ("forties" -> 40)."""
    return _DECADE_WORDS.get(text.lower(), 0) or int(text)


# (regex, kind); kinds: range (g1-g2), min (g1), gt (g1+1), lt (g1-1), max (g1), at (start cue -> min, else g1-g1)
_AGE_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"\bfrom (?:the )?(?:age (?:of )?)?(\d{2}) (?:through|to|until|up to) (?:the )?(?:age (?:of )?)?(\d{2,3})",
     "range"),
    (r"\bbetween (?:the )?ages? (?:of )?(\d{2}) and (\d{2,3})", "range"),
    (r"\bbetween (\d{2}) and (\d{2,3}) years\b", "range"),
    (r"\bbetween (\d{2}) and (\d{2,3})\b" + _NOT_AGE_AFTER, "range"),  # "and between 50 and 64 every 5 years"
    (r"\b(?:aged?|ages)\s+(\d{2})\s*(?:to|-|–|through|and)\s*(\d{2,3})\b(?:\s*years)?", "range"),
    (r"\b(?:you're|you are|they're|they are)\s+(\d{2})\s*(?:to|-|–)\s*(\d{2,3})\b", "range"),  # "if you're 50 to 64"
    (r"\b(?:you're|you are|they're|they are|aged?) between (\d{2}) and (\d{2,3})\b", "range"),
    (r"\b(?:adults|women|men|people|persons|patients|individuals|those)\s+(\d{2})\s*(?:to|-|–|through)\s*(\d{2,3})\b",
     "range"),  # "for adults 50 to 75"
    (r"(?<!every )(?<!\d )\b(\d{2})\s*(?:to|-|–|through)\s*(\d{2,3})\s*years?(?: of age| old)?\b", "range"),
    (r"\b(\d{2,3})\s*(?:years?\s*)?(?:of age\s+)?(?:and|or)\s+(?:older|over|above)\b", "min"),
    (r"\b(?:older than|over(?: the age of)?|above(?: the age of)?)\s+(?:age\s+)?(\d{2,3})\b" + _NOT_AGE_AFTER, "gt"),
    (r"\b(?:beyond|past|after) age (\d{2,3})\b", "gt"),
    (r"\b(?:younger than|under(?: the age of)?|before age|below age)\s+(?:age\s+)?(\d{2,3})\b" + _NOT_AGE_AFTER, "lt"),
    (r"\b(?:through|until|till|up to|to)\s+(?:at least\s+)?(?:the\s+)?age (?:of\s+)?(\d{2,3})\b", "max"),
    (r"\bno later than age (\d{2,3})\b", "min"),
    (r"\b(?:starting|beginning) at (?:age )?(\d{2,3})\b" + _NOT_AGE_AFTER, "min"),
    # "starting PSA testing at 45"
    (r"\b(?:starting|beginning) (?:[\w-]+ ){1,3}at (?:age )?(\d{2})\b" + _NOT_AGE_AFTER, "min"),
    (r"\b(?:aged?|ages)\s*(?:≥|>=)\s*(\d{2,3})\b", "min"),
    (r"\b(?:aged?|ages)\s*>\s*(\d{2,3})\b", "gt"),
    (r"\b(?:aged?|ages)\s*(?:≤|<=)\s*(\d{2,3})\b", "max"),
    (r"\b(?:aged?|ages)\s*<\s*(\d{2,3})\b", "lt"),
    (r"(?:≥|>=)\s*(\d{2,3})\s*(?:years?|y)\b", "min"),  # "patients ≥ 60 years old", "≥ 40 years of age"
    (r"(?:≤|<=)\s*(\d{2,3})\s*(?:years?|y)\b", "max"),
    # "in their 40s and 50s", "in their forties", "in their fifties, sixties or seventies"
    (r"\bin (?:their|your|the) (\d0)s(?:(?:,\s*\d0s)*,?\s*(?:and|or|to|through)\s*(\d0)s)?", "decade"),
    (rf"\bin (?:their|your|the) {_DECADES}(?:(?:,\s*{_DECADES_NC})*,?\s*(?:and|or|to|through)\s*{_DECADES})?",
     "decade"),
    (r"\bwhen\s+(?:\w+\s+){0,2}(?:turns?|reach(?:es)?)\s+(?:age\s+)?(\d{2,3})\b", "min"),
    (r"\b(?:at|from) (?:the )?ages? (?:of )?(\d{2,3})\b", "at"),
    (r"\b(?:at|from) (\d{2})(?=,? (?:they|you|women|men|adults|people|patients)\b)", "min"),  # "at 55 they may"
)
_START_CUE = re.compile(r"\b(?:start\w*|begin\w*|initiat\w*|from|discuss\w*)\b", re.I)
_DIAGNOSED_BEFORE = re.compile(r"\bdiagnosed\b[^,.;]{0,40}$", re.I)  # "brother diagnosed ... before age 65"
# an age in a purpose clause bounds someone else: "beginning at age 25 to identify those who may benefit from
# screening before age 40"
_PURPOSE_BEFORE = re.compile(r"\bto (?:identify|find|detect|select)\b[^.;]*$", re.I)


def age_spans(text: str) -> list[tuple[int, int, int | None, int | None]]:
    """Every age expression as (start, end, age_min, age_max), earlier patterns claiming their text first (ages
    written in words are read as digits; positions are then those of the digit form)."""
    text = _digits(text)
    taken: list[tuple[int, int]] = []
    spans = []
    start_cue = bool(_START_CUE.search(text))
    for pattern, kind in _AGE_PATTERNS:
        for m in re.finditer(pattern, text, re.I):
            preceding = text[: m.start()]
            if any(m.start() < e and s < m.end() for s, e in taken) or _DIAGNOSED_BEFORE.search(preceding) or (
                _PURPOSE_BEFORE.search(preceding)
            ):
                continue
            a = _age(m.group(1))
            if not 10 <= a <= 120:
                continue
            lo_hi = {
                "range": (a, _age(m.group(2)) if m.lastindex and m.lastindex > 1 else a),
                "min": (a, None),
                "gt": (a + 1, None),
                "lt": (None, a - 1),
                "max": (None, a),
                "at": (a, None) if start_cue else (a, a),
                "decade": (a, (_age(m.group(2)) if m.lastindex and m.lastindex > 1 else a) + 9),
            }[kind]
            taken.append((m.start(), m.end()))
            spans.append((m.start(), m.end(), *lo_hi))
    return sorted(spans)


def age_bounds(text: str) -> tuple[int | None, int | None]:
    """The intersection of all age expressions; the first expression alone when they contradict each other."""
    spans = age_spans(text)
    if not spans:
        return None, None
    lo = max((s[2] for s in spans if s[2] is not None), default=None)
    hi = min((s[3] for s in spans if s[3] is not None), default=None)
    if lo is not None and hi is not None and lo > hi:
        return spans[0][2], spans[0][3]
    return lo, hi


_ALTERNATIVE = re.compile(
    r"\s*,?\s*or\s+(?:(?:in|for)\s+)?(?:(?:men|women|adults|people|those)\s+)?(?:aged?\s+)?", re.I
)


def age_alternatives(text: str) -> list[tuple[int | None, int | None]] | None:
    """Two age bands that do not meet, joined by "or" ("men younger than 55 or aged 70 and over"): two populations
    (:func:`age_bounds` would intersect them); None otherwise."""
    spans = age_spans(text)
    if len(spans) != 2:
        return None
    (_, e1, lo1, hi1), (s2, _, lo2, hi2) = spans
    apart = (hi1 is not None and lo2 is not None and hi1 < lo2) or (hi2 is not None and lo1 is not None and hi2 < lo1)
    return [(lo1, hi1), (lo2, hi2)] if apart and _ALTERNATIVE.fullmatch(_digits(text)[e1:s2]) else None


# (regex, months or None for "every N unit", position kind). "pre" intervals are adjectives that modify the
# following test ("annual FIT"); "post" intervals, adverbs among them, follow their test ("colonoscopy every 10
# years", "a fecal immunochemical test annually").
_INTERVAL_PATTERNS: tuple[tuple[str, int | None, str], ...] = (
    (rf"\bevery\s+{_NUM}\s*(?:or|to|-|–)\s*{_NUM}\s+(years?|months?)", None, "post"),
    (rf"\bevery\s+{_NUM}\s+(years?|months?)", None, "post"),
    (rf"\b(?:at\s+)?{_NUM}\s*-?\s*(?:(?:or|to|-|–)\s*{_NUM}\s*-\s*)?(year|month)s?\s+intervals?\b", None, "post"),
    (rf"\bat intervals of\s+{_NUM}\s*(?:(?:or|to|-|–)\s*{_NUM}\s*)?\s(years?|months?)", None, "post"),
    (r"\bevery (?:other|second) year\b|\bbiennially\b", 24, "post"),
    (r"\bevery year\b|\beach year\b|\bonce a year\b|\bannually\b", 12, "post"),
    (r"\btriennially\b", 36, "post"),
    (r"\bbiennial\b", 24, "pre"),
    (r"\byearly\b|\bannual\b", 12, "pre"),
    (r"\btriennial\b", 36, "pre"),
)


def interval_spans(text: str) -> list[tuple[int, int, Interval, str]]:
    """Every interval mention as (start, end, interval, "pre"|"post")."""
    taken: list[tuple[int, int]] = []
    out = []
    for pattern, months, where in _INTERVAL_PATTERNS:
        for m in re.finditer(pattern, text, re.I):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            if months is not None:
                iv = Interval(min=months, max=months)
            else:
                unit = 12 if m.group(m.lastindex).lower().startswith("year") else 1
                nums = [_n(g) * unit for g in m.groups()[:-1] if g]
                iv = Interval(min=min(nums), max=max(nums))
            out.append((m.start(), m.end(), iv, where))
    return sorted(out, key=lambda t: t[0])


def span_interval(intervals: list[Interval]) -> Interval | None:
    if not intervals:
        return None
    return Interval(min=min(i.min for i in intervals), max=max(i.max for i in intervals))


# "grade B", "(B recommendation)", "(I statement)", "(B)", "(B grade)", "its A-grade recommendation"
_GRADE = re.compile(
    r"\b[Gg]rade ([ABCDI])\b(?! means)|\(([ABCDI])(?: recommendation| statement| grade)?\)|\b([ABCDI])-grade\b"
)
def _grade_letter(match: re.Match) -> str:
    """The letter of a :data:`_GRADE` match, whichever of its forms matched."""
    return next(g for g in match.groups() if g)


_CLASS = re.compile(r"\bclass (III|IIb|IIa|II|I)\b(?:\s*[,:]\s*(harm|no benefit))?", re.I)
# "level of evidence B-R" as written; "LOE B", "Level B" ("Class IIa, Level B") are the abbreviation
_LOE = re.compile(
    r"\b(level of evidence|LOE|(?-i:Level)|(?<=, )level)\s*:?\s*((?-i:[ABC])(?:-(?:R|NR|LD|EO))?)\b", re.I
)
# "strong recommendation"; VA/DoD's "(Weak for)", "(Strong against)"
_WORD = re.compile(r"\b(strong|qualified|conditional|weak)\s+recommendation|\((strong|weak) (?:for|against)\)", re.I)
# KDIGO's grade, level 1 or 2 with the quality of evidence A-D, written "(1B)", "(2C)"
_KDIGO = re.compile(r"\(([12][A-D])\)")
# the evidence grading that follows the strength word: "(weak recommendation, low-quality evidence)" (GRADE as ACP
# states it), "(conditional recommendation, low certainty)"
_QUALITY = re.compile(
    r"\brecommendation\s*[,;]\s*((?:high|moderate|low|very low)(?:-quality evidence|[- ]certainty(?: evidence)?))", re.I
)


def strength(text: str) -> str | None:
    """Stated strength, as stated with normalized case: "grade B", "class III, harm", "level of evidence B-R" (or
    "LOE B-R" where the text abbreviates it), "strong", "weak; low-quality evidence", KDIGO's "2B"; parts are
    joined with "; "."""
    parts = []
    if m := _GRADE.search(text):
        parts.append(f"grade {_grade_letter(m)}")
    if m := _CLASS.search(text):
        roman = m.group(1)
        roman = roman.upper() if roman.upper() in ("I", "II", "III") else "II" + roman[2:].lower()
        parts.append(f"class {roman}" + (f", {m.group(2).lower()}" if m.group(2) else ""))
    if m := _LOE.search(text):
        written = "level of evidence" if m.group(1).lower() == "level of evidence" else "LOE"
        parts.append(f"{written} {m.group(2).upper()}")
    if m := _WORD.search(text):
        parts.append((m.group(1) or m.group(2)).lower())
        if m.group(1) and (q := _QUALITY.search(text, m.end() - len("recommendation"))):
            parts.append(q.group(1).lower())
    if m := _KDIGO.search(text):
        parts.append(m.group(1))
    return "; ".join(parts) or None


# What a grade or class means (USPSTF grades; ACC/AHA classes of recommendation). Grade I is insufficient
# evidence, never a recommendation against.
_GRADE_ACTION = {
    "A": "recommend",
    "B": "recommend",
    "C": "individual_decision",
    "D": "recommend_against",
    "I": "insufficient_evidence",
}
_CLASS_ACTION = {
    "I": "recommend",
    "IIa": "suggest_or_consider",
    "IIb": "suggest_or_consider",
    "II": "suggest_or_consider",
    "III": "recommend_against",
}

# Lexical action cues, checked in this order (first match wins).
_ACTION_CUES: tuple[tuple[str, str], ...] = (
    (
        "insufficient_evidence",
        r"\binsufficient\b|\bcannot (?:be )?(?:determined?|assess)|\bunable to (?:assess|determine)"
        r"|\bnot enough evidence|\bfor or against\b",
    ),
    (
        "discourage",
        r"\bdiscourag\w*|\bconsider not\b|\bsuggests? (?:against|not)\b|\b(?:can|may) (?:stop|discontinue|cease)\b"
        r"|\b(?:appropriate|reasonable|acceptable) to (?:stop|discontinue|cease)\b|\bnot (?:necessary|needed)\b"
        r"|\b(?:do|does|will) not need\b|\b(?:don't|doesn't|won't) need\b",
    ),
    (
        "recommend_against",
        r"\brecommend(?:s|ed)? (?:against|not)\b|\b(?:does|do|did) not recommend|\bnot recommended\b"
        r"|\bnot (?:advised|suggested|indicated|endorsed)\b|\bshould not\b|\bmust not\b"
        r"|\badvis\w* (?:against|stopping)|\bavoid\w*"
        r"|\b(?:should|must)(?: also)? (?:stop|discontinue|cease|be (?:stopped|discontinued|ceased))",
    ),
    (
        "individual_decision",
        r"\bindividual (?:decision|one|basis)|\bindividuali[sz]ed\b|\binformed decision"
        r"|\b(?:decided|made) (?:through|by|via|with) shared decision|\buse shared decision"
        r"|\bopportunity to\b|\bselectively\b|\bif the patient chooses"
        r"|\bdiscussion should start|\b(?:a|be) shared decision\b|\bcase[- ]by[- ]case\b"
        r"|\b(?:offered|have|has) a discussion (?:about|of)\b"
        r"|\bask (?:your|a|their) (?:doctor|clinician|provider|nurse|GP) about\b"
        r"|\bshared decision[- ]making (?:with|about)\b"
        r"|\btalk\w* (?:with|to) (?:\w+ )?(?:doctor|clinician|provider|health care provider)s?(?: [^.,;]{0,25})? about "
        r"(?:whether\b|(?:the )?(?:possible )?benefits and harms)|\bbefore deciding whether\b",
    ),
    (
        "suggest_or_consider",
        r"\bsuggest(?:s|ed)?\b|\bconsider(?:s|ed)?\b|\bmight\b|\bmay (?:also |still )?(?:begin|suit|justify|be|start|"
        r"offer|use|help|transition|switch)\b|\bacceptable\b|\bencourag\w+|\breasonable\b",
    ),
    (
        "recommend",
        r"\brecommend(?:s|ed)?\b|\brecommendation (?:is|to)\b|\bshould\b|\bmust\b|\badvis\w+|\bsays to\b"
        r"|\b(?:sets?|set) (?:a|an)\b[^.]*\b(?:target|goal)|\bdefine[sd]?\b|\baim (?:for|is)\b|\bprefer\w*"
        r"|\bbegins? at\b|\bqualify\b|\bget (?:screened|tested|checked)\b|\b(?:is|are) (?:appropriate|indicated)\b"
        r"|\b(?:will|'ll) be invited\b|\baims? to\b"
        # an imperative opens the sentence, or follows an opening phrase ("For primary prevention, offer ...") or
        # the label of its source ("NICE: offer ...")
        r"|^\W*(?:[A-Z][\w/-]{1,15}:\s*)?(?:(?:for|in|among|if|when)\b[^,;]{0,80},\s*)?(?:Screen|Initiate|Start|Offer"
        r"|Begin|Use|Treat|Confirm|Diagnose|Help|Support)\b",
    ),
    # a choice offered on its own ("may choose biennial screening"); after "should", which states the main action
    ("individual_decision", r"\bmay choose\b|\bmay opt\b"),
)
_NOT_A_RECOMMENDATION = re.compile(
    r"\bcompared with\b|\blater replaced\b|\breplaced\b|\bno longer\b|\bhad been\b|\bmoved (?:the|from)\b"
    r"|\blowered the\b|\braised the\b|\bkeeps the\b|\bgrade [A-DI] means\b|\bappl(?:ies|ied) to\b"
    r"|\b(?:issued|published|updated|addressed) (?:its|their|an?|the|guidance)\b",
    re.I,
)
# a finding ("observational data suggest that X is associated with Y") is not advice, unless the sentence also
# advises ("because trials show benefit, the USPSTF recommends ...")
_FINDING = re.compile(
    r"\b(?:data|studies|trials|evidence|analyses|findings|results) (?:suggest|show|indicate|demonstrate)\w*\b"
    r"|\b(?:is|are|was|were) associated with\b",
    re.I,
)
_ADVICE = re.compile(r"\brecommend\w*|\bshould\b|\bmust\b|\badvis\w*|\b[Gg]rade [A-DI]\b|\bclass I", re.I)


# a change narrative that states the recommendation now in force ("lowered the starting age ..., now recommending
# it for adults 45 to 49") is a recommendation
_NOW = re.compile(r"\bnow (?:recommend|advis|suggest)\w*", re.I)


def is_recommendation_text(text: str) -> bool:
    """False for change narratives (unless they state what is now recommended), definitions of grades, scope and
    publication statements, and findings."""
    if _NOT_A_RECOMMENDATION.search(text) and not _NOW.search(text):
        return False
    return not (_FINDING.search(text) and not _ADVICE.search(text))


def action(text: str) -> str | None:
    """The action a clause states: a grade or class decides when present, otherwise the first lexical cue. A bare
    letter ("(B)") decides only when no word does: ADA writes its levels of evidence the same way ("is reasonable
    (A)")."""
    grade = _GRADE.search(text)
    bare = grade is not None and re.fullmatch(r"\([A-Z]\)", grade.group(0)) is not None
    if grade and not bare:
        return _GRADE_ACTION[_grade_letter(grade)]
    if m := _CLASS.search(text):
        roman = m.group(1)
        return _CLASS_ACTION.get(roman if roman.upper() == roman else "II" + roman[2:].lower(), "recommend")
    for name, pattern in _ACTION_CUES:
        if re.search(pattern, text, re.I if name != "recommend" else re.I | re.M):
            return name
    if m := _WORD.search(text):  # "X is a qualified recommendation": the strength word is the only cue
        if "against" in m.group(0).lower():
            return "recommend_against"
        return "recommend" if (m.group(1) or m.group(2)).lower() in ("strong", "qualified") else "suggest_or_consider"
    return _GRADE_ACTION[_grade_letter(grade)] if bare else None
