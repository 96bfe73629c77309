"""Load a corpus into PostgreSQL from the embedded index build (``clinrag index build`` with the postgres store).

Nothing is chunked, embedded, extracted or scored twice: :func:`load_corpus` takes the index folder that
:func:`~clinrag.tools.index.store.build_index` wrote (the existing one when it is up to date, else a fresh build in a
temporary folder) and bulk-loads its files with binary COPY, in ONE transaction that drops and recreates the schema:
readers see the old corpus or the new one, and a failed load leaves the old one in place.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from clinrag.documents import corpus_hash, load_documents, load_scope
from clinrag.tools.index.pg_schema import DDL, INDEXES, SCHEMA, connect, corpus_name, forget_holds, register_vector

BM25_K1, BM25_B = 1.5, 0.75  # bm25s's defaults, which write_bm25 uses: the stored statistics must give its weights


def passage_tokens(passage) -> list[str]:
    """The BM25 tokens of a passage, exactly as the embedded build indexes them."""
    from clinrag.tools.index.store import embedding_text
    from clinrag.tools.index.text import content_tokens

    return content_tokens(embedding_text(passage))


def document_row(doc, ord_: int, title_vec, centroid) -> tuple:
    return (doc.doc_id, ord_, doc.source_type, doc.org, doc.org_name, doc.title, doc.issued, doc.year, doc.status,
            doc.supersedes, doc.superseded_by, doc.topic, doc.population, doc.text, doc.url, doc.pmid,
            doc.citation_count, False, title_vec, centroid)


DOCUMENT_COLUMNS = ("doc_id, ord, source_type, org, org_name, title, issued, year, status, supersedes, superseded_by, "
                    "topic, population, text, url, pmid, citation_count, retired, title_embedding, centroid")
DOCUMENT_TYPES = ["text", "int4", "text", "text", "text", "text", "date", "int4", "text", "text", "text", "text",
                  "text", "text", "text", "text", "int4", "bool", "vector", "vector"]


def centroids(doc_ids: list[str], sentence_docs: list[str], sentence_vectors: np.ndarray) -> dict[str, np.ndarray]:
    """Unit mean sentence vector per document (how tools/nli/pair_scores.py finds related documents)."""
    out = {}
    grouped: dict[str, list[int]] = {}
    for i, d in enumerate(sentence_docs):
        grouped.setdefault(d, []).append(i)
    for d in doc_ids:
        if d in grouped:
            c = sentence_vectors[grouped[d]].mean(0)
            out[d] = (c / max(float(np.linalg.norm(c)), 1e-12)).astype(np.float32)
    return out


def copy_rows(cur, table: str, columns: str, types: list[str], rows) -> None:
    with cur.copy(f"COPY {SCHEMA}.{table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def load_corpus(url: str, corpus_path: Path | str, show_progress: bool = False, pair_scores: bool = True,
                nli_backend: str | None = None, maintenance_work_mem: str = "256MB") -> dict:
    """Build (or reuse) the embedded index of ``corpus_path`` and load it into the database at ``url``, replacing the
    corpus it held. Returns counts and the seconds the database load took (build excluded).
    ``maintenance_work_mem``: for the index builds of this load (an HNSW graph that does not fit is built much
    more slowly, on disk; large corpora need about 2 KB per vector)."""
    from clinrag.tools.index.store import build_index, default_index_dir, stale_reason

    corpus_path = Path(corpus_path).resolve()
    docs = load_documents(corpus_path)  # a malformed corpus fails here, before the database is touched
    load_scope(corpus_path)
    index_dir = default_index_dir(corpus_path, docs)
    tmp = None
    if stale_reason(index_dir, docs) is not None or not pair_scores or nli_backend:
        tmp = Path(tempfile.mkdtemp(prefix="clinrag-pg-load-"))
        index_dir = build_index(corpus_path, tmp / "index", show_progress=show_progress, nli_backend=nli_backend,
                                pair_scores=pair_scores)
    try:
        return _load_folder(url, corpus_path, docs, index_dir, nli_backend, maintenance_work_mem)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def _load_folder(url: str, corpus_path: Path, docs, index_dir: Path, nli_backend: str | None,
                 maintenance_work_mem: str) -> dict:
    from psycopg.types.json import Jsonb

    from clinrag.question.vocabulary import corpus_word_counts
    from clinrag.schema import Passage
    from clinrag.tools.frames.storage import FRAMES_FILE, extractor_fingerprint
    from clinrag.tools.index.embeddings import embedding_model_id
    from clinrag.tools.nli.pair_scores import PAIR_SCORES_FILE

    with (index_dir / "passages.jsonl").open(encoding="utf-8") as fh:
        passages = [Passage.model_validate_json(line) for line in fh]
    vectors = np.load(index_dir / "vectors.npy")
    per_passage = json.loads((index_dir / "sentences.json").read_text())
    sentence_vectors = np.load(index_dir / "sentences.npy")
    texts = json.loads((index_dir / "corpus_texts.json").read_text())
    text_vectors = dict(zip(texts, np.load(index_dir / "corpus_texts.npy")))
    sentence_docs = [p.doc_id for p, sents in zip(passages, per_passage) for _ in sents]
    cent = centroids([d.doc_id for d in docs], sentence_docs, sentence_vectors)
    tokens = [passage_tokens(p) for p in passages]
    df = Counter(t for toks in tokens for t in set(toks))
    scope = load_scope(corpus_path)
    title_set = {d.title for d in docs}
    pairs = np.load(index_dir / PAIR_SCORES_FILE) if (index_dir / PAIR_SCORES_FILE).is_file() else None
    pair_meta = None
    if pairs is not None:
        from clinrag.context import Context

        pair_meta = {"backend": nli_backend or Context().nli_backend, "fingerprint": str(pairs["fingerprint"]),
                     "threshold": float(pairs["pair_threshold"])}
    meta = {
        "corpus": {"name": corpus_name(corpus_path), "path": str(corpus_path), "hash": corpus_hash(docs)},
        "encoder": {"embedding_model": embedding_model_id(), "dimension": int(vectors.shape[1])},
        "frames_extractor": extractor_fingerprint(),
        "bm25": {"n": len(passages), "total_length": int(sum(map(len, tokens))), "k1": BM25_K1, "b": BM25_B},
        "pair_scores": pair_meta,
        "scope": scope.model_dump(mode="json") if scope else None,
        "generation": 0,
        "loaded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    started = time.perf_counter()
    with connect(url) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        register_vector(conn)
        with conn.transaction(), conn.cursor() as cur:
            # HNSW builds are much faster in memory
            cur.execute("SELECT set_config('maintenance_work_mem', %s, true)", (maintenance_work_mem,))
            cur.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
            cur.execute(DDL)
            register_vector(conn)  # the schema is new; the type is the extension's, unchanged
            copy_rows(cur, "meta", "key, value", ["text", "jsonb"],  # Jsonb: None is JSON null, not SQL NULL
                      ((key, Jsonb(value)) for key, value in meta.items()))
            copy_rows(cur, "documents", DOCUMENT_COLUMNS, DOCUMENT_TYPES,
                      (document_row(d, i, text_vectors.get(d.title) if d.title in title_set else None,
                                    cent.get(d.doc_id)) for i, d in enumerate(docs)))
            copy_rows(cur, "passages", "row, passage_id, doc_id, chunk, text, lexemes, embedding",
                      ["int4", "text", "text", "int4", "text", "tsvector", "vector"],
                      ((i, p.passage_id, p.doc_id, p.chunk, p.text, tokens[i], vectors[i])
                       for i, p in enumerate(passages)))
            copy_rows(cur, "sentences", "row, passage_row, position, text, embedding",
                      ["int4", "int4", "int4", "text", "vector"], _sentence_rows(per_passage, sentence_vectors))
            copy_rows(cur, "postings", "term, row, tf, dl", ["text", "int4", "int4", "int4"],
                      ((t, i, n, len(toks)) for i, toks in enumerate(tokens) for t, n in Counter(toks).items()))
            copy_rows(cur, "terms", "term, df", ["text", "int4"], df.items())
            copy_rows(cur, "words", "word, n, ord", ["text", "int4", "int4"],
                      ((w, n, i) for i, (w, n) in enumerate(corpus_word_counts(docs).items())))
            scope_texts = [t for t in texts if t not in title_set]
            copy_rows(cur, "corpus_texts", "text, embedding", ["text", "vector"],
                      ((t, text_vectors[t]) for t in scope_texts))
            if (index_dir / FRAMES_FILE).is_file():
                copy_rows(cur, "frames", "doc_id, position, frame", ["text", "int4", "jsonb"],
                          _frame_rows(index_dir / FRAMES_FILE))
            if pairs is not None:
                probs = pairs["probs"]
                copy_rows(cur, "pair_scores", "a, b, fingerprint, p_entailment, p_neutral, p_contradiction",
                          ["int4", "int4", "text", "float4", "float4", "float4"],
                          ((int(a), int(b), pair_meta["fingerprint"], *map(float, probs[i]))
                           for i, (a, b) in enumerate(zip(pairs["a"], pairs["b"]))))
            cur.execute(INDEXES)
        conn.execute(f"ANALYZE {SCHEMA}.passages")
        conn.commit()
    forget_holds()
    return {"documents": len(docs), "passages": len(passages), "sentences": int(len(sentence_vectors)),
            "pairs": 0 if pairs is None else int(len(pairs["a"])), "seconds": time.perf_counter() - started}


def _sentence_rows(per_passage: list[list[str]], vectors: np.ndarray):
    row = 0
    for p, sents in enumerate(per_passage):
        for position, text in enumerate(sents):
            yield row, p, position, text, vectors[row]
            row += 1


def _frame_rows(path: Path):
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            for position, frame in enumerate(record["frames"]):
                yield record["doc_id"], position, frame
