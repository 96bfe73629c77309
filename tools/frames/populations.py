"""Within one recommendation, the populations it names one by one: enumerated populations
(:func:`population_segments`: "in women younger than 21, in women over 65 ..., and in women who ...", two subjects with
criteria of their own) and alternative conditions (:func:`alternative_conditions`: "if ..., or if ...", "under
140/90 mmHg if ..., or under 150/90 mmHg if ..."). Each yields one text per population, with the words they share.
"""

from __future__ import annotations

import re

from clinrag.tools.frames import subgroups

_POP_HEAD = re.compile(
    r"\b(?:in|for|to|among)\s+(?:(?:all|Black|older|younger)\s+)?"
    r"(?:women|men|adults|people|persons|patients|individuals|those|nursing home residents)\b",
    re.I,
)


# two subjects, each with a criterion of its own, before the verb: "Black men and men whose father or brother had
# prostate cancer may be offered ..."
_SUBJECTS = re.compile(
    r"^\W*((?:Black |older |younger )?(?:women|men|adults|people)\b.*?)\s+and\s+((?:women|men|adults|people)\b.*?)"
    r"(?=\s+(?:should|may|must|can|could|are|is|will)\b)", re.I
)


def _subject_segments(text: str) -> list[str] | None:
    m = _SUBJECTS.match(text)
    if not m:
        return None
    own = [set(subgroups.criteria(g)) | set(subgroups.conditions(g)) for g in m.groups()]
    if not all(own) or own[0] == own[1]:
        return None
    return [f"{subject}{text[m.end() :]}" for subject in m.groups()]


_PEOPLE = r"(?:men|women|adults|people|persons|patients|individuals|those)\b"
_AT_AGE = r"at (?:the )?(?:age (?:of )?)?\d{2}\b"
# a second population that repeats the first one's verb with its own age: "men at average risk should start talking
# with their doctor about PSA testing at age 45, and men at higher risk, such as Black men ..., at age 40"
_GAPPED_AGE = re.compile(
    rf"^(?P<pre>.*?\b)(?P<h1>{_PEOPLE}.*?)(?P<verb>\s+(?:should\s+|to\s+|may\s+|can\s+)?(?:start|begin|be offered"
    rf"|be screened|have)\b.*?)\s*(?P<age1>\b{_AT_AGE})\s*,\s*and\s+(?P<h2>{_PEOPLE}.*?),?\s+(?P<age2>{_AT_AGE})"
    rf"(?P<rest>.*)$", re.I)


# a higher-risk group's own start beside the general band: "men aged 50 to 69, or from age 45 for Black men and men
# whose father or brother was diagnosed with prostate cancer, are offered ..."
_GROUP_START = re.compile(
    r"^(?P<pre>.*?)(?P<band>\b(?:aged?|ages)\s+\d{2}\s*(?:to|-|–|through)\s*\d{2,3})\s*,\s*or\s+"
    r"(?P<alt>(?:from|at) (?:the )?(?:age (?:of )?)?\d{2} (?:for|in|among) [^,]+?),?"
    r"(?P<rest>\s+(?:are|is|should|may|can|will|must)\b.*)$", re.I)


def population_segments(text: str) -> list[str]:
    """One text per enumerated population ("in women younger than 21, in women over 65 ..., and in women who ...",
    or two subjects with criteria of their own before the verb, or a second subject that repeats the first one's
    verb with an age of its own, or a higher-risk group's own start after the general band); the shared prefix and
    suffix go with each."""
    if (m := _GROUP_START.match(text)) and (subgroups.criteria(m["alt"])
                                            or subgroups.conditions(m["alt"])):
        return [f"{m['pre']}{m['band']}{m['rest']}", f"{m['pre']}{m['alt']}{m['rest']}"]
    if m := _GAPPED_AGE.match(text):
        return [f"{m['pre']}{m['h1']}{m['verb']} {m['age1']}{m['rest']}", f"{m['pre']}{m['h2']}{m['verb']} {m['age2']}"
                f"{m['rest']}"]
    if subjects := _subject_segments(text):
        return subjects
    heads = list(_POP_HEAD.finditer(text))
    chain = [heads[0]] if heads else []
    for h in heads[1:]:
        if re.search(r"(?:,|\band|\bor|\bnor)\s*$", text[chain[-1].end() : h.start()]):
            chain.append(h)
        elif len(chain) < 2:
            chain = [h]
    if len(chain) < 2:
        return [text]
    tail = re.search(r"[,(;]", text[chain[-1].end() :])
    end = chain[-1].end() + tail.start() if tail else len(text)
    prefix, suffix = text[: chain[0].start()], text[end:]
    bounds = [h.start() for h in chain] + [end]
    segs = [re.sub(r"(?:,|\s)*(?:\band|\bor|\bnor)?\s*$", "", text[a:b]) for a, b in zip(bounds, bounds[1:])]
    return [f"{prefix}{seg} {suffix}".strip() for seg in segs]


# a value limited to its own people, then another for others: "aim for under 140/90 mmHg if the person is under 80,
# or under 150/90 mmHg if they are 80 or older"
_LIMIT = (r"(?:(?:under|below|less than|at or below|at most|above|over|at least)\s+)?\d[\d./]*\s*"
          r"(?:mm\s*Hg|%|mg/dL|mmol/mol)\s+(?:if|when|for|in)\b")
_VALUE_ALTERNATIVES = re.compile(rf"^(?P<head>.*?)(?P<first>{_LIMIT}[^;]*?),?\s+or\s+(?P<second>{_LIMIT}.*)$", re.I)


# the same subject with another verb: "once a person has gone 15 years without smoking or develops a health problem"
# (not "currently smoke or have quit within 15 years", one eligibility)
_OTHER_VERB = re.compile(r",?\s+or\s+(?=(?:develops?|becomes?|acquires?|is diagnosed|are diagnosed)\b)", re.I)


def alternative_conditions(text: str) -> list[str]:
    """One text per alternative condition: "can stop if they are over 65 and ..., or if they have had a
    hysterectomy", "stop once someone has not smoked for 15 years, or if a health problem limits ..." (or "... or
    develops a health problem that limits ...") are two populations, each with the words before the first "if" (or
    "once", "when"); "aim for under 140/90 mmHg if ..., or under 150/90 mmHg if ..." is two values for two
    populations, each with the words before the first value."""
    if m := _VALUE_ALTERNATIVES.match(text):
        return [f"{m['head']}{m['first']}", f"{m['head']}{m['second']}"]
    first = re.search(r"\b(?:if|once|when)\b", text)
    parts = re.split(r",?\s+or (?:if|once|when)\s+", text[first.end() :]) if first else []
    if len(parts) < 2 and first:
        # the same subject, another verb: "once a person has gone 15 years without smoking or develops a health
        # problem that limits life expectancy", when each side names a criterion or a condition of its own
        parts = _OTHER_VERB.split(text[first.end() :], maxsplit=1)
        if len(parts) < 2 or not all(subgroups.criteria(p) or subgroups.conditions(p)
                                     for p in parts):
            return [text]
    if len(parts) < 2:
        return [text]
    return [f"{text[: first.end()]} {part.strip()}" for part in parts]
