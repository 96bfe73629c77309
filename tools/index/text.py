"""Small text utilities shared by indexing, retrieval, scope and contradiction code."""

from __future__ import annotations

import re
from functools import lru_cache

_STOPWORDS = frozenset(
    """a an and are as at be been being but by can could did do does for from had has have how i if in into is it
    its may me might my of on or our should so than that the their them then there these they this to was we were
    what when where which who whom why will with would you your about any also all per vs versus do does done
    according say says said tell""".split()
)
_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")


def _normalize(token: str) -> str:
    # A light plural/inflection fold so that "screenings"/"screening", "women"/"woman" meet in BM25.
    if token.isdigit() or len(token) <= 3:
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith("men"):
        return token[:-3] + "man"
    if token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def content_tokens(text: str) -> list[str]:
    """Lower-cased, stop-word-free, lightly normalized tokens (for BM25 and term coverage)."""
    return [_normalize(t) for t in _TOKEN.findall(text.lower()) if t not in _STOPWORDS]


@lru_cache(maxsize=1)
def _segmenter():
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


# Sentence lists an index already stored (text -> sentences): a question over indexed passages never loads pysbd.
_stored_sentences: dict[str, tuple[str, ...]] = {}


def prime_sentences(texts: list[str], sentences: list[list[str]]) -> None:
    """Record the sentences of ``texts`` as ``split_sentences`` gave them when the index was built."""
    _stored_sentences.update(zip(texts, map(tuple, sentences)))


def split_sentences(text: str) -> list[str]:
    """Sentences of a passage (pysbd), stripped, empty ones dropped."""
    stored = _stored_sentences.get(text)
    return list(stored if stored is not None else _split_cached(text))


@lru_cache(maxsize=50_000)
def _split_cached(text: str) -> tuple[str, ...]:
    # pysbd takes ~1 ms per sentence; the same corpus passages are split again on every question
    return tuple(s.strip() for s in _segmenter().segment(text) if s.strip())


_YEAR_CUE = re.compile(r"\b(?:in|before|until|by|as of|during|around|back in)\s+((?:19|20)\d{2})\b", re.I)
_CHANGE_CUE = re.compile(
    r"\b(used to|chang\w*|previous\w*|earlier|formerly|prior (?:version|guideline|recommendation)|"
    r"old(?:er)? (?:guideline|recommendation|version|guidance)|supersed\w*|updat\w*|histor\w*|over time|"
    r"no longer|evolv\w*|revis\w*|shift\w*|replac\w*|what was)\b",
    re.I,
)


def temporal_intent(question: str) -> tuple[bool, int | None]:
    """(does the question ask about change over time or a past date?, the year it names, if any)."""
    year = _YEAR_CUE.search(question)
    as_of_year = int(year.group(1)) if year else None
    return bool(year or _CHANGE_CUE.search(question)), as_of_year
