"""Ages in a guideline sentence: every age expression (:func:`age_spans`), the population's band
(:func:`age_bounds`) and two bands offered as alternatives (:func:`age_alternatives`).

Ages are inclusive whole years: "older than/over N", "beyond/past/after age N" give ``N+1`` as the lower
bound; "younger than/under N", "before age N" give ``N-1`` as the upper bound. All age expressions of a clause
are intersected ("before age 50, at ages 40 to 49" is 40-49). "by age N" (a deadline) is not a population
bound. Ages written in words ("forty-five") and decades ("in their forties") are read too.
"""

from __future__ import annotations

import re

from clinrag.tools.frames import set_aside
from clinrag.tools.frames.numbers import tens_as_digits

_DECADE_WORDS = {"twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
                 "eighties": 80}
_DECADES = "(" + "|".join(_DECADE_WORDS) + ")"
_DECADES_NC = "(?:" + "|".join(_DECADE_WORDS) + ")"
_NOT_AGE_AFTER = r"(?!\s*(?:mm|%|/|mg|µg|mcg|micrograms?\b|ng\b|mmol|\.\d|pack|years? (?:since|ago)|hours?\b))"  # a BP
# value, a percent, a FIT or PSA level, pack-years, a monitoring period ("over 24 hours on a monitor")...


def _age(text: str) -> int:
    """An age as digits or as a decade word ("forties" -> 40)."""
    return _DECADE_WORDS.get(text.lower(), 0) or int(text)


# (regex, kind); kinds: range (g1-g2), range_before (g1 to g2-1), min (g1), gt (g1+1), lt (g1-1), max (g1), at (start
# cue -> min, else g1-g1)
_AGE_PATTERNS: tuple[tuple[str, str], ...] = (
    # a changed start or stop age: "raised the starting age from 21 to 25" starts at 25 (the old age bounds no one)
    (r"\b(?:start(?:ing)?|initial|minimum|lower) age (?:[\w-]+ ){0,6}?from (?:age )?\d{2} to (?:age )?(\d{2,3})\b",
     "min"),
    (r"\b(?:stop(?:ping)?|upper|maximum) age (?:[\w-]+ ){0,6}?from (?:age )?\d{2,3} to (?:age )?(\d{2,3})\b", "max"),
    # an age moved by a verb of change starts there unless it names a stop: "lowers the age at which PSA screening may
    # be discussed from 55 to 50" (from 50)
    (r"\b(?:lower|rais|reduc|mov|chang|bring|brought)\w* (?:the )?(?!(?:[\w-]+ ){0,8}?(?:stop|end|upper|maximum))"
     r"(?:[\w-]+ ){0,8}?age (?:[\w-]+ ){0,8}?from (?:age )?\d{2} to (?:age )?(\d{2,3})\b", "min"),
    # "the age at which screening begins has been raised from 21 to 25 years"
    (r"\bage at which (?:\w+ ){0,3}(?:begins?|starts?) (?:\w+ ){0,4}?from (?:age )?\d{2} to (?:age )?(\d{2,3})\b",
     "min"),
    # (not a band of values: "a result from 42 to 47 mmol/mol")
    (r"\bfrom (?:the )?(?:age (?:of )?)?(\d{2}) (?:through|to|until|up to(?: and including)?) (?:the )?"
     r"(?:age (?:of )?)?(\d{2,3})\b" + _NOT_AGE_AFTER,
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
    (r"\b(\d{2,3})\s*(?:years?\s*)?(?:of age\s+)?(?:and|or)\s+(?:under|younger|below)\b", "max"),  # "aged 84 and under"
    (r"\b(?:aged?|ages)\s+(\d{2,3})\s*(?:years?\s*)?or more\b", "min"),  # "anyone aged 60 years or more"
    (r"\b(?:older than|over(?: the age of)?|above(?: the age of)?)\s+(?:age\s+)?(\d{2,3})\b" + _NOT_AGE_AFTER, "gt"),
    (r"\b(?:beyond|past|after) (?:the )?age (?:of )?(\d{2,3})\b", "gt"),
    # a band's start and end in one phrase: "Invitations still start when you turn 25 and end at 64" (25 to 64)
    (r"\b(?:start|begin)s? (?:when (?:you|they) (?:turn|reach) |at (?:the )?(?:age (?:of )?)?)(\d{2}) and "
     r"(?:end|stop|finish)s? (?:at (?:the )?(?:age (?:of )?)?|when (?:you|they) (?:turn|reach) )(\d{2,3})\b", "range"),
    # "screening should stop at 60 for women whose last HPV test was negative": none after 60
    # ("Most men can stop having PSA tests at 75")
    # ("women may exit screening at 70 years of age")
    (r"\b(?:stop|end|cease|discontinue|exit)\w* (?:having |getting |being )?(?:[\w-]+ ){0,2}?at (?:the )?(?:age )?"
     r"(?:of )?(\d{2,3})\b" + _NOT_AGE_AFTER, "gt"),
    (r"\bbeyond (\d{2,3})\b" + _NOT_AGE_AFTER, "gt"),  # "beyond 85, screening is not recommended"
    # "screening should stop after 65 for women whose ..." (not "after 10 years")
    (r"\bafter (\d{2,3})\b(?!\s*(?:years?|months?|weeks?|days?)\b)" + _NOT_AGE_AFTER, "gt"),
    # "We will send your first invitation shortly before your 25th birthday" (from 25)
    (r"\bfirst (?:\w+ ){0,2}invitation (?:\w+ ){0,3}before (?:the |your |her |his |their )?(\d{2,3})(?:st|nd|rd|th) "
     r"birthday", "min"),
    # "Women are first invited within six months of their 50th birthday" (from 50)
    (r"\bfirst invited (?:\w+ ){0,4}(?:of|after|at|on|around) (?:the |your |her |his |their )?(\d{2,3})(?:st|nd|rd|th) "
     r"birthday", "min"),
    # "between your 45th birthday and your 71st birthday" (45-70)
    (r"\bbetween (?:the |their |your |her |his )?(\d{2})(?:st|nd|rd|th) birthday and (?:the |their |your |her |his )?"
     r"(\d{2,3})(?:st|nd|rd|th) birthday", "range_before"),
    # "From 45 until your 55th birthday" (45-54)
    (r"\b(?:from|aged?) (?:age )?(\d{2}) (?:until|till|up to|to) (?:the |their |your |her |his |a )?(\d{2,3})"
     r"(?:st|nd|rd|th) birthday", "range_before"),
    # birthdays: "before the 21st birthday", "from her 50th birthday up to her 71st birthday" (50-70)
    (r"\b(?:before|up to|until|till) (?:the |their |your |her |his |a )?(\d{2,3})(?:st|nd|rd|th) birthday", "lt"),
    # ("past your 70th birthday")
    (r"\b(?:from|after|past|on|at) (?:the |their |your |her |his |a |the (?:patient|person)'s )?(\d{2,3})"
     r"(?:st|nd|rd|th) birthday", "min"),
    (r"\bbefore (\d{2,3})\b(?!\s*(?:years?|months?|weeks?|days?)\b)" + _NOT_AGE_AFTER, "lt"),  # "not ... before 25"
    (r"\bfrom (?:age )?(\d{2}) (?:onwards?|on|and up)\b", "min"),  # "from 55 onward"
    (r"\bfrom (\d{2}) years(?: of age| old)?\b", "min"),  # "men from 45 years of age who have ..."
    (r"\b(\d{2})-?\s*(?:to|-|–)\s*(\d{2,3})-year-olds?\b", "range"),  # "40- to 70-year-olds"
    (r"\b(?:younger than|under(?: the age of)?|before(?: the)? age(?: of)?|below age|prior to(?: the)? age(?: of)?)\s+"
     r"(?:age\s+)?"
     r"(\d{2,3})\b" + _NOT_AGE_AFTER, "lt"),
    (r"\b(?:through|until|till|up to(?: and including)?|to)\s+(?:at least\s+)?(?:the\s+)?age (?:of\s+)?(\d{2,3})\b",
     "max"),
    # "no later than age 50", "begin no later than your 45th birthday" (not "no later than 12 months")
    (r"\bno later than (?:age |the |their |your |her |his )?(\d{2,3})"
     r"(?:(?:st|nd|rd|th) birthday\b|\b(?!\s*(?:years?|months?|weeks?|days?)\b))", "min"),
    # a programme's last invitation: "your last routine invitation comes at age 60"
    (r"\blast (?:\w+ )?invitation (?:\w+ ){0,3}at (?:the )?(?:age (?:of )?)?(\d{2,3})\b", "max"),
    # "the last kit is posted in the year you turn 74"
    (r"\blast (?:\w+ )?(?:invitation|kit|letter)s? (?:\w+ ){0,6}(?:you|they|he|she) (?:turns?|reach(?:es)?) "
     r"(?:age )?(\d{2,3})\b", "max"),
    (r"\b(?:starts?|starting|begins?|beginning) at (?:age )?(\d{2,3})\b" + _NOT_AGE_AFTER, "min"),
    # a coverage policy's start: "average-risk members become eligible at 45"
    (r"\b(?:become|becomes|became|are|is) eligible (?:for (?:[\w-]+ ){1,3})?(?:at|from) (?:the )?(?:age (?:of )?)?"
     r"(\d{2})\b" + _NOT_AGE_AFTER, "min"),
    # "starting PSA testing at 45", "to start cervical screening at 30", "start having a mammogram every other
    # year at 40"
    (r"\b(?:start(?:ing)?|begin(?:ning)?) (?:[\w-]+ ){1,6}at (?:age )?(\d{2})\b" + _NOT_AGE_AFTER, "min"),
    (r"\b(?:aged?|ages)\s*(?:≥|>=)\s*(\d{2,3})\b", "min"),
    (r"\b(?:aged?|ages)\s*>\s*(\d{2,3})\b", "gt"),
    (r"\b(?:aged?|ages)\s*(?:≤|<=)\s*(\d{2,3})\b", "max"),
    (r"\b(?:aged?|ages)\s*<\s*(\d{2,3})\b", "lt"),
    (r"(?:≥|>=)\s*(\d{2,3})\s*(?:years?|y)\b", "min"),  # "patients ≥ 60 years old", "≥ 40 years of age"
    (r"(?:≤|<=)\s*(\d{2,3})\s*(?:years?|y)\b", "max"),
    # "women ≥75", "adults ≥60": a comparator right after the people
    (r"\b(?:women|men|adults|people|persons|patients|individuals|those)\s*(?:≥|>=)\s*(\d{2,3})\b" + _NOT_AGE_AFTER,
     "min"),
    (r"\b(?:women|men|adults|people|persons|patients|individuals|those)\s*(?:≤|<=)\s*(\d{2,3})\b" + _NOT_AGE_AFTER,
     "max"),
    (r"(?<![≥≤<=])>\s*(\d{2,3})\s*(?:years?|y)\b", "gt"),  # "patients >65 y"
    (r"(?<![≥≤>=])<\s*(\d{2,3})\s*(?:years?|y)\b", "lt"),
    # "in their 40s and 50s", "in their forties", "in their fifties, sixties or seventies"
    (r"\bin (?:their|your|the) (\d0)s(?:(?:,\s*\d0s)*,?\s*(?:and|or|to|through)\s*(\d0)s)?", "decade"),
    (rf"\bin (?:their|your|the) {_DECADES}(?:(?:,\s*{_DECADES_NC})*,?\s*(?:and|or|to|through)\s*{_DECADES})?",
     "decade"),
    # "until you turn 75" (to 74), "can stay in the pathway until they are 80"
    # (not "reaches fifteen years since quitting")
    (r"\b(?:until|till|up to)\s+(?:\w+\s+){0,2}(?:turns?|reach(?:es)?)\s+(?:age\s+)?(\d{2,3})\b" + _NOT_AGE_AFTER,
     "lt"),
    (r"\b(?:until|till)\s+(?:you are|you're|they are|they're|he is|she is)\s+(?:aged?\s+)?(\d{2,3})\b"
     + _NOT_AGE_AFTER, "max"),
    (r"\b(?:when|once)\s+(?:\w+\s+){0,2}(?:turns?|reach(?:es)?)\s+(?:age\s+)?(\d{2,3})\b" + _NOT_AGE_AFTER,
     "min"),
    # "Once you are 65, we do not recommend further screening" (from 65; "once you are 75 or over" is read above)
    (r"\bonce\s+(?:you are|you're|they are|they're|he is|she is)\s+(?:aged?\s+)?(\d{2,3})\b" + _NOT_AGE_AFTER, "min"),
    # "you can stop after you turn 65" (older than 65, as "after age 65")
    (r"\bafter\s+(?:\w+\s+){0,2}(?:turns?|reach(?:es)?)\s+(?:age\s+)?(\d{2,3})\b" + _NOT_AGE_AFTER, "gt"),
    # "you should have your first cervical screening test at 25", "your first smear test (cytology) is due at 21"
    (r"\bfirst (?:[\w-]+ |\([^()]*\) ){0,5}?(?:is |are )?(?:due |offered |done )?at (?:the )?(?:age (?:of )?)?(\d{2})\b"
     + _NOT_AGE_AFTER, "min"),
    # ("we will invite you for your first test when you are 25")
    (r"\bfirst (?:[\w-]+ ){0,3}?(?:test|screen\w*|invitation|mammogram|scan|smear|check)\w* when (?:you|they) "
     r"(?:are|turn|reach) (?:age )?(\d{2})\b" + _NOT_AGE_AFTER, "min"),
    # a table written as prose: "by age: 21-29, cytology ...; 30-65, co-testing ..." (a bare band opening a part), and
    # a gapped band with its own grade: "Adults aged 45 to 49 (grade B) and 50 to 75 (grade A) should ..."
    (r"(?:^\W*|\bby age:?\s*)(\d{2})\s*[-–]\s*(\d{2,3})(?=\s*,)", "range"),
    (r"^\W*(?:and|or)\s+(\d{2})\s*(?:[-–]|to)\s*(\d{2,3})(?=\s*\()", "range"),
    (r"\b(?:at|from) (?:the )?ages? (?:of )?(\d{2,3})\b", "at"),
    (r"\b(?:at|from) (\d{2})(?=,? (?:they|you|women|men|adults|people|patients)\b)", "min"),  # "at 55 they may"
    # "..., and from 40 for men of Black ancestry"
    (r"\bfrom (\d{2}) (?=(?:for|in|among) (?:\w+ )?(?:men|women|adults|people|persons|patients|those|anyone)\b)",
     "min"),
)
_START_CUE = re.compile(r"\b(?:start\w*|begin\w*|initiat\w*|from|discuss\w*|first)\b", re.I)
# "brother diagnosed ... before age 65", "whose father had prostate cancer before age 65" (right before the age:
# "men whose father had prostate cancer may be offered a PSA test from the age of 45" is about the men, and so is
# "men ... with a father or brother diagnosed with prostate cancer may enter from age 40", the men's verb in between)
_DIAGNOSED_BEFORE = re.compile(r"\bdiagnosed\b(?![^,.;]*\b(?:may|can|should|will|must|could)\b)[^,.;]{0,40}$"
                               r"|\b(?:had|has|developed) (?:\w+ ){0,2}cancer\s*$", re.I)
# a reading's limit is no age: "below 140/90 mm Hg, that is, systolic under 140 and diastolic under 90"
# (and a calcium score: "or a coronary artery calcium score of 100 or above")
_READING_BEFORE = re.compile(r"\b(?:systolic|diastolic|SBP|DBP|(?:calcium|CAC|Agatston) score)(?: (?:blood )?pressure"
                             r"| reading)?\s+(?:is |was |of )?"
                             r"(?:(?:under|below|over|above|less than|more than|greater than|at least|at or below)"
                             r"\s*)?$", re.I)
# an age in a purpose clause bounds someone else: "beginning at age 25 to identify those who may benefit from
# screening before age 40" (not a finding on the evidence: "The Council continues to find the evidence insufficient to
# recommend for or against starting a statin in adults aged 76 years or older")
_PURPOSE_BEFORE = re.compile(r"\bto (?:identify|find(?! (?:the |that the )?(?:evidence|data)\b)|detect|select)\b"
                             r"[^.;]*$", re.I)
# a trend among an age group is a finding: "early-onset disease, which has increased by about 2% per year among
# adults younger than 50"
_TREND_BEFORE = re.compile(r"\b(?:increased|risen|rose|rising|increasing|fallen|fell|falling|decreased|declined"
                           r"|declining|doubled|grown|growing)\b[^.;]{0,60}"
                           r"\bamong (?:\w+ ){0,2}$", re.I)
# ... and a trend written after its age group: "because incidence among adults aged 45 to 49 rose by roughly 2%"
# ("Incidence among women in their forties has been rising by about 2 % a year")
_TREND_AFTER = re.compile(r"\s*(?:years?(?: of age| old)?\s+)?(?:has |have )?(?:increased|risen|rose|fallen|fell"
                          r"|decreased|declined|doubled|grown"
                          r"|been (?:rising|increasing|falling|declining|growing))\b", re.I)
# a number of years someone is expected to live is no age: "men with a life expectancy under 10 years"
# ("... and are not expected to live for more than 10 to 15 years")
_EXPECTANCY_BEFORE = re.compile(r"\blife expectancy\b[^,.;\d]{0,25}$"
                                r"|\bexpected to live (?:for )?(?:more than |at least |less than |another |over "
                                r"|under )?$", re.I)
# an age group the statement includes does not narrow it: "for adults with hypertension, including those over 80 who
# live independently"
# where a quality measure's count starts, not whom screening is for: "The denominator begins at age 24 because screening
# starts at 21 and a full three-year look-back is needed", "the denominator now begins at age 25 and ends at age 65"
_MEASURE_BEFORE = re.compile(
    r"\b(?:denominator|numerator|measure|look-?back(?: period)?)\s+(?:now\s+|still\s+)?"
    r"(?:(?:begins?|starts?)\s+at\s+(?:age\s+)?\d+\s+and\s+)?(?:(?:begins?|starts?|ends?)\s+)?$", re.I)
# ("a target of less than 130/80 mm Hg, including for community-dwelling adults 65 years of age or older")
# (not "Screening outside the programme, including opportunistic tests before age 25, is not supported": tests)
_INCLUDED_BEFORE = re.compile(r"\bincluding (?:for |in |among )?(?:(?:[\w-]+ ){0,2}"
                              r"(?:those|people|adults|patients|men|women|persons|individuals) )?(?:who are )?"
                              r"(?:aged )?$", re.I)


def age_spans(text: str) -> list[tuple[int, int, int | None, int | None]]:
    """Every age expression as (start, end, age_min, age_max), earlier patterns claiming their text first (ages
    written in words are read as digits; positions are then those of the digit form)."""
    text = tens_as_digits(text)
    taken: list[tuple[int, int]] = []
    spans = []
    start_cue = bool(_START_CUE.search(text))
    for pattern, kind in _AGE_PATTERNS:
        for m in re.finditer(pattern, text, re.I):
            preceding = text[: m.start()]
            if any(m.start() < e and s < m.end() for s, e in taken) or _DIAGNOSED_BEFORE.search(preceding) or (
                _PURPOSE_BEFORE.search(preceding) or _EXPECTANCY_BEFORE.search(preceding)
                or set_aside.REPLACED_AGE.search(preceding) or _TREND_BEFORE.search(preceding)
                or _INCLUDED_BEFORE.search(preceding) or _MEASURE_BEFORE.search(preceding)
                or _READING_BEFORE.search(preceding[-40:])
                or _TREND_AFTER.match(text, m.end())
            ):
                continue
            a = _age(m.group(1))
            if not 10 <= a <= 120:
                continue
            second = _age(m.group(2)) if m.lastindex and m.lastindex > 1 else a
            if kind == "range" and second < a:
                continue  # "from 55 to 50" is an age moved, never a band
            lo_hi = {
                "range": (a, second),
                "range_before": (a, second - 1),
                "min": (a, None),
                "gt": (a + 1, None),
                "lt": (None, a - 1),
                "max": (None, a),
                "at": (a, None) if start_cue else (a, a),
                "decade": (a, second + 9),
            }[kind]
            taken.append((m.start(), m.end()))
            spans.append((m.start(), m.end(), *lo_hi))
    return sorted(spans)


# a parenthetical that grades parts of a statement by age band
_STRENGTH_BANDS = re.compile(r"\((?=[^()]*\b(?:grade|class|level)\b)[^()]*\bfor (?:ages?|adults|people|those)\b"
                             r"[^()]*\)", re.I)


def age_bounds(text: str) -> tuple[int | None, int | None]:
    """The intersection of all age expressions; the first expression alone when they contradict each other."""
    spans = age_spans(text)
    if not spans:
        return None, None
    lo = max((s[2] for s in spans if s[2] is not None), default=None)
    hi = min((s[3] for s in spans if s[3] is not None), default=None)
    if lo is not None and hi is not None and lo > hi:
        # the bands of a strength stated per band do not narrow the statement: "... beginning at age 45 and
        # continuing until age 75 (Grade A for ages 50 to 75; Grade B for ages 45 to 49)" is 45 to 75
        outside = _STRENGTH_BANDS.sub(" ", text)
        if outside != text:
            return age_bounds(outside)
        return spans[0][2], spans[0][3]
    return lo, hi


_ALTERNATIVE = re.compile(
    r"(?:\s*years?(?: of age| old)?)?\s*,?\s*(or|and)\s+(?:(?:in|for)\s+)?(?:(?:men|women|adults|people|persons"
    r"|those)\s+)?(?:aged?\s+)?", re.I
)


def age_alternatives(text: str) -> list[tuple[int | None, int | None]] | None:
    """Two age bands that do not meet, joined by "or" ("men younger than 55 or aged 70 and over"), or by "and" with
    a gap between them ("adults younger than 50 and adults 70 years or older": no one is both, so "and" lists two
    groups; "50 to 59 and 60 to 69" meet and stay one band): two populations (:func:`age_bounds` would intersect
    them); None otherwise."""
    spans = age_spans(text)
    if len(spans) != 2:
        return None
    (_, e1, lo1, hi1), (s2, _, lo2, hi2) = spans
    gap = max((lo2 - hi1) if hi1 is not None and lo2 is not None else 0,
              (lo1 - hi2) if hi2 is not None and lo1 is not None else 0)
    joint = _ALTERNATIVE.fullmatch(tens_as_digits(text)[e1:s2])
    return [(lo1, hi1), (lo2, hi2)] if joint and gap > (1 if joint.group(1).lower() == "and" else 0) else None
