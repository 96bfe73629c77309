"""How a sentence divides into recommendations: clauses that each state their own (:func:`clauses`). Within one
recommendation, enumerated populations and alternative conditions: :mod:`populations`.

A sentence usually states one recommendation. It states several when its parts each carry their own action and
their own ages, strength, test or intervention ("women 45 to 54 should ...; women 55 and older may ...", "... is
an individual decision (grade C), whereas starting at 60 is not recommended (grade D)"), or when a second part
without a verb of its own repeats the first with other ages and another interval (gapping). spaCy's dependency
parse finds coordinated verbs; the rule layer decides whether each side stands on its own.
"""

from __future__ import annotations

import re
from typing import Any

from clinrag.tools.frames import ages, intervals, lexicon, rules, subgroups
from clinrag.tools.frames.clause_parts import (
    another_goal,
    either_test,
    gapped,
    own_people,
    same_for_others,
    value_keys,
    values_by_age,
    with_trailing_strength,
)
from clinrag.tools.frames.quantities import quantities
from clinrag.tools.frames.schema import RECOMMEND_LIKE, STANCE

_MODALS = {"should", "may", "must", "can", "might", "could", "will"}
SAME_AGES = re.compile(r"\b(?:of|at) the same ages?\b|\bsame age (?:group|range|band)\b|\bto those whose\b", re.I)


def nlp() -> Any:
    """The spaCy pipeline with its parser (coordinated verbs), loaded once per process."""
    from clinrag.spacy_pipeline import load_spacy

    return load_spacy(("ner",))


def clauses(sentence: str) -> list[str]:
    """The sentence's recommendations, one text each (most sentences: one).

    Split (1) at semicolons, before "while"/"whereas" and at "and that" when every part states its own action and
    stands apart (:func:`_stands_apart`); else (2) at a coordinated verb with its own modal ("and should begin") or
    its own action word ("and is discouraged"), when the two sides state different ages, interventions or
    strengths, so that "should be screened and offered ..." stays one clause; else (3) before a gapped second
    recommendation without a verb ("... every 1 to 3 years to women 25 to 39, and annually to those 40 and older"),
    or (4) after a part's own strength in parentheses, before a part with an action of its own
    (:func:`_own_strengths`), or (5) where :mod:`clause_parts` finds a second recommendation without a verb of its
    own."""
    # (a semicolon inside parentheses, "(conditional recommendation; moderate-certainty evidence)", divides nothing)
    for separator in (r";(?![^()]*\))", r",?\s+(?=(?:while|whereas|though|although)\b)", r",?\s+and (?=that\b)"):
        parts = _ages_referred_back(_grades_joined([p.strip() for p in re.split(separator, sentence)]))
        # a later part may be a row of a table in prose, with its own ages and its own tests or intervals and the
        # first part's action: "... (USPSTF, grade A): women aged 21-29, cytology every 3 years; women aged 30-65,
        # hrHPV testing alone every 5 years"
        acted = len(parts) > 1 and rules.action(parts[0]) and all(rules.action(p) or _table_row(p) for p in parts[1:])
        if acted and _stands_apart(parts):
            # a part can divide again ("...; ..., though ...")
            return [q for p in _closing_strength_shared(parts) for q in clauses(p)]
    doc = nlp()(sentence)
    for tok in doc:
        if tok.dep_ != "conj" or tok.pos_ not in ("VERB", "AUX"):
            continue
        before = doc[tok.left_edge.i - 1] if tok.left_edge.i else None  # "... (grade B) and concludes that ..."
        ccs = [before] if before is not None and before.dep_ == "cc" else [
            c for c in tok.head.children if c.dep_ == "cc" and c.i < tok.i]
        if not ccs:
            continue
        cut = ccs[-1].idx
        left, right = sentence[:cut].rstrip(" ,;"), sentence[cut:]
        own_modal = any(c.dep_ == "aux" and c.lower_ in _MODALS for c in tok.children)
        own_words = sentence[tok.left_edge.idx : tok.right_edge.idx + len(tok.right_edge)]  # the verb's subtree
        # a strength in parentheses at the end is the whole sentence's, not the second verb's own action word
        if not (own_modal or rules.action(rules.unbracketed(own_words))) or not rules.action(left):
            continue
        named = lexicon.intervention(left), lexicon.intervention(right)  # "... DBT ..., and supplemental MRI should"
        graded = rules.strength(left), rules.strength(right)  # "... (grade B), and may selectively offer (grade C)"
        # "women who have had a hysterectomy do not need screening, and women over 65 with adequate prior screening
        # can stop": other people
        groups = set(subgroups.conditions(left)), set(subgroups.conditions(right))
        # "... is not recommended for women under 21, and women who have had a hysterectomy should not be screened":
        # the first part's people are set by their ages, the second's by a condition
        by_ages_then_group = ages.age_spans(left) and not ages.age_spans(right) and groups[1] and not groups[0]
        # "offer a statin to people with a 10-year risk of 10% or more, and consider one for adults with type 1
        # diabetes older than 40": who the first part is for is set by its values, the second by its ages
        found = quantities(left), quantities(right)  # (thresholds, targets) of each side
        by_values_then_ages = any(found[0]) and ages.age_spans(right) and not ages.age_spans(left)
        # "order 'LDCT chest - screening', to be repeated yearly ..., and stop when the patient turns 81": the second
        # verb ends, at ages of its own, what the first one does
        by_action_then_ages = (ages.age_spans(right) and not ages.age_spans(left)
                               and rules.action(left) in RECOMMEND_LIKE
                               and rules.action(rules.unbracketed(own_words)) in ("recommend_against", "discourage"))
        # "recommends an A1C goal below 7% ..., and suggests that a less stringent goal, such as under 8%, ...":
        # each verb its own value, two goals or a new action (a threshold and a goal with one action stay one clause,
        # whose strength both frames share)
        values = [value_keys(side) for side in found]
        kinds = [tuple(bool(qs) for qs in side) for side in found]  # (thresholds?, targets?)
        if rules.action(left) == rules.action(rules.unbracketed(own_words)) and kinds[0] != kinds[1]:
            values = [set(), set()]
        if by_values_then_ages or by_action_then_ages or by_ages_then_group or (
            ages.age_spans(left) and ages.age_spans(right)) or (
            None not in named and named[0] != named[1]) or (None not in graded and graded[0] != graded[1]) or (
            all(groups) and groups[0] != groups[1]) or (all(values) and values[0] != values[1]
        ):
            return [left, right]
    return (_own_strengths(sentence) or gapped(sentence) or same_for_others(sentence) or own_people(sentence)
            or either_test(sentence) or another_goal(sentence) or values_by_age(sentence) or [sentence])


def _closing_strength_shared(parts: list[str]) -> list[str]:
    """The parts, each earlier part without a strength taking the strength in parentheses that closes the last part
    when the last part states no other action ("... recommends lowering systolic BP to 120-129 mm Hg, while for
    those 65 and older the target range is 130-139 mm Hg (Class I, Level A)"); a last part with an action of its
    own ("..., whereas for 76 to 85 the decision is individual (grade C)") keeps its strength to itself."""
    last = parts[-1]
    own = rules.action(rules.unbracketed(last))
    return [p if own and rules.action(rules.unbracketed(p)) != own else with_trailing_strength(p, last)
            for p in parts[:-1]] + [last]


def _table_row(part: str) -> bool:
    """A part with ages of its own and an interval of its own: a row of a schedule written as prose."""
    return bool(ages.age_spans(part) and intervals.interval_spans(part))


def _own_strengths(sentence: str) -> list[str] | None:
    """A recommendation closed by its strength in parentheses, then "and"/"but"/"adding"/"with" and another with an
    action of its own and another strength or none ("... should be started on medication (Class I; LOE A), and once
    hypertension is confirmed a goal of less than 130/80 mm Hg is recommended (Class I; LOE B-R)", "... (conditional
    recommendation; moderate-certainty evidence) and should consider deintensifying ...", "... at 130/80 mm Hg or
    higher (COR I; LOE C-EO), with a treatment goal of less than 130/80 mm Hg (COR I; LOE B-R)"), which a parse can
    miss; None otherwise."""
    for m in re.finditer(r"(\([^()]*\))\s*[,;]?\s*(?=(?:and|but|adding|with)\b)", sentence):
        left, right = sentence[: m.end(1)], sentence[m.end() :]
        own = rules.strength(m.group(1))
        # (or a staged goal with the same strength: "... to below 140/90 mm Hg (Class I; LOE A) and then, if
        # tolerated, to 130/80 mm Hg or lower (Class I; LOE A)")
        valued = any(quantities(right))
        staged = re.match(r"(?:and\s+)?then\b", right) and valued and any(quantities(left))
        # (or a part whose own strength and ages or values make it another recommendation: "... (grade A) and extend
        # screening to those aged 45-49 (grade B)", "... (class I; LOE A), and the treatment target is below 130/80
        # mm Hg (class I; LOE B-R)")
        graded_ages = rules.strength(right) and (ages.age_spans(right) or valued)
        other = (rules.action(rules.unbracketed(right)) or graded_ages) and rules.strength(right) != own
        # (or each part closed by the same strength, each with values of its own: "to aim for an HbA1c between 7% and
        # 8% (weak recommendation; ...) and to deintensify treatment in those whose HbA1c falls below 6.5% (weak
        # recommendation; ...)")
        own_values = [{q.key() for qs in quantities(side) for q in qs} for side in (left, right)]
        restated = rules.strength(right) == own and all(own_values) and own_values[0] != own_values[1]
        if own and rules.action(left) and (staged or other or restated):
            # an opening "For adults with ..., " is who both parts are for
            opening = re.match(r"\W*(?:for|in|among)\b[^,;()]{0,80},\s*", left, re.I)
            if opening and not re.match(r"\W*(?:(?:and|but|adding)\s+)?(?:for|in|among)\b", right, re.I):
                right = opening.group(0) + re.sub(r"^\W*(?:and|but)\s+", "", right)
            return [left, right]
    return None


def _grades_joined(parts: list[str]) -> list[str]:
    """Parts with a part that only grades the one before it ("...; the task force rates this a strong
    recommendation") joined to it, in parentheses, as a strength written there would be."""
    out: list[str] = []
    for part in parts:
        if out and rules.strength(part) and not (lexicon.intervention(part) or ages.age_spans(part)
                                                 or intervals.interval_spans(part) or any(quantities(part))):
            out[-1] = f"{out[-1]} ({part.rstrip('. ')})"
        else:
            out.append(part)
    return out


# an age a later part refers back to: "invited for their first test at 25; testing before then is not advised"
_BACK_REFERENCE = re.compile(r"\b(before|after|until|from) (?:then|that age)\b", re.I)


def _ages_referred_back(parts: list[str]) -> list[str]:
    """Parts with an age a part refers back to written out ("...; testing before then is not advised" after "at 25"
    reads "before 25"), the age being the last one the part before it states."""
    out = parts[:1]
    for part in parts[1:]:
        spans = ages.age_spans(out[-1])
        last = spans[-1] if spans else None
        age = last and (last[2] if last[2] is not None else last[3])
        out.append(_BACK_REFERENCE.sub(lambda m: f"{m.group(1)} {age}", part) if age else part)
    return out


def _stands_apart(parts: list[str]) -> bool:
    """Each part is a recommendation of its own: it states ages, refers to "the same age", states its own strength,
    names a test the other parts do not ("hrHPV testing every 5 years; co-testing ... may be used"), a subgroup
    the other parts do not ("...; if you have had a total hysterectomy you won't need screening"), criteria the
    other parts do not ("at least 30 pack-years and quit no more than 15 years ago; patients who quit more than 15
    years ago do not meet criteria ...") or values the other parts do not ("keep HbA1c at or below 48 mmol/mol;
    where ..., aim for 53 mmol/mol or below"); or, where one part advises against what another advises for,
    intervals the other parts do not ("colonoscopy at 10-year intervals and FIT every year are both acceptable
    options; FIT every other year was not endorsed"; a retest tier, "...; men whose PSA is below 1 ng/mL may extend
    the interval to 4 years", stays with its schedule)."""
    intervention = lexicon.intervention(" ".join(parts))
    # (a test named in parentheses explains another: "co-testing (cytology plus hrHPV)")
    tests = [{t for *_, t in lexicon.tests(rules.unbracketed(p), intervention)} if intervention else set()
             for p in parts]
    groups = [set(subgroups.conditions(p)) for p in parts]
    criteria = [set(subgroups.criteria(p)) for p in parts]
    values = [{q.key() for qs in quantities(p) for q in qs} for p in parts]
    stances = {STANCE.get(rules.action(rules.unbracketed(p)) or "") for p in parts}
    schedules = [{(i.min, i.max) for *_, i, _ in intervals.interval_spans(p)} if {"for", "against"} <= stances
                 else set() for p in parts]

    def own(found: list[set[str]], i: int) -> bool:
        return bool(found[i]) and not any(found[i] <= found[j] for j in range(len(parts)) if j != i)

    return all(
        ages.age_spans(p) or SAME_AGES.search(p) or rules.strength(p) or own(tests, i) or own(groups, i)
        or own(criteria, i) or own(values, i) or own(schedules, i)
        for i, p in enumerate(parts)
    )
