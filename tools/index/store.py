"""The on-disk passage index: chunking, dense FAISS vectors, BM25, and a manifest that detects stale indexes.

Layout of an index folder::

    manifest.json      embedding model, dimension, corpus content hash, chunking, counts
    index.faiss        inner-product FAISS index over unit vectors (cosine): exact (IndexFlatIP), or HNSW
                       (IndexHNSWFlat, M=16, efConstruction=200) from HNSW_MIN_PASSAGES passages on
    passages.jsonl     one Passage per vector, in vector order, with its document's metadata
    sentences.npy      unit vectors of every passage sentence (for sentence-level support, scope and NLI)
    sentences.json     those sentences, one list per passage (not split again at every process start)
    corpus_texts.json  texts the graph embeds for every question (document titles, the scope declaration's
    corpus_texts.npy   descriptions and examples) and their vectors: no first question embeds them
    pair_scores.npz    NLI scores of the sentence pairs the contradiction check can meet (tools/nli/pair_scores.py)

An index whose manifest does not match the corpus and encoder in use is rebuilt, never used.
Builds go to a temporary folder that replaces the old one only when complete.
"""

from __future__ import annotations

import json
import logging
import math
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from clinrag import __version__
from clinrag.documents import CorpusError, corpus_hash, load_documents, load_scope
from clinrag.paths import BUILTIN_CORPUS, index_root
from clinrag.schema import Document, Passage, ScopeDeclaration
from clinrag.tools.frames.storage import extractor_fingerprint
from clinrag.tools.index.bm25 import BM25_ARRAYS, BM25_VOCAB, StoredBM25, write_bm25
from clinrag.tools.index.embeddings import EMBEDDING_DIM, embed_texts, embedding_model_id, model_runtime, prime_cache
from clinrag.tools.index.exact import ExactIndex
from clinrag.tools.index.text import content_tokens, prime_sentences, split_sentences

log = logging.getLogger(__name__)

INDEX_FORMAT = 6  # 3: sentence lists, corpus texts, pair scores, ONNX export; 4: frames; 5: BM25; 6: vectors.npy
VECTORS_FILE = "vectors.npy"  # the passage vectors, for exact search without FAISS
MAX_PASSAGE_WORDS = 120
# Exact search is fast enough below this many passages (a 384-d flat scan of 50k vectors is a few ms); above it,
# HNSW with Javadi et al.'s (arXiv:2511.06668) parameters. efSearch is raised to at least the candidate pool at
# load time.
HNSW_MIN_PASSAGES = 50_000
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 200
HNSW_EF_SEARCH = 128


class StaleIndexError(RuntimeError):
    """The index on disk does not match the corpus or encoder in use."""


def chunk_document(doc: Document, max_words: int = MAX_PASSAGE_WORDS) -> list[Passage]:
    """Pack whole sentences into passages of at most ``max_words`` words (a longer sentence stands alone)."""
    chunks: list[list[str]] = [[]]
    words = 0
    for sentence in split_sentences(doc.text):
        n = len(sentence.split())
        if chunks[-1] and words + n > max_words:
            chunks.append([])
            words = 0
        chunks[-1].append(sentence)
        words += n
    return [
        Passage(passage_id=f"{doc.doc_id}#{i}", doc_id=doc.doc_id, chunk=i, text=" ".join(sents), meta=doc)
        for i, sents in enumerate(chunks)
        if sents
    ]


def embedding_text(passage: Passage) -> str:
    """What is embedded: the passage prefixed by its organization and title, so context survives chunking."""
    return f"{passage.meta.org}. {passage.meta.title}. {passage.text}"


def default_index_dir(corpus_path: Path | str, docs: list[Document] | None = None) -> Path:
    """The index folder of a corpus, keyed by its content (``corpus_hash``), not by where the file lies: a moved,
    copied or renamed corpus with the same records finds the index already built. ``docs``: the corpus's loaded
    documents, when the caller has them (else the file is read)."""
    digest = corpus_hash(docs if docs is not None else load_documents(Path(corpus_path)))[:16]
    return index_root() / f"corpus-{digest}"


def _print_status(message: str) -> None:
    """A status line on stderr, for the steps of a build that have no progress bar."""
    import sys

    print(message, file=sys.stderr, flush=True)


def make_faiss_index(vectors: np.ndarray, kind: str = "auto"):
    """An inner-product FAISS index over unit ``vectors``: ``flat`` (exact), ``hnsw``, or ``auto`` by size."""
    import faiss

    if kind == "auto":
        kind = "hnsw" if len(vectors) >= HNSW_MIN_PASSAGES else "flat"
    dim = vectors.shape[1] if vectors.ndim == 2 and vectors.shape[1] else EMBEDDING_DIM
    if kind == "flat":
        index = faiss.IndexFlatIP(dim)
    elif kind == "hnsw":
        index = faiss.IndexHNSWFlat(dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        index.hnsw.efSearch = HNSW_EF_SEARCH
    else:
        raise ValueError(f"unknown FAISS index kind {kind!r} (auto | flat | hnsw)")
    if len(vectors):
        index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    return index


def faiss_kind(index) -> str:
    return "hnsw" if hasattr(index, "hnsw") else "flat"


def _manifest(docs: list[Document], corpus_path: Path, n_passages: int, faiss_index=None) -> dict:
    ann = {"faiss_index": faiss_kind(faiss_index) if faiss_index is not None else "flat"}
    if ann["faiss_index"] == "hnsw":
        ann["hnsw"] = {"M": HNSW_M, "efConstruction": HNSW_EF_CONSTRUCTION, "efSearch": HNSW_EF_SEARCH}
    return {
        "format": INDEX_FORMAT,
        "embedding_model": embedding_model_id(),
        "dimension": EMBEDDING_DIM,
        "corpus_hash": corpus_hash(docs),
        "corpus_path": str(corpus_path.resolve()),
        "n_documents": len(docs),
        "n_passages": n_passages,
        "max_passage_words": MAX_PASSAGE_WORDS,
        "frames_extractor": extractor_fingerprint(),
        **ann,
        "clinrag_version": __version__,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def stale_reason(index_dir: Path, docs: list[Document]) -> str | None:
    """Why the index at ``index_dir`` cannot serve ``docs`` (None when it can)."""
    manifest_path = index_dir / "manifest.json"
    if not manifest_path.is_file():
        return "no index built yet"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (ValueError, OSError):  # not JSON, not UTF-8, or not readable
        return "manifest is unreadable"
    if not isinstance(manifest, dict):
        return "manifest is unreadable"
    checks = {
        "format": INDEX_FORMAT,
        "embedding_model": embedding_model_id(),
        "dimension": EMBEDDING_DIM,
        "corpus_hash": corpus_hash(docs),
        "max_passage_words": MAX_PASSAGE_WORDS,
        "frames_extractor": extractor_fingerprint(),
    }
    for key, expected in checks.items():
        if manifest.get(key) != expected:
            return f"manifest {key} is {manifest.get(key)!r}, expected {expected!r}"
    for name in ("index.faiss", VECTORS_FILE, "passages.jsonl", "sentences.npy", "sentences.json",
                 "corpus_texts.json", BM25_ARRAYS, BM25_VOCAB):
        if not (index_dir / name).is_file():
            return f"{name} is missing"
    return None


def corpus_texts(docs: list[Document], scope: ScopeDeclaration | None) -> list[str]:
    """Texts the graph embeds on every question whatever it asks: document titles and the scope declaration."""
    texts = [d.title for d in docs]
    if scope is not None:
        texts += [scope.description, *scope.in_scope_examples]
        texts += [t for cat in scope.out_of_scope for t in (cat.description, *cat.examples)]
    return list(dict.fromkeys(texts))


def build_index(
    corpus_path: Path | str = BUILTIN_CORPUS, index_dir: Path | str | None = None, show_progress: bool = False,
    faiss_index_kind: str = "auto", nli_backend: str | None = None, pair_threshold: float | None = None,
    pair_scores: bool = True,
) -> Path:
    """Validate the corpus, embed its passages and write the index atomically. Returns the index folder.

    ``faiss_index_kind``: ``auto`` (HNSW from HNSW_MIN_PASSAGES passages on, else exact), ``flat`` or ``hnsw``.
    The ONNX encoder is exported first (the query path runs on it), and the contradiction check's sentence pairs
    are scored with ``nli_backend`` at ``pair_threshold`` (default: the Context defaults) and stored, unless
    ``pair_scores`` is False (corpora whose questions never run the contradiction check).
    """
    import faiss

    from clinrag.context import Context
    from clinrag.tools.frames.storage import write_frames
    from clinrag.tools.index.onnx_models import export_cross_encoder, export_encoder
    from clinrag.tools.nli.backends import get_nli_backend
    from clinrag.tools.nli.pair_scores import precompute_pair_scores

    corpus_path = Path(corpus_path)
    docs = load_documents(corpus_path)  # raises CorpusError before anything on disk is touched
    scope = load_scope(corpus_path)  # a malformed scope file fails here too
    index_dir = Path(index_dir) if index_dir else default_index_dir(corpus_path, docs)
    defaults = Context()
    status = _print_status if show_progress else None
    export_encoder(status=status)  # first: the NLI backend below runs on ONNX once the encoder export is there
    passages = [p for doc in docs for p in chunk_document(doc)]
    vectors = embed_texts([embedding_text(p) for p in passages], show_progress=show_progress,
                          label="embedding passages")
    index = make_faiss_index(vectors, faiss_index_kind)
    per_passage = [split_sentences(p.text) for p in passages]
    sentences = [(s, p.doc_id) for p, sents in zip(passages, per_passage) for s in sents]
    sentence_vectors = embed_texts([s for s, _ in sentences], show_progress=show_progress,
                                   label="embedding sentences")
    nli_spec = nli_backend or defaults.nli_backend
    if pair_scores and status and nli_spec in ("cross-encoder", "two-stage") and model_runtime() == "onnx":
        export_cross_encoder(status=status)  # here rather than silently inside the backend's first use
    texts = corpus_texts(docs, scope)
    text_vectors = embed_texts(texts)

    index_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{index_dir.name}.", dir=index_dir.parent))
    try:
        faiss.write_index(index, str(tmp / "index.faiss"))
        np.save(tmp / "sentences.npy", sentence_vectors)
        np.save(tmp / VECTORS_FILE, vectors)  # exact search without FAISS at query time (small corpora)
        (tmp / "sentences.json").write_text(json.dumps(per_passage))
        (tmp / "corpus_texts.json").write_text(json.dumps(texts))
        np.save(tmp / "corpus_texts.npy", text_vectors)
        if pair_scores:
            precompute_pair_scores(tmp, [s for s, _ in sentences], [d for _, d in sentences], sentence_vectors,
                                   {d.doc_id: d.topic for d in docs}, get_nli_backend(nli_spec),
                                   pair_threshold if pair_threshold is not None else defaults.pair_similarity_threshold,
                                   show_progress=show_progress)
        write_frames(tmp, docs, show_progress=show_progress)
        write_bm25(tmp, [content_tokens(embedding_text(p)) for p in passages])
        with (tmp / "passages.jsonl").open("w", encoding="utf-8") as fh:
            for p in passages:
                fh.write(p.model_dump_json() + "\n")
        (tmp / "manifest.json").write_text(json.dumps(_manifest(docs, corpus_path, len(passages), index), indent=2))
        old = index_dir.with_name(index_dir.name + ".old")
        if index_dir.exists():
            shutil.rmtree(old, ignore_errors=True)
            index_dir.rename(old)
        tmp.rename(index_dir)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as e:  # a full disk, a read-only folder: say where, and that the old index is untouched
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            free = f"; {shutil.disk_usage(index_dir.parent).free // 2**20} MiB free there"
        except OSError:
            free = ""
        detail = e.strerror or " ".join(str(e).split())
        message = (f"cannot write the index in {index_dir.parent} ({detail}{free}); the existing index, if any, "
                   "is unchanged")
        raise (OSError(e.errno, message) if e.errno else OSError(message)) from e
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return index_dir


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

    def best_sentence_cosine(self, query_vec: np.ndarray) -> np.ndarray:
        """Per passage: the cosine of its sentence closest to the query."""
        best = np.full(len(self.passages), -1.0, dtype=np.float32)
        np.maximum.at(best, self.sentence_rows, self.sentence_vectors @ query_vec)
        return best

    def frames_for(self, doc_id: str) -> list:
        """The recommendation frames of one guideline document (stored at index build; [] for other sources)."""
        if self.frames is None:
            from clinrag.tools.frames.storage import load_frames

            self.frames = load_frames(self.index_dir)
        return self.frames.get(doc_id, [])

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
