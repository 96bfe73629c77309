"""Sentence and document extraction of recommendation frames.

Pipeline for one sentence: drop non-recommendations (change narratives, scope/publication statements, grade
definitions, findings: :func:`rules.is_recommendation_text`); divide it into its recommendations, enumerated
populations and alternative conditions (:mod:`clauses`: "women 45 to 54 should ...; women 55 and older may ...", "in
women younger than 21, in women over 65 ..., and in women who ...", "if they are over 65 ..., or if they have had a
hysterectomy"); split enumerated tests with their own intervals (:mod:`examinations`: "cytology every 3 years, HPV
testing every 5 years"); then fill each frame from the rule layer. A part without an action cue yields nothing,
except a gapped part, which takes the action of the part before it.
"""

from __future__ import annotations

import datetime as dt
import re
from itertools import product
from typing import Any

from clinrag.tools.frames import ages, lexicon, rules
from clinrag.tools.frames.clauses import SAME_AGES, clauses
from clinrag.tools.frames.document_passes import (
    RISK_DEFINITION,
    change_notes_yield,
    defined_test,
    measure_of_a_conversation,
    pathway_of_a_decision,
    with_defined_risk,
    with_defined_test,
)
from clinrag.tools.frames.examinations import added_to, test_options
from clinrag.tools.frames.populations import (
    alternative_conditions,
    merged_population,
    population_of,
    population_segments,
)
from clinrag.tools.frames.programme_cues import MEASURE_LABEL_END
from clinrag.tools.frames.quantities import quantities
from clinrag.tools.frames.readings import readings_in_mm_hg
from clinrag.tools.frames.schema import Frame, FrameContext, Quantity
from clinrag.tools.index.text import split_sentences

_ANAPHORA = re.compile(r"\b(?:these|such) (?:patients|adults|people|women|men|individuals)\b|\bfor them\b"
                       # ("For adults in the same age range with at least one risk factor and a 10-year risk of ...")
                       r"|\b(?:in|of|within) the same age (?:range|group|band)\b"
                       # the risk the sentence before estimated, for the people it named: "If you are between 40 and 84
                       # years old, your doctor can work out your chance of ...  If that chance is 20% or higher, ..."
                       r"|\b(?:that|this) (?:chance|risk|score|estimate)\b", re.I)
# a sentence that says who has a risk worked out ("If you are between 40 and 84 years old, your doctor or nurse can
# work out your chance of having a heart attack or stroke over the next ten years"): it recommends nothing, and the
# sentence after it that speaks of "that chance" is about the same people
_ASSESSED = re.compile(r"\b(?:work(?:s|ed)? out|estimat\w*|calculat\w*|assess\w*|check\w*) (?:[\w-]+ ){0,3}"
                       r"(?:chance|risk|score)\b", re.I)
# ... and the risk itself, right after the sentence that works it out ("Step 1: for adults aged 40 to 84 ...,
# calculate the 10-year cardiovascular risk ...  Step 2: if the 10-year risk is 10% or more, offer atorvastatin")
_RISK_ASSESSED = re.compile(r"\b(?:if|when|where|once) (?:the|their|your|his|her) (?:[\w-]+ ){0,3}(?:risk|score) "
                            r"(?:is|was|comes out at|reaches)\b", re.I)
# a later part about the previous part's examinations: "... every 1 to 2 years from age 40 until 75, and DBT may be
# used in place of 2D mammography for these examinations" is for the same people on the same schedule
_SAME_EXAMINATIONS = re.compile(
    r"\b(?:for|in|during|at) (?:these|those|such|the same) (?:examinations?|exams?|screenings?|tests?|scans?"
    r"|visits?)\b", re.I,
)
_DEFINITION = re.compile(r"\b(?:is|are) defined as\b", re.I)
# a strength stated once for every part: "(grade D for both)", "(both qualified recommendations)", "(ESC/ESH, each
# class I, level A)", "(qualified recommendations)", "(I statements)"
_FOR_EVERY_PART = re.compile(r"\(([^()]*\b(?:both|each|all|recommendations|statements)\b[^()]*)\)\W*$", re.I)


def _strength_for_every_part(sentence: str) -> str | None:
    """The strength a closing parenthetical states for every part (:data:`_FOR_EVERY_PART`), or None."""
    every = _FOR_EVERY_PART.search(sentence)
    return rules.strength(every.group(0)) if every else None


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
    scope = population_of(pop_text, None)
    sex = scope.sex or lexicon.TOPIC_SEX.get(topic)
    return FrameContext(
        intervention=lexicon.TOPIC_INTERVENTION.get(topic), sex=sex, scope=scope.model_copy(update={"sex": sex}),
        inverse_measure=bool(_INVERSE_MEASURE.search(_COMPANION.sub("", doc_meta.get("text") or ""))),
    )


# "This is an inverse measure: a lower rate indicates better quality." (not "a companion inverse measure (DM-1)"); a
# measure of avoidance counts those who did not receive it ("Measure OQ-27: Avoidance of aspirin for primary
# prevention in older adults", "Measure VQ-17 assesses the avoidance of PSA-based screening in older men"): in both,
# the numerator and denominator recommend nothing; so too a measure's title that says so ("Measure PQ-7:
# Non-recommended PSA-based screening in older men (inverse measure; a lower rate is better)")
_INVERSE_MEASURE = re.compile(r"\b(?:is|as) an inverse (?:quality |performance )?measure\b"
                              r"|\ba lower (?:rate|score|percentage) (?:indicates|means|reflects) better "
                              r"(?:quality|performance|care)\b|\(inverse measure\b[^()]*\ba lower (?:rate|score"
                              r"|percentage) is better\)"
                              r"|^\W*(?:quality )?measure\b[^.:]{0,40}:\s*(?:avoidance|non-?use|avoiding) of\b"
                              r"|^\W*(?:this |the )?(?:quality )?measure\b[^.:]{0,40}\b(?:assesses|tracks|counts"
                              r"|captures|reports)\s+(?:the )?(?:avoidance|non-?use) of\b", re.I)
# a companion measure's sentence is about another measure ("Companion measure HQ-42 (inverse): ...; a lower rate
# indicates better care"): the document's own measure is not inverse for it
# (and "A companion inverse indicator, DM-2b, counts members whose most recent value is greater than 9.0% ..., where a
# lower rate indicates better performance")
_COMPANION = re.compile(r"(?:[^.]|\.\d)*\bcompanion (?:\w+ )?(?:measure|indicator)\b(?:[^.]|\.\d)*\.?", re.I)
_MEASURE_PART = re.compile(rf"^\W*(?:denominator|numerator){MEASURE_LABEL_END}", re.I)


# a clause beside a sentence's recommendation that recommends nothing itself: an opening concession ("Although statin
# use may be beneficial in some adults with a 10-year risk of less than 10%, the likelihood of benefit is smaller;
# ...") or a later comparison ("...; the likelihood of benefit is smaller in this group than in persons with a risk of
# 10% or greater")
_CONCEDING = r"(?:although|though|even though)\b"
_CONCESSION = re.compile(rf"^\W*{_CONCEDING}", re.I)
# ... and a closing one that says for whom the advice helps less ("There is no upper age limit for asking for the
# test, although it is less likely to help men who are over 75"): its ages are not the advice's people ("although
# not for ..." excepts people, and stays)
_CLOSING_CONCESSION = re.compile(rf",?\s+{_CONCEDING}(?!\s+not\b)[^;]*$", re.I)
_COMPARISON = re.compile(r"\b(?:is|are) (?:smaller|greater|larger|lower|higher|less|more)\b[^.;]*\bthan\b", re.I)
# what an earlier edition advised, beside what this one advises: "..., whereas the 2015 edition advised this only for
# risks of 20 % or more"
_EARLIER_EDITION = re.compile(r"^\W*(?:(?:whereas|while|but|and)\s+)?(?:the|its|our|their) (?:\d{4}|previous|earlier"
                              r"|former|last|prior|old) (?:edition|version|guideline|statement|update|guidance)s? "
                              r"(?:had )?(?:advised|recommended|suggested|said|set|used|required|allowed)\b", re.I)
# a percentage that refers back to the risk a sentence named before it: "If the 10-year risk is 20% or higher, order a
# high-intensity statin; if it is 7.5% to less than 20%, order a moderate-intensity statin"
_RISK_AGAIN = re.compile(r"\b(?:if|when|where|once) it (?:is|was|lies)\b", re.I)
# ... as does a bare percentage where a leaflet named the risk a sentence before ("When that chance is 10 in 100 or
# higher, ... If it is between 7.5 and 10 in 100, a statin may be considered"): the interventions started at a
# cardiovascular risk, for which a percentage can be nothing else
_RISK_TREATED = ("statin", "low-dose aspirin")


def extract_frames(sentence: str, *, doc_meta: dict | None = None, context: FrameContext | None = None) -> list[Frame]:
    """The recommendation frames one sentence states ([] when it states none)."""
    said = " ".join(sentence.split())  # the sentence each frame quotes
    context = context or context_for(doc_meta)
    # the sentence as parsed: "keep it below 130 over 80" states the reading 130/80 mm Hg, not an age over 80
    sentence = readings_in_mm_hg(said, bool(context and (context.intervention or "").startswith("blood-pressure")))
    sentence = rules.without_withdrawn(sentence)
    # a question ("Should I have a PSA test?", a leaflet's heading) asks, it does not recommend
    if not sentence or sentence.endswith("?"):
        return []
    if (items := rules.changed_items(sentence)) is not None:  # what an edition changed: the items that say what holds
        return [f.model_copy(update={"sentence": said}) for item in items
                for f in extract_frames(item, doc_meta=doc_meta, context=context)]
    if not rules.is_recommendation_text(sentence):
        return []
    if context and context.inverse_measure and _MEASURE_PART.match(sentence):
        return []
    meta = _meta(doc_meta)
    frames: list[Frame] = []
    inherited: str | None = None
    inherited_action: str | None = None
    previous_ages: tuple[int | None, int | None] = (None, None)
    parts = clauses(sentence)
    # a one-clause sentence lends its action and strength to population segments that state none; a strength stated
    # for every part goes to each part that states none
    whole_action = rules.action(sentence) if len(parts) == 1 else None
    whole_strength = rules.strength(sentence) if len(parts) == 1 else _strength_for_every_part(sentence)
    for number, clause in enumerate(parts):
        if (tail := _CLOSING_CONCESSION.search(clause)) and tail.start() and not rules.action(tail.group()):
            clause = clause[: tail.start()]
        # a clause without its own names the previous clause's, else the sentence's ("the decision should be
        # individualized for 40 to 49, and mammography is discouraged after 80"), else the document's
        intervention = (lexicon.intervention(clause) or inherited or lexicon.intervention(sentence)
                        or (context.intervention if context else None))
        # a later clause on the same intervention without ages of its own is about the same people ("for adults of
        # the same age whose ...", "... (grade B), and may selectively offer one when that risk is ...")
        same_people = number > 0 and intervention == inherited
        inherited = intervention
        if intervention is None:
            continue
        for text in (alt for seg in population_segments(clause) for alt in alternative_conditions(seg)):
            # "... calls for clinicians to aim for ... (weak ...) and to deintensify ... (weak ...)": a part that
            # continues the verb before it with another infinitive takes that verb's action (its strength is its own)
            continues = number > 0 and inherited_action and re.match(r"\W*(?:and|or)\s+to\s", text, re.I)
            if (number == 0 and len(parts) > 1 and _CONCESSION.search(text)) or (
                number > 0 and (_COMPARISON.search(text) or _EARLIER_EDITION.search(text))
            ):
                continue  # a concession, a comparison or an earlier edition beside the advice, not one of its own
            own_action = None if continues else rules.action(text)
            act = own_action or (whole_action if len(parts) == 1 else inherited_action)
            if act is None:
                continue
            inherited_action = act
            thresholds, targets = quantities(text)
            if intervention == "A1C target":  # "a less stringent target of below 8.0% (64 mmol/mol)" is an A1C
                thresholds, targets = _as_a1c(thresholds), _as_a1c(targets)
            elif _RISK_AGAIN.search(text) and (re.search(r"\b10-year (?:\w+ )?risk\b", sentence, re.I)
                                               or intervention in _RISK_TREATED):
                thresholds = [q.model_copy(update={"name": "10-year CVD risk"}) if q.name == "percent" else q
                              for q in thresholds]
            # a gapped part repeats the verb before it: "aim for below 140/90 mmHg, and for those aged 80 and over,
            # below 150/90 mmHg" states a second target
            # "... lowered first to below 140/90 mm Hg (Class I) and then, if tolerated, to 130/80 mm Hg or lower"
            # ("The treatment goal is below 140/90 mm Hg for adults younger than 60, and below 150/90 mm Hg for those
            # aged 60 or older (Class I)": a part that opens with its limit repeats the verb before it, whatever its
            # strength says)
            gapped = (own_action is None and not continues) or re.match(
                r"\W*(?:and\s+)?(?:then\b|(?:below|under|less than|lower than|<|≤)\s*\d)", text, re.I)
            if gapped and frames and frames[-1].targets and not frames[-1].thresholds and not targets:
                thresholds, targets = [], thresholds
            if _DEFINITION.search(text) and not (thresholds or targets):
                continue  # "dense breast tissue is defined as ...": a definition states a value or nothing
            name = intervention
            if name in ("blood-pressure", "blood-pressure threshold"):
                name = "blood-pressure target" if targets else "blood-pressure threshold"
            pops = [population_of(text, context)]
            if alternatives := ages.age_alternatives(text):
                pops = [pops[0].model_copy(update={"age_min": lo, "age_max": hi}) for lo, hi in alternatives]
            # states no ages and no subgroup of its own ("; if you have had a hysterectomy ..." is other people)
            if same_people and pops[0].age_min is None and pops[0].age_max is None and (
                not pops[0].conditions or SAME_AGES.search(text)
            ):
                pops = [pops[0].model_copy(update=dict(zip(("age_min", "age_max"), previous_ages)))]
            previous_ages = (pops[0].age_min, pops[0].age_max)
            # ("Identify men aged 50 to 74 ...; the Board recommends routine PSA testing for these men": the antecedent
            # is in this sentence, with its ages)
            if (_ANAPHORA.search(text) or (context and context.assessed and _RISK_ASSESSED.search(text))) and (
                    context and context.previous and pops[0].age_min is None and pops[0].age_max is None):
                pops = [merged_population(prev, pops[0]) for prev in context.previous]
            earlier = frames[-1] if number > 0 and frames and _SAME_EXAMINATIONS.search(text) else None
            if earlier and pops[0].age_min is None and pops[0].age_max is None:
                pops = [merged_population(earlier.population, pops[0])]
            # "start drugs at >= 150 mm Hg, with a goal of < 150 mm Hg": a blood-pressure threshold and a target,
            # two recommendations; other thresholds, such as a 10-year risk, say who both are for
            # a part that takes the action before it takes its strength too ("... (USPSTF, grade A): women aged
            # 21-29, cytology every 3 years; women aged 30-65, hrHPV testing alone every 5 years")
            strength = rules.strength(text) or whole_strength or (
                frames[-1].strength if own_action is None and frames and number > 0 else None)
            quantity_sets = [(name, thresholds, targets)]
            bp_thresholds = [q for q in thresholds if q.unit == "mm Hg"]
            if name == "blood-pressure target" and bp_thresholds:
                others = [q for q in thresholds if q.unit != "mm Hg"]
                quantity_sets = [("blood-pressure threshold", others + bp_thresholds, []), (name, others, targets)]
            added = added_to(text, name)
            # a gapped part ("... HPV testing every 3 years for women aged 25 to 49 and every 5 years for women aged
            # 50 to 64") names no test of its own: it repeats the previous part's
            repeated = frames[-1].test if gapped and same_people and frames else None
            options = [(test or repeated, interval or (earlier.interval_months if earlier else None))
                       for test, interval in test_options(added[0] if added else text, name)]
            fit_cut_off = any(q.name == "FIT haemoglobin" for q in thresholds)
            if fit_cut_off and not any(test == "FIT" for test, _ in options):
                # a FIT's cut-off is about the FIT, whatever test it leads to ("if your sample contains 80 micrograms
                # of blood per gram or more, we will offer you ... a colonoscopy"); beside a FIT option of its own it is
                # that option's ("a fecal immunochemical test every 2 years or colonoscopy every 10 years ..., using a
                # FIT positivity threshold of 20 micrograms")
                options = [("FIT", interval) for _, interval in options]
            first = len(frames)
            for (name, thresholds, targets), (test, interval) in product(quantity_sets, options):
                for pop in pops:
                    frames.append(
                        Frame(
                            intervention=name,
                            test=test,
                            population=pop,
                            action=act,
                            interval_months=interval,
                            thresholds=[q for q in thresholds if test in (None, "FIT") or q.name != "FIT haemoglobin"],
                            targets=targets,
                            strength=strength,
                            sentence=said,
                            scope=context.scope if context else None,
                            **meta,
                        )
                    )
            if added:
                frames += [f.model_copy(update={"intervention": added[1], "test": None, "interval_months": added[2]})
                           for f in frames[first:]]
    return frames


def _as_a1c(qs: list) -> list:
    """Percentages and IFCC values of an A1C recommendation named A1C where the sentence does not say it again."""
    return [q.model_copy(update={"name": "A1C"}) if q.name in ("percent", "mmol/mol value") else q for q in qs]


_AFTER_A_GRADE = re.compile(r"(?<=\b[Gg]rade [A-DI]\.)\s+(?=[A-Z][a-z])")


def sentences(text: str) -> list[str]:
    """The index's sentence split (pysbd: spaCy's parser splits "mm Hg." after "mm"), with a strength written after
    the period ("... aged 40 to 74 years. (B recommendation)") kept with its sentence."""
    out: list[str] = []
    # (a grade letter that ends a sentence is no initial: "... and for those aged 45 to 49 it is grade B. Acceptable
    # strategies include ...")
    for s in (part for whole in split_sentences(text) for part in _AFTER_A_GRADE.split(whole)):
        if out and re.fullmatch(r"\([^()]*\)\.?", s):
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


def document_frames(document: Any) -> list[Frame]:
    """Frames of every sentence of a document (a :class:`clinrag.schema.Document` or a dict with doc_id, org,
    issued, status, topic, population and text); the topic and population give sentence defaults."""
    meta = document if isinstance(document, dict) else document.model_dump()
    context = context_for(meta) or FrameContext()
    out: list[Frame] = []
    defined_risk: list[Quantity] = []  # the thresholds of the first definition of a higher risk
    test: str | None = None  # the test the document says its screening is
    for sent in sentences(meta["text"]):
        frames = extract_frames(sent, doc_meta=meta, context=context)
        if not frames and test is None:
            test = defined_test(sent, context.intervention)
        if frames:
            context = context.model_copy(update={"previous": [f.population for f in frames],
                                                 "assessed": bool(_ASSESSED.search(sent))})
        elif _ASSESSED.search(sent) and (assessed := population_of(sent, context)).age_min is not None:
            context = context.model_copy(update={"previous": [assessed], "assessed": True})
        if not defined_risk and RISK_DEFINITION.search(sent):
            defined_risk = [q for q in quantities(sent)[0] if "risk" in q.name]
        out.extend(frames)
    decisions = pathway_of_a_decision(measure_of_a_conversation(change_notes_yield(out)))
    return with_defined_test(with_defined_risk(decisions, defined_risk), test)
