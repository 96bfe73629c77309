"""Second recommendations that a sentence states without a verb of their own, or that a parse can miss: a gapped part
with other ages and a schedule or value ("... every 3 years, and between 50 and 64 every 5 years"), the first part
extended to others or to another intervention ("..., as can women who have had a hysterectomy"), a second thing the
verb recommends for people of its own, a part graded differently, two parts joined by ", and" with their own
actions and ages, a numerator that counts one test or, for other people, another, and one goal or another for other
people (:func:`gapped`, :func:`same_for_others`, :func:`own_people`, :func:`either_test`, :func:`another_goal`;
:mod:`clauses` tries them in turn)."""

from __future__ import annotations

import re

from clinrag.tools.frames import ages, intervals, lexicon, rules, subgroups
from clinrag.tools.frames.groups import RISK_GROUP_CRITERIA
from clinrag.tools.frames.quantities import quantities

# a gapped second recommendation: "... every 1 to 3 years to women aged 25 to 39, and annually to those aged 40 and
# older", "... from age 25 to 39 and annually from age 40" (no verb of its own: it takes the first clause's action)
# the second part opens with its interval, a preposition, a comparator ("a target below 140/90 mmHg for people under
# 80 and below 150/90 mmHg for those aged 80 and over") or a subject with ages ("..., and women aged 50 to 64 every
# five years")
# or the other ages of people named by a criterion ("he is aged 50 to 69, or 45 to 69 if he is of Black African or
# Caribbean ancestry")
_GAPPED = re.compile(
    r",?\s+and\s+(?=(?:annually|yearly|biennially|every|to|for|from|at|in|between|below|under|less than)\b"
    r"|(?:women|men|adults|people|those|patients|individuals)\s+(?:aged?\s+|between\s+)?\d)"
    r"|,\s+or\s+(?=(?:from\s+|aged\s+)?\d{2}(?:\s+(?:to|through|-)\s+\d{2})?\s+(?:years\s+)?(?:if|for|when|in)\b)",
    re.I,
)


def gapped(sentence: str) -> list[str] | None:
    """A first recommendation and a gapped second one without a verb of its own, other ages and an interval or a
    value of its own ("... every 3 years, and between 50 and 64 every 5 years", "aim for below 140/90 mmHg, and for
    those aged 80 and over, below 150/90 mmHg"), or other people named by a criterion or condition with a value of
    their own ("... at 140/90 mm Hg or above in every adult, and from 130/80 mm Hg in those at high cardiovascular
    risk"); None when the sentence has no such part."""
    if m := _GAPPED.search(sentence):
        left, right = sentence[: m.start()], sentence[m.end() :]
        if right[:1].isdigit():  # "..., or 45 to 69 if he is of Black African or Caribbean ancestry": ages
            right = f"aged {right}"
        if not rules.action(left) or rules.action(rules.unbracketed(right)):
            return None
        valued = any(quantities(left)), any(quantities(right))
        # ("Drug therapy should be started at 140/90 mm Hg or above in every adult, and from 130/80 mm Hg in those at
        # high cardiovascular risk": other people, set by a criterion, with a value of their own)
        own_people = all(valued) and (
            set(subgroups.criteria(right)) - set(subgroups.criteria(left))
            or set(subgroups.conditions(right)) - set(subgroups.conditions(left)))
        own_ages = ages.age_spans(left) and ages.age_spans(right) and (
            intervals.interval_spans(right) or valued[1] or subgroups.criteria(right))
        if own_people or own_ages:
            # "... every year from 45 to 54 and every 2 years from 55 onward (qualified recommendation)"
            return [with_trailing_strength(left, right), right]
    return None


def with_trailing_strength(left: str, right: str) -> str:
    """``left`` with the strength in parentheses that closes ``right`` when ``left`` states none: a strength stated
    once at the end is both parts'."""
    trailing = re.search(r"\([^()]*\)\W*$", right)
    if trailing and not rules.strength(left) and rules.strength(trailing.group(0)):
        return f"{left} {trailing.group(0).rstrip('. ')}"
    return left


# the first recommendation extended to another intervention or other people: "..., and the same goes for adding
# ultrasound or MRI in women with dense breasts", "women over 65 ... can stop, as can women who have had a
# hysterectomy"; the second part takes the first part's action
_SAME_FOR = re.compile(
    r",?\s+and\s+the same (?:goes|applies|holds|is true) (?:for|to)\s+"
    r"|,\s+as\s+(?:can|should|may|must|do|does|will|are|is)\s+"
    r"(?=(?:all\s+|most\s+)?(?:women|men|adults|people|those|patients|individuals|anyone)\b)", re.I
)
# another intervention the first part's words govern: "insufficient to assess ... tomosynthesis as a primary
# screening method, or of supplemental screening with ultrasound or MRI in women with dense breasts"
_OR_OF = re.compile(r",?\s+(?:or|and)\s+(?:of|for)\s+(?=\w)", re.I)
# a second thing the verb recommends, for people of its own: "recommend starting drug therapy when office blood
# pressure is 140/90 mm Hg or higher and, in treated patients aged 18 to 64, lowering systolic pressure to 120-129"
_GERUND_PART = re.compile(
    r",?\s+and,?\s+(?=(?:(?:in|for|among)\s+[^,;()]+,\s*)?(?:lowering|reducing|keeping|bringing|treating|starting"
    r"|offering|adding)\b)", re.I
)
# the same advice from another age for a higher-risk group: "men from age 50 until their 70th birthday who ask about PSA
# testing, or from age 45 for men of Black ancestry or whose father, brother or son was diagnosed ..."
_OR_FROM_AGE = re.compile(r",\s+or\s+(?=(?:from|at|after|starting at) (?:the )?(?:age (?:of )?)?\d{2}\b"
                          r"[^,;]{0,12}?\bfor\b)", re.I)
# a gapped part with a grade of its own: "earns a B grade for ..., and a C grade (selectively offer it) when ..."
_GAPPED_GRADE = re.compile(r",?\s+and\s+(?=(?:an?\s+)?['‘]?[ABCDI]['’]?[- ]grade\b|grade [ABCDI]\b)")


def _extends(left: str, right: str) -> str | None:
    """:data:`_SAME_FOR`: the second part takes the first part's action (or states its own)."""
    return left if rules.action(left) or rules.action(right) else None


def _another_intervention(left: str, right: str) -> str | None:
    """:data:`_OR_OF`: only when the second part names another intervention and no action of its own."""
    named = lexicon.intervention(left), lexicon.intervention(right)
    if None in named or named[0] == named[1] or rules.action(rules.unbracketed(right)):
        return None
    return left if rules.action(left) else None


def _second_thing(left: str, right: str) -> str | None:
    """:data:`_GERUND_PART`: only when both parts state values and the second no action of its own."""
    if rules.action(rules.unbracketed(right)) or not (any(quantities(left)) and any(quantities(right))):
        return None
    left = with_trailing_strength(left, right)
    return left if rules.action(left) else None


def _graded_differently(left: str, right: str) -> str | None:
    """:data:`_GAPPED_GRADE`: only when the first part is graded and the second otherwise."""
    own = rules.strength(left)
    if not own or rules.strength(right) == own:
        return None
    return left if rules.action(left) else None


def _higher_risk_from_age(left: str, right: str) -> str | None:
    """:data:`_OR_FROM_AGE`: only when both parts state ages, the second names a higher-risk group the first does not,
    and the second states no action of its own (in "men aged 50 to 69, or from age 45 for Black men ..., are offered a
    shared decision-making conversation" the verb after both parts is both parts' own)."""
    groups = [RISK_GROUP_CRITERIA.intersection(subgroups.criteria(side)) for side in (left, right)]
    if not (ages.age_spans(left) and ages.age_spans(right) and groups[1] - groups[0]) or rules.action(right):
        return None
    return left if rules.action(left) else None


# each second-part pattern with what the two sides must state; the first to accept divides the sentence
_SECOND_PARTS = ((_SAME_FOR, _extends), (_OR_OF, _another_intervention), (_GERUND_PART, _second_thing),
                 (_GAPPED_GRADE, _graded_differently), (_OR_FROM_AGE, _higher_risk_from_age))


def same_for_others(sentence: str) -> list[str] | None:
    """A first recommendation and a second part that extends it to others (:data:`_SAME_FOR`) or to another
    intervention (:data:`_OR_OF`), recommends a second thing for people of its own (:data:`_GERUND_PART`), grades
    the same intervention differently for others (:data:`_GAPPED_GRADE`), or starts it at another age for a
    higher-risk group (:data:`_OR_FROM_AGE`); None otherwise."""
    for pattern, accept in _SECOND_PARTS:
        if (m := pattern.search(sentence)) and m.start() > 0:
            right = sentence[m.end() :]
            if (left := accept(sentence[: m.start()], right)) is not None:
                return [left, right]
    return None


def value_keys(found: tuple[list, list]) -> set:
    """The thresholds and targets of one text (``quantities``' pair of lists) as comparable keys."""
    return {q.key() for qs in found for q in qs}


def own_people(sentence: str) -> list[str] | None:
    """Two recommendations joined by ", and", each with another action and its own ages, or the second with ages and
    a value of its own, that a parse can miss when the first is long ("For members aged 76 to 85, screening is
    covered only when the record documents an individualized, shared decision-making discussion of the member's
    expected benefits and risks, and screening of members older than 85 is considered not medically necessary", "the
    panel recommends a blood-pressure goal of less than 130/80 mm Hg, and for those aged 80 years or older a goal
    below 140/90 mm Hg is reasonable"), or the second with another action, opening with a condition of its own whose
    value differs from the first's ("if it is 10% or more, order atorvastatin 20 mg daily ..., and if it is 5% to
    9.9%, discuss a statin as an option"); None otherwise."""
    for m in re.finditer(r",\s+(?=and\s)", sentence):
        left, right = sentence[: m.start()], sentence[m.end() :]
        acts = rules.action(left), rules.action(rules.unbracketed(right))
        # "... if it is 10% or more, order atorvastatin ..., and if it is 5% to 9.9%, discuss a statin as an option":
        # a second condition with a value of its own
        conditional = re.match(r"and\s+(?:if|when|where)\b", right, re.I)
        if None in acts or acts[0] == acts[1] or not (ages.age_spans(right) or conditional):
            continue
        values = value_keys(quantities(left)), value_keys(quantities(right))
        if (ages.age_spans(left) and ages.age_spans(right)) or (all(values) and values[0] != values[1]):
            return [left, right]
    return None


# a measure's numerator that counts either of two tests, each with its own people and look-back ("Numerator: women in
# the denominator who had cervical cytology within the measurement year or the two years before it, or women aged 30
# to 64 who had hrHPV testing, alone or with cytology, within the measurement year or the four years before it")
# (and "..., or who had hrHPV testing (alone or with cytology) performed within the last 5 years when they were 30 or
# older": the people named once)
_OR_OTHERS_WHO_HAD = re.compile(r",\s+or\s+(?=(?:(?:women|men|people|persons|adults|patients|members|those)\b"
                                r"[^,;]{0,40}?)?\bwho (?:had|have had|received|completed)\b)"
                                # ("members ... who had cervical cytology performed within ... (a three-year window),
                                # or, for members aged 30 to 64, high-risk HPV testing ... (a five-year window)")
                                r"|,\s+or,\s+(?=for (?:women|men|people|persons|adults|patients|members|those) "
                                r"(?:aged|between|from|over|under)\b[^,;]{0,30},)", re.I)


def either_test(sentence: str) -> list[str] | None:
    """The two parts of a sentence that counts people who had one test or others who had another, each part naming
    a test the other does not name first; None otherwise."""
    for m in _OR_OTHERS_WHO_HAD.finditer(sentence):
        left, right = sentence[: m.start()], sentence[m.end() :]
        named = [[t for iv in lexicon.TESTS for *_, t in lexicon.tests(side, iv)] for side in (left, right)]
        if all(named) and named[0][0] != named[1][0]:
            return [left, right]
    return None


# a second goal offered for other people: "Your doctor may suggest a lower goal, such as below 6.5%, if you can reach it
# without low blood sugar, or a less strict goal, such as below 8%, if you have had severe lows"
_OR_ANOTHER_GOAL = re.compile(r",\s+or\s+(?=an?\s+(?:[\w-]+\s+){0,2}(?:goal|target)\b)", re.I)


def another_goal(sentence: str) -> list[str] | None:
    """The two parts of a sentence that offers one goal or another, each with its own value and its own condition;
    None otherwise."""
    for m in _OR_ANOTHER_GOAL.finditer(sentence):
        left, right = sentence[: m.start()], sentence[m.end() :]
        if quantities(left)[1] and quantities(right)[1] and subgroups.conditions(right):
            return [left, right]
    return None


# a value per age band, in a list: "when the PSA is at or above the age-specific threshold: 2.5 ng/mL at ages 45 to 49,
# 3.5 ng/mL at ages 50 to 59, and 4.5 ng/mL at ages 60 to 69"
_VALUE_AT_AGES = re.compile(r"\d+(?:\.\d+)?\s*(?:ng/mL|%|mm ?Hg|mmol/mol|mg/dL|mmol/L)\s+(?:at|for|in) "
                            r"(?:those |men |women |people |adults )?(?:aged|ages?) \d{2}\s*(?:to|-|–)\s*\d{2,3}\b",
                            re.I)


def values_by_age(sentence: str) -> list[str] | None:
    """One part per value of a list that gives each age band its own value, each part the words before the list
    with its one item (and a strength that closes the sentence); None where the sentence lists fewer than two or
    recommends nothing."""
    items = list(_VALUE_AT_AGES.finditer(sentence))
    if len(items) < 2:
        return None
    head, rest = sentence[: items[0].start()], sentence[items[-1].end() :]
    parts = [with_trailing_strength(head + m.group(0), rest) for m in items]
    return parts if rules.action(parts[0]) else None
