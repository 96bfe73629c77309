"""Question understanding: the first step of ``scope_guard``.

What it reads in a question (:class:`~clinrag.question.schema.Understood`): the organizations it names, normalized
to the corpus's ``org`` values (aliases are data: the corpus's own org/org_name plus ``org_aliases.yaml``); a year,
an as-of date or a "before" date; whether it asks how guidance changed (rules beyond a keyword list, then an
embedding comparison with written examples, ``intents.yaml``); whether it asks if organizations agree; the person's
age and sex when stated, and what it says of their risk (a relative with the disease); and the language. It also
rewrites the text that is searched (``searched_as``): texting shorthand written out, typos corrected against the
corpus vocabulary and an English word list (a known word is never rewritten), lay words mapped to the corpus's
clinical terms (``lay_terms.yaml``), the person appended.

With a chat model, a structured-output parse (``prompts/understanding.py``, retried once) fills the same fields;
a failed parse falls back to the rules, and the state says so. Rules cost well under a millisecond once the
vocabulary is built; the English word list and the corrector load on the first unknown word only.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from contextlib import contextmanager

from clinrag.question.schema import Rewrite, Understood
from clinrag.question.vocabulary import Vocabulary, english_words, languages, vocabulary_for
from clinrag.tools.index.text import temporal_intent

log = logging.getLogger(__name__)

_ENABLED = [True]


def understanding_enabled() -> bool:
    """Off only inside :func:`understanding_switched(False)`: the baseline of ``clinrag eval realistic``."""
    return _ENABLED[0]


@contextmanager
def understanding_switched(on: bool = True):
    """Run the graph with question understanding on or off (off: today's behaviour, for the baseline)."""
    old, _ENABLED[0] = _ENABLED[0], on
    try:
        yield
    finally:
        _ENABLED[0] = old


# ------------------------------------------------------------------------------------------- language
NON_LATIN_SHARE = 0.3  # letters outside the Latin alphabets: above this share the question is not English
FOREIGN_MIN = 2  # at least this many function words of one other language, and more than English ones


def detect_language(text: str) -> tuple[str, str | None]:
    letters = [c for c in text if c.isalpha()]
    if letters and sum(ord(c) > 0x24F for c in letters) / len(letters) > NON_LATIN_SHARE:
        return "other", "a non-Latin script"
    words = re.findall(r"[^\W\d_]+", text.lower())
    english, other = languages()
    en = sum(w in english for w in words)
    best, score = None, 0
    for name, vocab in other.items():
        s = sum(w in vocab and w not in english for w in words)
        if s > score:
            best, score = name, s
    if "¿" in text or "¡" in text:
        return "other", "Spanish"
    return ("other", best) if score >= FOREIGN_MIN and score > en else ("en", None)


# ------------------------------------------------------------------------------------------- person
_FEMALE = r"mom|mother|mum|mommy|wife|sister|daughter|grandma|grandmother|aunt|girlfriend|woman|lady|female"
_MALE = r"dad|father|husband|brother|son|grandpa|grandfather|uncle|boyfriend|man|male|guy"
_YEARS_OLD = r"(?:[- ]?(?:years?|yrs?)[- ]?old|[- ]?yo|[- ]?y/o)"
_AGE_OLD = re.compile(rf"\b(\d{{2,3}}){_YEARS_OLD}\b", re.I)
_AGE_IS = re.compile(r"\b(?:i'?m|i am|he'?s|he is|she'?s|she is|(?:" + _FEMALE + "|" + _MALE + r")\s+is|turned|turning)"
                     r"\s+(?:now\s+|almost\s+|about\s+)?(\d{2,3})\b(?!\s*(?:%|mm|/|pack|cigarettes|years? ago))", re.I)
_AGE_AT = re.compile(r"\b(?:at|aged?)\s+(?:age\s+)?(\d{2,3})\b(?!\s*(?:or|to|-|–|and)\s*\d)(?!\s*%)", re.I)
_PERSONAL = re.compile(r"\b(?:i|i'?m|me|my|mine|he|she|his|her|him|(?:" + _FEMALE + "|" + _MALE + r"))\b", re.I)
_SEX = re.compile(rf"\b(?:my|i'?m an?|i am an?|a|an)\s+(?:\d{{2,3}}{_YEARS_OLD}\s+)?"
                  rf"(?:(?P<f>{_FEMALE})|(?P<m>{_MALE}))\b"
                  rf"|\band an? (?:(?P<f2>woman|female|lady)|(?P<m2>man|male|guy))\b", re.I)


def person(text: str) -> tuple[int | None, str | None]:
    """The person's age and sex when the question states them ("my 72 year old dad" -> 72, "male")."""
    age = None
    for pattern, needs_person in ((_AGE_OLD, False), (_AGE_IS, False), (_AGE_AT, True)):
        m = pattern.search(text)
        if m and (not needs_person or _PERSONAL.search(text)) and 1 <= int(m.group(1)) <= 120:
            age = int(m.group(1))
            break
    sex = None
    m = _SEX.search(text)
    if m:
        sex = "female" if (m.group("f") or m.group("f2")) else "male"
    elif re.search(r"\b(she|her)\b", text, re.I) and not re.search(r"\b(he|his|him)\b", text, re.I):
        sex = "female" if _PERSONAL.search(text) and age else None
    return age, sex


_RELATIVE = (r"dad|father|mom|mother|mum|brother|sister|son|daughter|parents?|siblings?|grandma|grandmother|grandpa"
             r"|grandfather|aunt|uncle")
# "my dad had colon cancer", "my mother was diagnosed with breast cancer at 45", "it runs in my family", "she had breast
# cancer in her family", "a family member with colon polyps"
_FAMILY_HISTORY = re.compile(
    r"\bfamily history\b|\bruns? in (?:my|the|our|his|her|their) family\b"
    r"|\b(?:cancer|tumou?rs?|polyps?)\b[^.?!]{0,20}\bin (?:my|the|our|his|her|their) family\b"
    r"|\bfamily members?\s+(?:had|has|with|who (?:had|has)|was diagnosed|were diagnosed)\b"
    rf"|\b(?:my|his|her|our)\s+(?:\w+\s+)?(?:{_RELATIVE})\s+(?:had|has|got|was diagnosed with|died (?:of|from))\b"
    r"[^.?!]{0,40}\b(?:cancer|tumou?rs?|polyps?)\b", re.I)


def risk_factors(text: str) -> list[str]:
    """What the question says puts the person outside average risk: a relative with the disease."""
    return ["family history"] if _FAMILY_HISTORY.search(text) else []


# ------------------------------------------------------------------------------------------- dates and intents
_AS_OF = re.compile(r"\bas (?:of|at) (?:(?:early|mid|late|the (?:end|start) of) )?((?:19|20)\d{2})"
                    r"(?:-(\d{2})-(\d{2}))?\b", re.I)
_BEFORE = re.compile(r"\b(?:before|prior to|until|pre-?)\s*((?:19|20)\d{2})\b", re.I)
_YEAR = re.compile(r"\b((?:19|20)\d{2})\b")
_CHANGE = re.compile(
    r"\b(lowered|raised|dropped|lower(?:ed)? the (?:start(?:ing)? )?age|raise[d]? the (?:start(?:ing)? )?age|"
    r"went (?:down|up|from)|go(?:ne)? (?:down|up)|moved? (?:from|to)|from \d+ to \d+|what'?s new|anything new|"
    r"new (?:guideline|recommendation|advice|rule)s?|is (?:that|this|it) still|still (?:true|the (?:advice|case|rule|"
    r"recommendation))|any ?more|since (?:19|20)\d\d|nowadays|did (?:they|the \w+) (?:stop|drop|change|lower|raise))\b",
    re.I)
_RECENT = re.compile(r"\b(recent(?:ly)?|lately|latest|newest|these days|nowadays)\b", re.I)
_COMPARE = re.compile(r"\b(agree\w*|disagree\w*|differ\w*|compare\w*|comparison|vs\.?|versus|other (?:organi[sz]ations|"
                      r"groups|guidelines)|everyone|all (?:the )?guidelines|different guidelines|same advice|consensus|"
                      r"everywhere)\b", re.I)
CHANGE_SIMILARITY = 0.6  # embedding side of change intent: this close to a written change example ...
CHANGE_MARGIN = 0.08  # ... and this much closer than to any non-change example


def dates(text: str) -> tuple[int | None, dt.date | None, dt.date | None]:
    """(year, as_of, before): "as of 2019" -> 2019-12-31; "before 2022" -> 2022-01-01 (exclusive); other years."""
    as_of = before = None
    m = _AS_OF.search(text)
    if m:
        y = int(m.group(1))
        as_of = dt.date(y, int(m.group(2)), int(m.group(3))) if m.group(2) else dt.date(y, 12, 31)
    b = _BEFORE.search(text)
    if b:
        before = dt.date(int(b.group(1)), 1, 1)
    taken = {m.group(1) if m else None, b.group(1) if b else None}
    years = [int(y) for y in _YEAR.findall(text) if y not in taken]
    return (years[0] if years else None), as_of, before


def change_by_examples(text: str) -> bool:
    """The embedding side: closer to the written change examples than to the others (intents.yaml)."""
    import numpy as np

    from clinrag.question.vocabulary import _load_yaml
    from clinrag.tools.index.embeddings import embed_cached

    data = _load_yaml("intents.yaml")
    q = embed_cached([text])[0]
    yes = float(np.max(embed_cached(data["change_examples"]) @ q))
    no = float(np.max(embed_cached(data["not_change_examples"]) @ q))
    return yes >= CHANGE_SIMILARITY and yes - no >= CHANGE_MARGIN


# ------------------------------------------------------------------------------------------- organizations
def organizations(text: str, vocab: Vocabulary) -> list[str]:
    """Corpus org values named in ``text``, in order of mention; an all-capitals alias that is also an English word
    ("NICE", "ADA") must be written in capitals."""
    found: list[tuple[int, str]] = []
    for alias, orgs in vocab.aliases.items():
        pattern = r"(?<![\w/])" + re.escape(alias).replace(r"\ ", r"\s+") + r"(?:'s|’s|s)?(?![\w/])"
        m = re.search(pattern, text, re.I)
        if not m:
            continue
        if alias.isupper() and alias.lower() in english_words() and alias not in m.group(0):
            continue
        found += [(m.start(), o) for o in sorted(orgs)]
    return list(dict.fromkeys(o for _, o in sorted(found)))


# ------------------------------------------------------------------------------------------- searched text
def _plural_form(key: str) -> str:
    """A key's pattern with its plural: "mammograms", "pap smears", "colonoscopies" (a consonant's "y" -> "ies")."""
    if re.search(r"[^aeiou]y$", key, re.I):
        return rf"{key[:-1]}(?:y|ies)"
    return rf"{key}(?:e?s)?"


def _singular_forms(said: str) -> tuple[str, ...]:
    """The keys a matched phrase may stand for, itself first: the inverse of :func:`_plural_form`."""
    return said, re.sub(r"e?s$", "", said), said[:-1], re.sub(r"ies$", "y", said)


def _phrase_pattern(keys) -> re.Pattern | None:
    keys = sorted(keys, key=len, reverse=True)
    if not keys:
        return None
    alternation = "|".join(_plural_form(re.escape(k).replace(r"\ ", r"\s+")) for k in keys)
    return re.compile(rf"(?<![\w/-])(?:{alternation})(?![\w/-])", re.I)


# a blood-pressure reading said aloud or typed bare: "145 over 92", "145/92" (systolic 70-250 over diastolic 40-150)
_READING = re.compile(r"\b(7\d|[89]\d|1\d\d|2[0-4]\d)\s*(?:over|/)\s*([4-9]\d|1[0-4]\d)\b(?!\s*(?:mm|%|/))", re.I)
_BLOOD_PRESSURE = re.compile(r"\bblood pressure|\bbp\b|\bhypertension", re.I)


def rewrite(text: str, vocab: Vocabulary) -> tuple[str, list[Rewrite]]:
    """Shorthand written out, typos corrected, lay words mapped to the corpus's terms (module docstring)."""
    rewrites: list[Rewrite] = []
    lower_short = {k.lower(): v for k, v in vocab.shorthand.items()}

    def short(m: re.Match) -> str:
        out = lower_short[re.sub(r"\s+", " ", m.group(0).lower())]
        rewrites.append(Rewrite(said=m.group(0), searched=out, kind="shorthand"))
        return out

    pattern = re.compile(r"(?<![\w/-])(?:" + "|".join(re.escape(k) for k in sorted(lower_short, key=len, reverse=True))
                         + r")(?![\w/-])", re.I) if lower_short else None
    text = pattern.sub(short, text) if pattern else text

    def reading(m: re.Match) -> str:
        out = f"{m.group(1)}/{m.group(2)} mm Hg"
        if not _BLOOD_PRESSURE.search(text):
            out += " blood pressure"
        rewrites.append(Rewrite(said=m.group(0), searched=out, kind="shorthand"))
        return out

    text = _READING.sub(reading, text)

    def spell(m: re.Match) -> str:
        word = m.group(0)
        low = word.lower()
        if len(low) < 4 or vocab.known(low) or any(c.isupper() for c in word[1:]):
            return word
        fixed = vocab.correct(low)
        if not fixed or fixed == low:
            return word
        rewrites.append(Rewrite(said=word, searched=fixed, kind="spelling"))
        return fixed

    text = re.sub(r"(?<![\w/-])[A-Za-z]+(?![\w/-])", spell, text)
    sensitive = {k: v for k, v in vocab.lay_terms.items() if k != k.lower()}
    insensitive = {k.lower(): v for k, v in vocab.lay_terms.items() if k == k.lower()}

    def lay(m: re.Match, table: dict) -> str:
        said = m.group(0)
        key = re.sub(r"\s+", " ", said if table is sensitive else said.lower())
        term = next((table[k] for k in _singular_forms(key) if table.get(k)), None)
        if term is None or term.lower() in text.lower():
            return said
        rewrites.append(Rewrite(said=said, searched=term, kind="lay_term"))
        return term

    for table, flags in ((sensitive, 0), (insensitive, re.I)):
        p = _phrase_pattern(table)
        if p is not None:
            p = re.compile(p.pattern, flags)
            text = p.sub(lambda m, t=table: lay(m, t), text)
    return text, rewrites


def asked_ages(text: str, age: int | None) -> tuple[int | None, int | None] | None:
    """The ages a question asks about: the band it names, read as a guideline's population is read ("adults aged
    76 to 85", "women older than 65", "in their sixties"), else the person's age; None when it names neither."""
    from clinrag.tools.frames.ages import age_bounds

    band = age_bounds(text)
    if band != (None, None):
        return band
    if m := _BARE_BAND.search(text):
        return int(m.group(1)), int(m.group(2))
    return (age, age) if age else None


# a band a question names by its numbers alone ("and screening at 76 to 85", "screening in 45 to 49 year olds"; not "130
# to 139 mm Hg" or "7 to 8 percent")
_BARE_BAND = re.compile(r"\b(?:at|for|in|from) ([1-9]\d) (?:to|through|-|–) ([1-9]\d)\b"
                        r"(?! ?(?:%|percent|mm|mg|mmol|ng|µg|micrograms?|pack|cigarettes?|months?|weeks?|days?))", re.I)


# a question's parts: "on the starting age, the FIT interval, and the advice for adults aged 45 to 49" asks about three
# things, the ages belonging to the last ("between 30 and 65" is one band, so "and" splits only before a new part)
_PARTS = re.compile(r"[,;:?]|\band (?=on |the |whether |what |when |which |who |how |at |if |for )", re.I)
# how often, asked ("how often", "the interval", "how frequently", "repeated every")
_HOW_OFTEN = re.compile(r"\bhow (?:often|frequently)\b|\bintervals?\b|\bfrequenc\w*|\brepeat\w*|\bevery\b", re.I)
# a goal, asked ("the treatment target for adults younger than 65", "the A1C goal for people over 75")
_GOAL = re.compile(r"\b(?:targets?|goals?)\b", re.I)


def narrowed_facets(question: str, ages: tuple[int | None, int | None] | None, age: int | None) -> frozenset[str]:
    """The facets whose conflicts are narrowed to the ages a question asks about
    (:func:`clinrag.tools.frames.conflicts.asked_about`): every facet for one person's age ("my 72 year old dad");
    for a band, the stance, the schedule when the part of the question that names the band asks how often
    ("how often should women aged 30 to 65 have HPV-based screening", not "the FIT interval, and the advice for
    adults aged 45 to 49"), and the goal when that part asks for one ("the treatment target for adults younger than
    65")."""
    from clinrag.tools.frames.ages import age_bounds
    from clinrag.tools.frames.conflicts import ALL_FACETS, BAND_FACETS

    if ages is None:
        return frozenset()
    if age is not None and ages == (age, age):
        return ALL_FACETS
    banded = [part for part in _PARTS.split(question) if age_bounds(part) == ages]
    asked = {facet for facet, words in (("interval", _HOW_OFTEN), ("target", _GOAL))
             if any(words.search(part) for part in banded)}
    return BAND_FACETS | asked


def asked_tests(question: str) -> frozenset[str]:
    """The tests a question names ("how often to repeat primary HPV testing": hrHPV testing; "the FIT interval": FIT),
    as :data:`clinrag.tools.frames.lexicon.TESTS` names them; empty when it names none."""
    from clinrag.tools.frames.lexicon import TESTS, tests

    return frozenset(label for intervention in TESTS for _, _, label in tests(question, intervention))


# a question about most people: "the A1C target for most adults with type 2 diabetes", "for most nonpregnant adults",
# "did the general A1C goal for nonpregnant adults ... change"
_MOST_PEOPLE = re.compile(r"\bmost (?:[\w-]+ ){0,2}(?:adults|patients|people|persons|women|men)\b"
                          r"|\bthe (?:general|usual|standard|default) (?:[\w-]+ ){0,2}(?:goal|target|threshold)s?\b",
                          re.I)


def asked_most_people(question: str) -> bool:
    """Whether a question asks about most people (the general goal or threshold), not a group named by a condition
    (:func:`clinrag.tools.frames.conflicts.find_conflicts`' ``most_people``)."""
    return bool(_MOST_PEOPLE.search(question))


_AVERAGE_RISK = re.compile(r"\baverage[- ]risk\b", re.I)  # "average-risk adults", "men at average risk"
# a higher-risk group asked about beside them: "..., and on which family history qualifies someone for earlier
# colonoscopy", "and for Black men"
_HIGHER_RISK_TOO = re.compile(r"\b(?:family history|relatives?|Black|BRCA\w*|higher[- ]risk|high[- ]risk"
                              r"|increased risk)\b", re.I)


def asked_average_risk(question: str) -> bool:
    """Whether a question asks about people at average risk only ("the age at which men at average risk can start PSA
    screening"), so what higher-risk groups are advised is not what it asks
    (:func:`clinrag.tools.frames.conflicts.find_conflicts`' ``average_risk``); a question that also names a
    higher-risk group asks about both."""
    return bool(_AVERAGE_RISK.search(question)) and not _HIGHER_RISK_TOO.search(question)


def describe_person(age: int | None, sex: str | None) -> str:
    """The person as searched: "a man aged 72", "a woman", "aged 23" ("" when nothing was stated)."""
    who = {"female": "a woman", "male": "a man"}.get(sex or "", "")
    return " ".join(p for p in (who, f"aged {age}" if age else "") if p)


def understand_by_rules(question: str, vocab: Vocabulary) -> Understood:
    language, hint = detect_language(question)
    if language != "en":
        return Understood(asked=question, searched_as=question, language="other", language_hint=hint)
    searched, rewrites = rewrite(question, vocab)
    year, as_of, before = dates(question)
    age, sex = person(question)
    keyword_change, _ = temporal_intent(question)
    change = bool(keyword_change or _CHANGE.search(question) or before)
    person_text = describe_person(age, sex)
    searched_as = f"{searched} ({person_text})" if person_text else searched
    if not change and not as_of and (_RECENT.search(question) or re.search(r"\b(?:still|now|again)\b", question, re.I)):
        change = change_by_examples(searched_as)  # the text retrieval embeds anyway: its vector is reused
    orgs = organizations(question, vocab) or organizations(searched, vocab)
    return Understood(
        asked=question, searched_as=searched_as, organizations=orgs,
        year=year, as_of=as_of, before=before, recent=bool(_RECENT.search(question)), change_intent=change,
        comparison=bool(_COMPARE.search(question)), age=age, sex=sex, ages=asked_ages(question, age),
        risk_factors=risk_factors(question), rewrites=rewrites,
    )


def understand(question: str, index, chat_model: str | None = None) -> Understood:
    """The question understood (rules; the chat model's structured parse when one is configured)."""
    vocab = vocabulary_for(index)
    rules = understand_by_rules(question, vocab)
    if not chat_model or rules.language != "en":
        return rules
    from clinrag.question.chat_parse import parse_with_chat_model

    return parse_with_chat_model(question, rules, vocab, chat_model)
