"""The embedded corpus store: an index folder (``tools/index/store.py`` builds it) loaded whole into memory.

:class:`CorpusIndex` holds every passage, its vector, the BM25 weights, the sentence vectors and the documents, and
answers the :class:`~clinrag.tools.index.corpus_store.CorpusStore` methods from them with exactly the arithmetic
the retrieval code used before the interface existed (the same numpy calls on the same arrays), so answers are
byte-identical. It stays the default store; ``tools/index/pg_store.py`` is the PostgreSQL one.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from clinrag.documents import CorpusError, load_documents, load_scope
from clinrag.paths import BUILTIN_CORPUS
from clinrag.schema import Document, Passage, ScopeDeclaration
from clinrag.tools.index.bm25 import StoredBM25
from clinrag.tools.index.corpus_store import PassageFilter
from clinrag.tools.index.embeddings import EMBEDDING_DIM, embed_cached, prime_cache
from clinrag.tools.index.exact import ExactIndex
from clinrag.tools.index.store import (
    HNSW_EF_SEARCH,
    VECTORS_FILE,
    StaleIndexError,
    _print_status,
    build_index,
    default_index_dir,
    embedding_text,
    stale_reason,
)
from clinrag.tools.index.text import content_tokens, prime_sentences

log = logging.getLogger(__name__)


def _load_vector_index(index_dir: Path):
    """The dense index: exact numpy search for a flat index (no FAISS import), FAISS HNSW otherwise."""
    manifest = json.loads((index_dir / "manifest.json").read_text())
    if manifest.get("faiss_index", "flat") == "flat":
        return ExactIndex(np.load(index_dir / VECTORS_FILE))
    import faiss

    index = faiss.read_index(str(index_dir / "index.faiss"))
    index.hnsw.efSearch = HNSW_EF_SEARCH
    return index


@dataclass
class CorpusIndex:
    """A loaded index: passages, their unit vectors, FAISS, BM25 and term statistics."""

    corpus_path: Path
    index_dir: Path
    passages: list[Passage]
    vectors: np.ndarray
    faiss_index: object
    docs: dict[str, Document]
    scope: ScopeDeclaration | None
    idf: dict[str, float] = field(default_factory=dict)
    max_idf: float = 0.0
    passage_terms: list[frozenset[str]] = field(default_factory=list)
    bm25: object = None
    sentence_vectors: np.ndarray | None = None  # every passage sentence, in passage order
    sentence_rows: np.ndarray | None = None  # the passage row of each sentence
    sentences: list[str] = field(default_factory=list)  # every passage sentence, in passage order
    frames: dict[str, list] | None = None  # doc_id -> recommendation frames, read from frames.jsonl on first use
    _lexical: tuple = field(default=((), None), repr=False)  # (terms, scores) of the last BM25 query
    _row_documents: np.ndarray | None = field(default=None, repr=False)  # row -> position of its document in docs

    kind = "embedded"

    @property
    def cache_key(self) -> str:
        """Identifies this corpus's content for per-process caches (vocabulary, pair scores)."""
        return str(self.index_dir)

    # -- passages and vectors ------------------------------------------------------------------------------------
    def passage_count(self) -> int:
        return len(self.passages)

    def passage(self, row: int) -> Passage:
        return self.passages[row]

    def passages_at(self, rows) -> list[Passage]:
        return [self.passages[r] for r in rows]

    def dense_search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """FAISS's ``search``: per query the ``k`` rows of highest inner product (rows -1 past the corpus)."""
        return self.faiss_index.search(np.asarray(queries, dtype=np.float32), k)

    def dense_search_where(self, query_vec: np.ndarray, k: int, where: PassageFilter) -> list[int]:
        """The ``k`` rows of highest inner product among the passages ``where`` admits, best first (ties in row
        order): an exact scan of those rows, so a selective filter loses nothing."""
        if self._row_documents is None:  # per row, the index of its document in self.docs (built once)
            position = {d: i for i, d in enumerate(self.docs)}
            self._row_documents = np.array([position[p.doc_id] for p in self.passages], dtype=np.int64)
        admitted = np.array([where.admits(d) for d in self.docs.values()], dtype=bool)
        allowed = np.nonzero(admitted[self._row_documents])[0] if len(admitted) else np.zeros(0, dtype=np.int64)
        if not len(allowed) or k <= 0:
            return []
        sims = self.vectors[allowed] @ np.asarray(query_vec, dtype=np.float32)
        return allowed[np.argsort(-sims, kind="stable")[:k]].tolist()

    def passage_vectors(self, rows) -> np.ndarray:
        return self.vectors[rows]

    def best_sentence_cosine(self, query_vec: np.ndarray, rows=None) -> np.ndarray:
        """Per passage (of ``rows``, else every one): the cosine of its sentence closest to the query."""
        best = np.full(len(self.passages), -1.0, dtype=np.float32)
        np.maximum.at(best, self.sentence_rows, self.sentence_vectors @ query_vec)
        return best if rows is None else best[rows]

    def sentence_vectors_of(self, rows) -> list[np.ndarray]:
        """The sentence vectors of each passage row (its passage vector when a passage has none)."""
        rows = np.asarray(rows, dtype=np.int64)
        starts = np.searchsorted(self.sentence_rows, rows, side="left")
        ends = np.searchsorted(self.sentence_rows, rows, side="right")
        return [self.sentence_vectors[a:b] if b > a else self.vectors[r][None, :]
                for r, a, b in zip(rows.tolist(), starts.tolist(), ends.tolist())]

    # -- lexical side --------------------------------------------------------------------------------------------
    def _bm25_all(self, terms: list[str]) -> np.ndarray:
        """BM25 of ``terms`` for every passage; the last query's scores are kept (hybrid search asks twice)."""
        key = tuple(terms)
        if self._lexical[0] != key or self._lexical[1] is None:
            scores = self.bm25.get_scores(terms) if terms else np.zeros(len(self.passages))
            self._lexical = (key, scores)
        return self._lexical[1]

    def lexical_top(self, terms: list[str], k: int) -> list[int]:
        """The ``k`` rows of highest BM25 (ties in row order), those with a positive score only."""
        scores = self._bm25_all(terms)
        return [int(r) for r in np.argsort(-scores, kind="stable")[:k] if scores[r] > 0]

    def lexical_scores(self, terms: list[str], rows) -> np.ndarray:
        return self._bm25_all(terms)[rows]

    def term_coverage(self, question_terms: list[str], rows) -> np.ndarray:
        """IDF-weighted share of the question's distinct content terms found in each passage of ``rows``."""
        terms = set(question_terms)
        out = np.zeros(len(rows), dtype=np.float64)
        if not terms:
            return out
        total = sum(self.idf.get(t, self.max_idf) for t in terms)
        for i, row in enumerate(rows):
            out[i] = sum(self.idf[t] for t in terms if t in self.passage_terms[row]) / total
        return out

    # -- documents -----------------------------------------------------------------------------------------------
    def document(self, doc_id: str) -> Document | None:
        return self.docs.get(doc_id)

    def documents_on(self, topics: set | None) -> list[Document]:
        """Documents of ``topics`` (every document for None), in corpus order."""
        return [d for d in self.docs.values() if topics is None or d.topic in topics]

    def replaced_on(self, doc_ids) -> dict[str, str]:
        """doc_id -> issue date of the version that replaced it, for those of ``doc_ids`` that were replaced."""
        docs = self.docs
        return {d: docs[docs[d].superseded_by].issued.isoformat() for d in doc_ids
                if d in docs and docs[d].superseded_by in docs and docs[docs[d].superseded_by].issued}

    def frames_for(self, doc_id: str) -> list:
        """The recommendation frames of one guideline document (stored at index build; [] for other sources)."""
        if self.frames is None:
            from clinrag.tools.frames.storage import load_frames

            self.frames = load_frames(self.index_dir)
        return self.frames.get(doc_id, [])

    def max_in_scope_cosine(self, query_vec: np.ndarray) -> float:
        """The highest cosine between the question and what the corpus covers (titles, every sentence)."""
        inside = np.vstack([embed_cached([d.title for d in self.docs.values()]), self.sentence_vectors])
        return float(np.max(inside @ query_vec))

    def vocabulary_inputs(self) -> tuple[list, dict[str, int] | None]:
        """What question understanding's vocabulary is built from: the documents (their words counted by it)."""
        return list(self.docs.values()), None

    def prime_pair_scores(self, backend, doc_ids=None) -> None:
        """Load the index-time NLI pair scores into the per-process cache (all of them, once; ``doc_ids`` unused)."""
        from clinrag.tools.nli.pair_scores import load_pair_scores

        load_pair_scores(self.index_dir, self.sentences, backend)

    # -- loading -------------------------------------------------------------------------------------------------
    @classmethod
    def load(cls, corpus_path: Path | str = BUILTIN_CORPUS, index_dir: Path | str | None = None) -> CorpusIndex:
        """Load the index for a corpus, (re)building it when missing, stale or foreign, and once more when its files
        cannot be read (truncated vectors or FAISS file, vector counts that do not match the passages, a broken
        ``passages.jsonl``). An index that still cannot be read after that rebuild raises :class:`StaleIndexError`
        with a one-line message; a malformed corpus raises CorpusError before anything on disk is touched."""
        corpus_path = Path(corpus_path)
        docs = load_documents(corpus_path)
        index_dir = Path(index_dir) if index_dir else default_index_dir(corpus_path, docs)
        _restore_interrupted_swap(index_dir)
        reason = stale_reason(index_dir, docs)
        if reason:
            log.warning("Rebuilding index at %s: %s", index_dir, reason)
            build_index(corpus_path, index_dir)
        try:
            return cls._read(corpus_path, index_dir, docs)
        except CorpusError:
            raise  # the corpus's scope file, not the index
        except Exception as e:  # any unreadable file means the index cannot be used as it is
            problem = _load_problem(index_dir, e)
            if reason:  # just built, and still unreadable: do not loop
                raise problem from None
        _print_status(f"rebuilding the index at {index_dir}: {problem}")
        log.warning("Rebuilding index at %s: %s", index_dir, problem)
        build_index(corpus_path, index_dir)
        try:
            return cls._read(corpus_path, index_dir, docs)
        except CorpusError:
            raise
        except Exception as e:
            raise _load_problem(index_dir, e) from None

    @classmethod
    def _read(cls, corpus_path: Path, index_dir: Path, docs: list[Document]) -> CorpusIndex:
        """Read a built index folder; any file that is unreadable or inconsistent raises (see :meth:`load`)."""
        faiss_index = _load_vector_index(index_dir)
        if getattr(faiss_index, "d", EMBEDDING_DIM) != EMBEDDING_DIM:
            raise StaleIndexError(f"vectors have dimension {faiss_index.d}, expected {EMBEDDING_DIM}")
        with (index_dir / "passages.jsonl").open(encoding="utf-8") as fh:
            passages = [_passage(line, n) for n, line in enumerate(fh, start=1)]
        if faiss_index.ntotal != len(passages):
            raise StaleIndexError(f"{faiss_index.ntotal} vectors for {len(passages)} passages")
        vectors = faiss_index.reconstruct_n(0, faiss_index.ntotal)
        sentences = json.loads((index_dir / "sentences.json").read_text())
        sentence_vectors = np.load(index_dir / "sentences.npy")
        if len(sentences) != len(passages):
            raise StaleIndexError(f"sentence lists for {len(sentences)} passages, {len(passages)} passages")
        if sentence_vectors.ndim != 2 or len(sentence_vectors) != sum(map(len, sentences)) or (
                sentence_vectors.shape[1] != EMBEDDING_DIM):
            raise StaleIndexError("sentence vectors do not match the passages")
        texts = json.loads((index_dir / "corpus_texts.json").read_text())
        text_vectors = np.load(index_dir / "corpus_texts.npy")
        if text_vectors.ndim != 2 or len(text_vectors) != len(texts):
            raise StaleIndexError("corpus text vectors do not match the corpus texts")
        prime_cache([s for sents in sentences for s in sents], sentence_vectors)
        prime_sentences([p.text for p in passages], sentences)  # as split at build: no pysbd at query time
        prime_cache(texts, text_vectors)
        tokens = [content_tokens(embedding_text(p)) for p in passages]
        bm25 = StoredBM25.load(index_dir)
        if bm25.num_docs != len(passages):
            raise StaleIndexError(f"BM25 weights for {bm25.num_docs} passages, {len(passages)} passages")
        n = len(passages)
        df = Counter(t for toks in tokens for t in set(toks))
        idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        return cls(
            corpus_path=corpus_path,
            index_dir=index_dir,
            passages=passages,
            vectors=np.asarray(vectors, dtype=np.float32),
            faiss_index=faiss_index,
            docs={d.doc_id: d for d in docs},
            scope=load_scope(corpus_path),
            idf=idf,
            max_idf=math.log(1 + (n + 0.5) / 0.5),
            passage_terms=[frozenset(t) for t in tokens],
            bm25=bm25,
            sentence_vectors=sentence_vectors,
            sentence_rows=np.repeat(np.arange(len(passages)), [len(x) for x in sentences]),
            sentences=[s for sents in sentences for s in sents],
        )


def _passage(line: str, lineno: int) -> Passage:
    """One line of ``passages.jsonl``; a line that does not parse names its line number instead of pydantic's
    error listing."""
    from pydantic import ValidationError

    try:
        return Passage.model_validate_json(line)
    except ValidationError as e:
        first = e.errors()[0]
        field_name = ".".join(str(p) for p in first["loc"]) or "(record)"
        raise StaleIndexError(f"passages.jsonl line {lineno} is unreadable ({field_name}: {first['msg']})") from None


def _load_problem(index_dir: Path, error: Exception) -> StaleIndexError:
    """A load error as one line naming the index folder (numpy's, FAISS's or pydantic's messages can run over
    many lines; only their first line is kept)."""
    text = str(error).strip().splitlines()
    detail = text[0][:200] if text else type(error).__name__
    if isinstance(error, StaleIndexError):
        message = detail if detail.startswith(str(index_dir)) else f"{index_dir}: {detail}"
    else:
        message = f"{index_dir}: index files unreadable ({type(error).__name__}: {detail})"
    return StaleIndexError(message)


def _restore_interrupted_swap(index_dir: Path) -> None:
    """A build killed between moving the old index aside (``NAME.old``) and moving the new one in leaves no index
    folder: put the old one back, so it is checked (and used, or rebuilt) like any other."""
    old = index_dir.with_name(index_dir.name + ".old")
    if not index_dir.exists() and (old / "manifest.json").is_file():
        try:
            old.rename(index_dir)
        except OSError:
            pass


@lru_cache(maxsize=4)
def get_index(corpus_path: str = str(BUILTIN_CORPUS), index_dir: str | None = None) -> CorpusIndex:
    """Once-per-process cached :meth:`CorpusIndex.load`."""
    return CorpusIndex.load(corpus_path, index_dir)
