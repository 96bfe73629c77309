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
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from clinrag import __version__
from clinrag.documents import corpus_hash, load_documents, load_scope
from clinrag.paths import BUILTIN_CORPUS, index_root
from clinrag.schema import Document, Passage, ScopeDeclaration
from clinrag.tools.frames.storage import extractor_fingerprint
from clinrag.tools.index.bm25 import BM25_ARRAYS, BM25_VOCAB, write_bm25
from clinrag.tools.index.embeddings import EMBEDDING_DIM, embed_texts, embedding_model_id, model_runtime
from clinrag.tools.index.text import content_tokens, split_sentences

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
    from clinrag.tools.index.onnx_models import (
        export_answerability,
        export_cross_encoder,
        export_encoder,
        export_stance,
    )
    from clinrag.tools.nli.backends import get_nli_backend
    from clinrag.tools.nli.pair_scores import precompute_pair_scores
    from clinrag.tools.retrieval.answerability import answerability_in_use

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
        if any(d.source_type == "abstract" for d in docs):
            export_stance(status=status)  # the stance score between abstracts, likewise
    if status and answerability_in_use() and model_runtime() == "onnx":
        export_answerability(status=status)  # the support score's cross-encoder, likewise
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


def __getattr__(name: str):
    """The loaded index lives in ``tools/index/embedded.py``; ``store.CorpusIndex`` and ``store.get_index`` still
    name it (imported on first use: the embedded module imports this one)."""
    if name in ("CorpusIndex", "get_index"):
        from clinrag.tools.index import embedded

        return getattr(embedded, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
