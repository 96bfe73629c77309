"""Within one recommendation, the populations it names one by one: enumerated populations
(:func:`population_segments`: "in women younger than 21, in women over 65 ..., and in women who ...", two subjects with
criteria of their own) and alternative conditions (:func:`alternative_conditions`: "if ..., or if ...", "under
140/90 mmHg if ..., or under 150/90 mmHg if ..."). Each yields one text per population, with the words they share.
:func:`population_of` reads who one such text is about; :func:`merged_population` joins an anaphoric population ("these
patients") to the one before it.
"""

from __future__ import annotations

import re

from clinrag.tools.frames import ages, subgroups
from clinrag.tools.frames.lexicon import OVERUSE
from clinrag.tools.frames.schema import FrameContext, Population

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


# ... and the general start first, the higher-risk group's after it: "recommend PSA screening for men at average risk
# from the age of 45, and from 40 for men of Black ancestry or with a first-degree relative diagnosed before 65"
_GROUP_START_AFTER = re.compile(
    r"^(?P<pre>.*?)(?P<band>\b(?:from|at) (?:the )?(?:age (?:of )?)?\d{2})\s*,?\s*(?:and|or|but)\s+"
    r"(?P<alt>(?:from|at) (?:the )?(?:age (?:of )?)?\d{2} (?:for|in|among) [^;]+?)(?P<rest>[.;]?)$", re.I)


def population_segments(text: str) -> list[str]:
    """One text per enumerated population ("in women younger than 21, in women over 65 ..., and in women who ...",
    or two subjects with criteria of their own before the verb, or a second subject that repeats the first one's
    verb with an age of its own, or a higher-risk group's own start after the general band); the shared prefix and
    suffix go with each."""
    for group_start in (_GROUP_START, _GROUP_START_AFTER):
        if (m := group_start.match(text)) and (subgroups.criteria(m["alt"]) or subgroups.conditions(m["alt"])):
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
    # a last population named by its ages alone: "for men in their fifties a level of 3 ng/mL or more is taken as
    # raised, for men in their sixties the cut-off is 4 ng/mL, and from 70 it is 5 ng/mL"
    if m := _LAST_BY_AGE.match(suffix):
        segs, suffix = [*segs, re.sub(r"^(from|over|after)\s+(?=\d)", r"\1 age ", m["last"])], m["end"]
    return [f"{prefix}{seg} {suffix}".strip() for seg in segs]


_LAST_BY_AGE = re.compile(r"^\s*,?\s*(?:and|or)\s+(?P<last>(?:from|over|after|aged?)\s+(?:the\s+)?(?:age\s+(?:of\s+)?)?"
                          r"\d{2}\b[^,;()]*?)(?P<end>[.;]?)$", re.I)


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


_FEMALE = re.compile(r"\b(?:women|woman|female|females)\b", re.I)
_MALE = re.compile(r"\b(?:men|man|male|males)\b", re.I)
_RISK = (
    (re.compile(r"\b(?:even higher|very[- ]high)[- ]risk\b", re.I), "very high"),
    # (not a comparator: "a 15% or higher risk over the next 10 years")
    # (not what a result means: "... means you are at higher risk of getting diabetes, sometimes called prediabetes")
    # (not a definition of the risk, which says who is meant by its values: "high risk means an estimated 10-year
    # ASCVD risk of 20% or more")
    (re.compile(r"(?<!\bor )\b(?:high|higher|increased|elevated) risk\b(?! of bleeding)"
                r"(?!\s+(?:here )?(?:means|refers to|is defined as|is taken to mean)\b)"
                r"(?! of (?:getting |developing )?(?:type 2 )?diabetes\b)"
                # "Women with a lifetime risk of 20 % or more should be referred for ... annual MRI"
                r"|\blifetime (?:breast cancer )?risk (?:of |is )?\d+(?:\.\d+)? ?(?:%|percent) or "
                r"(?:more|higher|greater|above)\b", re.I), "high"),
    (re.compile(r"\baverage[- ]risk\b|\baverage risk\b", re.I), "average"),
)


# a risk the population is without ("not at increased risk", "no personal or family history that places them at
# increased risk") or that names another group beside it
_NOT_AT_RISK_BEFORE = re.compile(r"\bnot (?:otherwise )?(?:at )?$"
                                 # an exception: "not medically necessary unless the member has a lifetime risk of
                                 # 20% or more"
                                 r"|\bunless\b[^,.;]{0,40}$"
                                 # another group beside the first: "adults 40 or older, and those at increased risk,
                                 # should have their blood pressure measured annually"
                                 r"|\b(?:and|or),? (?:in )?(?:those|people|persons|anyone|(?:younger |older )?"
                                 r"(?:adults|patients|individuals))(?: who are)? at $"
                                 r"|\b(?:no|without)\b[^.;]{0,60}\b(?:that|which) (?:would )?(?:places?|puts?) "
                                 r"(?:them|you|him|her|the \w+) at $", re.I)


def _risk(text: str) -> str | None:
    """The risk group a text names (very high, high, average), unless the population is without it."""
    for pattern, label in _RISK:
        for m in pattern.finditer(text):
            if not _NOT_AT_RISK_BEFORE.search(text[max(0, m.start() - 100) : m.start()]):
                return label
    return None


# a reason given for the recommendation says why, not for whom: "..., ask whether your medicines should be reduced,
# because very low levels can cause dangerous hypos"
# (not "because of how long ago they quit", the criterion itself: "Do not exclude former smokers because of how long ago
# they quit"), and so does a purpose: "..., to discourage overtreatment in older and frail patients"
_REASON = re.compile(r",?\s+(?:because\b(?! of how long ago)|to (?:discourage|avoid|prevent|reduce|limit) "
                     rf"{OVERUSE})[^;]*", re.I)


# an age after "no upper age limit" illustrates the open band, it does not start one: "There is no upper age limit: if
# you are over 85, a statin may still lower your risk"
_NO_UPPER_LIMIT_THEN = re.compile(r"\bno (?:fixed |set )?upper (?:age )?limit\b\s*[:;,]", re.I)


def population_of(text: str, context: FrameContext | None) -> Population:
    """Who one recommendation text is about: its ages, sex (else the document's), risk group, criteria and conditions
    (a reason it gives, "because ...", names none)."""
    lo, hi = ages.age_bounds(text) if not _NO_UPPER_LIMIT_THEN.search(text) else (None, None)
    who = _REASON.sub("", text)
    female, male = bool(_FEMALE.search(text)), bool(_MALE.search(text))
    sex = "female" if female and not male else "male" if male and not female else None
    if sex is None and not (female and male) and context is not None:
        sex = context.sex
    return Population(
        sex=sex,
        age_min=lo,
        age_max=hi,
        risk=_risk(text),
        criteria=subgroups.criteria(who),
        conditions=subgroups.conditions(who, context.intervention if context else None),
    )


def merged_population(previous: Population, own: Population) -> Population:
    """An anaphoric population ("these patients") is the previous sentence's, plus what this one adds."""
    return previous.model_copy(
        update={
            "criteria": list(dict.fromkeys(previous.criteria + own.criteria)),
            "conditions": list(dict.fromkeys(previous.conditions + own.conditions)),
            "sex": previous.sex or own.sex,
            "risk": previous.risk or own.risk,
        }
    )
