"""The PostgreSQL corpus schema (pgvector), connections and the vector type adapters, with psycopg 3 directly.

One corpus per database, in the schema ``clinrag_corpus`` (the chat threads' tables stay in ``public``)::

    meta         key -> jsonb: the corpus (name, file, content hash at load), the encoder, the frame extractor, the
                 BM25 statistics {n, total_length, k1, b}, the pair-score backend and threshold, the scope
                 declaration, and ``generation`` (+1 at every ``clinrag corpus`` command; keys per-process caches)
    documents    one row per document, every Document field a real column (btree indexes on the columns filters
                 use: topic, org, status, year, issued, source_type, superseded_by); ``ord`` keeps corpus order;
                 ``retired`` documents stay for their history but leave retrieval; title vector and sentence
                 centroid (vector(384)) for the scope guard and for finding a new document's related documents
    passages     row, passage_id, doc_id, chunk, text, ``lexemes`` (tsvector of the BM25 tokens, GIN) and
                 ``embedding`` vector(384) with an HNSW index (vector_ip_ops: inner product of unit vectors)
    sentences    row, passage_row, position, text, embedding vector(384) (HNSW, vector_ip_ops)
    postings     (term, row) -> tf and the passage's token count dl: BM25 is computed from these and ``terms``
    terms        term -> df (passages containing it)
    frames       (doc_id, position) -> recommendation frame (jsonb)
    pair_scores  (a, b, fingerprint) -> NLI probabilities of a sentence pair (sentence rows), index time
    words        word -> count and first-seen order (question understanding's corpus vocabulary)
    corpus_texts the scope declaration's texts and their vectors (the scope guard embeds them on every question)
"""

from __future__ import annotations

import struct
import time
from pathlib import Path

import numpy as np

SCHEMA = "clinrag_corpus"
DIM = 384  # all-MiniLM-L6-v2
# HNSW parameters as the embedded FAISS HNSW index (tools/index/store.py): Javadi et al.'s M=16, efConstruction=200.
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 200

DDL = f"""
CREATE SCHEMA {SCHEMA};
CREATE TABLE {SCHEMA}.meta (key text PRIMARY KEY, value jsonb NOT NULL);
CREATE TABLE {SCHEMA}.documents (
    doc_id text PRIMARY KEY, ord integer NOT NULL UNIQUE, source_type text NOT NULL, org text NOT NULL,
    org_name text, title text NOT NULL, issued date, year integer, status text NOT NULL, supersedes text,
    superseded_by text, topic text, population text, text text NOT NULL, url text, pmid text,
    citation_count integer, retired boolean NOT NULL DEFAULT false,
    title_embedding vector({DIM}), centroid vector({DIM}));
CREATE TABLE {SCHEMA}.passages (
    row integer PRIMARY KEY, passage_id text NOT NULL UNIQUE,
    doc_id text NOT NULL REFERENCES {SCHEMA}.documents ON DELETE CASCADE, chunk integer NOT NULL,
    text text NOT NULL, lexemes tsvector NOT NULL, embedding vector({DIM}) NOT NULL);
CREATE TABLE {SCHEMA}.sentences (
    row integer PRIMARY KEY, passage_row integer NOT NULL REFERENCES {SCHEMA}.passages ON DELETE CASCADE,
    position integer NOT NULL, text text NOT NULL, embedding vector({DIM}) NOT NULL);
CREATE TABLE {SCHEMA}.postings (
    term text NOT NULL, row integer NOT NULL REFERENCES {SCHEMA}.passages ON DELETE CASCADE,
    tf integer NOT NULL, dl integer NOT NULL, PRIMARY KEY (term, row));
CREATE TABLE {SCHEMA}.terms (term text PRIMARY KEY, df integer NOT NULL);
CREATE TABLE {SCHEMA}.frames (
    doc_id text NOT NULL REFERENCES {SCHEMA}.documents ON DELETE CASCADE, position integer NOT NULL,
    frame jsonb NOT NULL, PRIMARY KEY (doc_id, position));
CREATE TABLE {SCHEMA}.pair_scores (
    a integer NOT NULL REFERENCES {SCHEMA}.sentences ON DELETE CASCADE,
    b integer NOT NULL REFERENCES {SCHEMA}.sentences ON DELETE CASCADE, fingerprint text NOT NULL,
    p_entailment real NOT NULL, p_neutral real NOT NULL, p_contradiction real NOT NULL,
    PRIMARY KEY (a, b, fingerprint));
CREATE TABLE {SCHEMA}.words (word text PRIMARY KEY, n integer NOT NULL, ord integer NOT NULL);
CREATE TABLE {SCHEMA}.corpus_texts (text text PRIMARY KEY, embedding vector({DIM}) NOT NULL);
"""

# Built after the bulk load (faster than maintaining them row by row during COPY).
INDEXES = f"""
CREATE INDEX ON {SCHEMA}.documents (topic);
CREATE INDEX ON {SCHEMA}.documents (org);
CREATE INDEX ON {SCHEMA}.documents (status);
CREATE INDEX ON {SCHEMA}.documents (year);
CREATE INDEX ON {SCHEMA}.documents (issued);
CREATE INDEX ON {SCHEMA}.documents (source_type);
CREATE INDEX ON {SCHEMA}.documents (superseded_by);
CREATE INDEX ON {SCHEMA}.passages (doc_id);
CREATE INDEX ON {SCHEMA}.passages USING gin (lexemes);
CREATE INDEX ON {SCHEMA}.passages USING hnsw (embedding vector_ip_ops)
    WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION});
CREATE INDEX ON {SCHEMA}.sentences (passage_row, position);
CREATE INDEX ON {SCHEMA}.sentences USING hnsw (embedding vector_ip_ops)
    WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION});
CREATE INDEX ON {SCHEMA}.postings (row);
CREATE INDEX ON {SCHEMA}.pair_scores (b);
CREATE INDEX ON {SCHEMA}.frames (doc_id);
"""


class CorpusDatabaseError(ValueError):
    """The database cannot serve as the corpus store (unreachable, no corpus loaded, another corpus); one line."""


# -- vectors: pgvector's binary format is int16 dimension, int16 unused, then float4 big-endian ------------------------
class Vector:
    """A query parameter sent as a pgvector ``vector`` (binary): ``conn.execute(sql, (Vector(q),))``."""

    __slots__ = ("array",)

    def __init__(self, array) -> None:
        self.array = array


def vector_bytes(vec) -> bytes:
    a = np.asarray(vec.array if isinstance(vec, Vector) else vec, dtype=">f4").ravel()
    return struct.pack(">HH", len(a), 0) + a.tobytes()


def vector_text(vec) -> str:
    """A vector literal that reads back as the same float32 values (repr of each float32 as float64 round-trips)."""
    return "[" + ",".join(repr(float(x)) for x in np.asarray(vec, dtype=np.float32).ravel()) + "]"


def register_vector(conn) -> None:
    """Teach a psycopg connection pgvector's ``vector``: loaded as float32 numpy arrays (text or binary) and dumped
    from numpy arrays in binary COPY (``copy.set_types([... "vector"])``); and ``tsvector`` dumped from a list of
    tokens in binary COPY."""
    from psycopg.adapt import Dumper, Loader
    from psycopg.pq import Format
    from psycopg.types import TypeInfo

    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        raise CorpusDatabaseError("the pgvector extension is not installed in this database")
    info.register(conn)

    class VectorBinaryLoader(Loader):
        format = Format.BINARY

        def load(self, data) -> np.ndarray:
            return np.frombuffer(bytes(data), dtype=">f4", offset=4).astype(np.float32)

    class VectorTextLoader(Loader):
        def load(self, data) -> np.ndarray:
            return np.array(bytes(data)[1:-1].split(b","), dtype=np.float32)

    class VectorBinaryDumper(Dumper):
        format = Format.BINARY
        oid = info.oid

        def dump(self, obj) -> bytes:
            return vector_bytes(obj)

    class TsvectorBinaryDumper(Dumper):  # a list of tokens, as lexemes without positions (tsvectorrecv's format)
        format = Format.BINARY
        oid = conn.adapters.types["tsvector"].oid

        def dump(self, obj) -> bytes:
            words = sorted({str(t).encode() for t in obj})
            return struct.pack(">i", len(words)) + b"".join(w + b"\0\0\0" for w in words)

    conn.adapters.register_loader(info.oid, VectorBinaryLoader)
    conn.adapters.register_loader(info.oid, VectorTextLoader)
    conn.adapters.register_dumper(None, VectorBinaryDumper)
    conn.adapters.register_dumper(Vector, VectorBinaryDumper)
    conn.adapters.register_dumper(None, TsvectorBinaryDumper)


def connect(url: str, autocommit: bool = False):
    """One connection with ``prepare_threshold=None`` (no server-side prepared statements: they break behind
    transaction-pooling poolers such as pgbouncer); an unreachable database is a one-line CorpusDatabaseError."""
    import psycopg

    try:
        return psycopg.connect(url, autocommit=autocommit, prepare_threshold=None)
    except psycopg.OperationalError as e:
        raise CorpusDatabaseError(f"cannot reach the corpus database {where(url)}: {first_line(e)}") from None


def where(url: str) -> str:
    """host:port/db of a URL, never its password (the thread store's redaction)."""
    from clinrag.threads import _redacted

    return _redacted(url).replace("CLINRAG_DATABASE_URL (", "").rstrip(")")


def first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def corpus_name(corpus_path) -> str:
    """The name a corpus is loaded under: its file name without ``.jsonl`` (``guidelines``)."""
    return Path(str(corpus_path)).stem


def loaded_corpus(conn) -> dict | None:
    """The ``corpus`` meta entry of the corpus this database holds (name, path, hash), or None."""
    if conn.execute("SELECT to_regclass(%s)", (f"{SCHEMA}.meta",)).fetchone()[0] is None:
        return None
    row = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'corpus'").fetchone()
    return row[0] if row else None


_holds: dict[tuple[str, str], tuple[float, bool]] = {}
HOLDS_TTL_S = 10.0  # how long "does this database hold the corpus?" is remembered: a load is seen within 10 s


def holds_corpus(url: str, corpus_path) -> bool:
    """Whether the database holds the corpus named like ``corpus_path`` (``auto`` store selection)."""
    key = (url, corpus_name(corpus_path))
    now = time.monotonic()
    if key in _holds and now - _holds[key][0] < HOLDS_TTL_S:
        return _holds[key][1]
    with connect(url, autocommit=True) as conn:
        loaded = loaded_corpus(conn)
    answer = bool(loaded) and loaded.get("name") == key[1]
    _holds[key] = (now, answer)
    return answer


def forget_holds() -> None:
    """Drop the remembered answers of :func:`holds_corpus` (after a load)."""
    _holds.clear()
