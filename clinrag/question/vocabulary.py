"""The data behind question understanding: organization aliases, lay terms, shorthand, language cues, and the
spelling corrector built from the corpus's own vocabulary.

Everything is read from YAML beside this module (and from a user corpus's ``NAME.lay_terms.yaml``) and from the
corpus itself (its ``org`` / ``org_name`` fields and its words), once per corpus and process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
# The English word list shipped with symspellpy (82,765 words with corpus counts); the most frequent words are
# also correction targets. 8,000 keeps the corrector's build near 0.3 s (30,000: 1.6 s) and covers the everyday
# words people misspell in a question ("shoud", "oftn", "geting").
ENGLISH_TARGETS = 8000


def _load_yaml(name: str) -> dict:
    with resources.files("clinrag.question").joinpath(name).open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


@lru_cache(maxsize=1)
def english_words() -> dict[str, int]:
    """symspellpy's English frequency list: word -> count (read on the first unknown word, ~0.2 s)."""
    import symspellpy

    words: dict[str, int] = {}
    path = resources.files(symspellpy).joinpath("frequency_dictionary_en_82_765.txt")
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            w, _, c = line.partition(" ")
            words[w] = int(c)
    return words


@lru_cache(maxsize=1)
def languages() -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    data = _load_yaml("languages.yaml")
    return frozenset(data["english"]), {k: frozenset(v) for k, v in data["other"].items()}


@dataclass
class Vocabulary:
    """One corpus's vocabulary for understanding: aliases, lay terms, shorthand and words."""

    aliases: dict[str, set[str]]  # alias (as written) -> corpus org values
    lay_terms: dict[str, str]  # lay phrase (lower case) -> clinical phrase
    shorthand: dict[str, str]
    corpus_words: dict[str, int]
    org_first_issued: dict[str, list] = field(default_factory=dict)
    _corrector: object = None

    def known(self, word: str) -> bool:
        """A word left as typed: in the corpus, a lay term, or a common English word (never rewritten)."""
        return (word in self.corpus_words or word in self.lay_words or word in english_words())

    @property
    def lay_words(self) -> set[str]:
        return {w for phrase in self.lay_terms for w in WORD.findall(phrase.lower())}

    def correctors(self):
        """Two symspellpy dictionaries, built on first use: the corpus's words and lay terms, tried first (a typo
        in a health question is most likely the corpus's word: "blod" -> "blood", not "blog"), then the most
        frequent English words ("shoud" -> "should")."""
        if self._corrector is None:
            from symspellpy import SymSpell

            domain, english = SymSpell(max_dictionary_edit_distance=2), SymSpell(max_dictionary_edit_distance=2)
            for w, c in {**{w: 1 for w in self.lay_words}, **self.corpus_words}.items():
                if len(w) > 2:
                    domain.create_dictionary_entry(w, c)
            for w, c in sorted(english_words().items(), key=lambda kv: -kv[1])[:ENGLISH_TARGETS]:
                english.create_dictionary_entry(w, c)
            self._corrector = (domain, english)
        return self._corrector

    def correct(self, word: str) -> str | None:
        """The closest dictionary word to an unknown ``word`` (edit distance 1, or 2 from six letters on)."""
        from symspellpy import Verbosity

        max_distance = 1 if len(word) < 6 else 2
        for sym in self.correctors():
            found = sym.lookup(word, Verbosity.CLOSEST, max_edit_distance=max_distance)
            if found:
                return found[0].term
        return None


def _alias_map(docs) -> dict[str, set[str]]:
    aliases: dict[str, set[str]] = {}
    orgs = {d.org for d in docs}
    for d in docs:  # the corpus's own names
        aliases.setdefault(d.org, set()).add(d.org)
        if d.org_name:
            for part in re.split(r"\s*/\s*|\s*\(with ", d.org_name):
                part = part.strip(" )")
                if len(part) > 3:
                    aliases.setdefault(part, set()).add(d.org)
    for org, names in (_load_yaml("org_aliases.yaml").get("aliases") or {}).items():
        if org in orgs:
            for name in names:
                aliases.setdefault(str(name), set()).add(org)
    return aliases


def _user_lay_terms(corpus_path: str | None) -> dict:
    """``NAME.lay_terms.yaml`` beside a user corpus (same format as the built-in file), if present."""
    if not corpus_path:
        return {}
    path = Path(corpus_path)
    extra = path.with_name(path.stem + ".lay_terms.yaml")
    if not extra.is_file():
        return {}
    return yaml.safe_load(extra.read_text(encoding="utf-8")) or {}


def corpus_word_counts(docs) -> dict[str, int]:
    """How often each word occurs in the documents' titles, texts and organization names."""
    words: dict[str, int] = {}
    for d in docs:
        for w in WORD.findall(f"{d.title} {d.text} {d.org_name or ''} {d.org}".lower()):
            words[w] = words.get(w, 0) + 1
    return words


def build_vocabulary(docs, corpus_path: str | None = None, words: dict[str, int] | None = None) -> Vocabulary:
    """``docs`` need ``org``, ``org_name`` and ``issued``; their words are counted unless ``words`` (counted
    beforehand, e.g. kept by the PostgreSQL corpus store) is given."""
    builtin, user = _load_yaml("lay_terms.yaml"), _user_lay_terms(corpus_path)
    lay = {**(builtin.get("terms") or {}), **(user.get("terms") or {})}
    shorthand = {**(builtin.get("shorthand") or {}), **(user.get("shorthand") or {})}
    docs = list(docs)
    words = corpus_word_counts(docs) if words is None else words
    first: dict[str, list] = {}
    for d in docs:
        if d.issued:
            first.setdefault(d.org, []).append(d.issued)
    return Vocabulary(aliases=_alias_map(docs), lay_terms={str(k): str(v) for k, v in lay.items()},
                      shorthand={str(k).lower(): str(v) for k, v in shorthand.items()}, corpus_words=words,
                      org_first_issued={o: sorted(v) for o, v in first.items()})


_cache: dict[tuple, Vocabulary] = {}


def vocabulary_for(index) -> Vocabulary:
    """The vocabulary of an index's corpus, built once per corpus content and process."""
    key = (str(getattr(index, "cache_key", None) or getattr(index, "index_dir", id(index))),
           str(getattr(index, "corpus_path", "")))
    if key not in _cache:
        if hasattr(index, "vocabulary_inputs"):  # a corpus store: documents (and word counts) as it keeps them
            docs, words = index.vocabulary_inputs()
        else:
            docs, words = list(index.docs.values()), None
        _cache[key] = build_vocabulary(docs, getattr(index, "corpus_path", None), words)
    return _cache[key]
