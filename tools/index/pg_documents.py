"""Document-level reads of the PostgreSQL corpus store: documents looked up by id (never a dict of every document),
topic filters, version links, frames, the vocabulary's inputs and the stored NLI pair scores.

:class:`DocumentReads` is mixed into :class:`~clinrag.tools.index.pg_store.PostgresCorpus`; it reads through the
store's ``read()`` (the question's snapshot) and memoizes per question with ``_memo``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import SimpleNamespace

import numpy as np

from clinrag.schema import Document
from clinrag.tools.index.corpus_store import current_scope
from clinrag.tools.index.pg_schema import SCHEMA as S

DOC_COLUMNS = ("doc_id, source_type, org, org_name, title, issued, year, status, supersedes, superseded_by, topic, "
               "population, text, url, pmid, citation_count")


def binary_cursor(conn):
    """A cursor that receives binary results: vectors arrive as float32 bytes, not text to parse (8 ms for the
    sentences of 50 passages as text, 0.3 ms as binary)."""
    return conn.cursor(binary=True)


def document_from(row) -> Document:
    return Document.model_validate(dict(zip([c.strip() for c in DOC_COLUMNS.split(",")], row)))


class _Documents(Mapping):
    """doc_id -> Document, looked up in the database on each access (memoized for one question)."""

    def __init__(self, store):
        self._store = store

    def __getitem__(self, doc_id: str) -> Document:
        doc = self._store.document(doc_id)
        if doc is None:
            raise KeyError(doc_id)
        return doc

    def __contains__(self, doc_id: object) -> bool:
        return isinstance(doc_id, str) and self._store.document(doc_id) is not None

    def __iter__(self) -> Iterator[str]:  # every document id: not for the query path
        with self._store.read() as conn:
            ids = [r[0] for r in binary_cursor(conn).execute(
                f"SELECT doc_id FROM {S}.documents WHERE NOT retired ORDER BY ord")]
        return iter(ids)

    def __len__(self) -> int:
        with self._store.read() as conn:
            return binary_cursor(conn).execute(f"SELECT count(*) FROM {S}.documents WHERE NOT retired").fetchone()[0]


class DocumentReads:
    """Documents, frames, vocabulary and pair scores (see the module docstring)."""

    # -- documents -----------------------------------------------------------------------------------------------
    def documents_by_id(self, doc_ids) -> dict[str, Document]:
        wanted = sorted(set(doc_ids))
        scope = current_scope()
        cached = {d: scope.memo[(id(self), "doc", d)] for d in wanted if (id(self), "doc", d) in scope.memo} \
            if scope else {}
        missing = [d for d in wanted if d not in cached]
        if missing:
            with self.read() as conn:
                found = {r[0]: document_from(r) for r in binary_cursor(conn).execute(
                    f"SELECT {DOC_COLUMNS} FROM {S}.documents WHERE doc_id = ANY(%s) AND NOT retired", (missing,))}
            for d in missing:
                cached[d] = found.get(d)
                if scope:
                    scope.memo[(id(self), "doc", d)] = cached[d]
        return {d: doc for d, doc in cached.items() if doc is not None}

    def document(self, doc_id: str) -> Document | None:
        return self.documents_by_id([doc_id]).get(doc_id)

    def documents_on(self, topics: set | None) -> list[Document]:
        sql = f"SELECT {DOC_COLUMNS} FROM {S}.documents WHERE NOT retired"
        params: tuple = ()
        if topics is not None:
            sql += " AND (topic = ANY(%s) OR (topic IS NULL AND %s))"
            params = ([t for t in topics if t is not None], None in topics)
        with self.read() as conn:
            return [document_from(r) for r in binary_cursor(conn).execute(sql + " ORDER BY ord", params)]

    def replaced_on(self, doc_ids) -> dict[str, str]:
        with self.read() as conn:
            return {d: issued.isoformat() for d, issued in binary_cursor(conn).execute(
                f"SELECT d.doc_id, s.issued FROM {S}.documents d JOIN {S}.documents s ON s.doc_id = d.superseded_by "
                "WHERE d.doc_id = ANY(%s) AND NOT d.retired AND NOT s.retired AND s.issued IS NOT NULL",
                (list(doc_ids),))}

    def frames_for(self, doc_id: str) -> list:
        from clinrag.tools.frames.schema import Frame

        def fetch():
            with self.read() as conn:
                return [Frame.model_validate(f) for (f,) in binary_cursor(conn).execute(
                    f"SELECT frame FROM {S}.frames WHERE doc_id = %s ORDER BY position", (doc_id,))]
        return self._memo(("frames", doc_id), fetch)


    def vocabulary_inputs(self) -> tuple[list, dict[str, int] | None]:
        with self.read() as conn:
            docs = [SimpleNamespace(org=o, org_name=n, issued=i) for o, n, i in binary_cursor(conn).execute(
                f"SELECT org, org_name, issued FROM {S}.documents WHERE NOT retired ORDER BY ord")]
            words = dict(binary_cursor(conn).execute(f"SELECT word, n FROM {S}.words ORDER BY ord").fetchall())
        return docs, words

    def prime_pair_scores(self, backend, doc_ids=None) -> None:
        """Load the stored pair scores among ``doc_ids``, and their passages' sentences and sentence vectors (as
        split and embedded at build), into the per-process caches."""
        from clinrag.tools.index.embeddings import prime_cache
        from clinrag.tools.index.text import prime_sentences
        from clinrag.tools.nli.pair_scores import _insert, fingerprint

        ids = list(doc_ids or [])
        if not ids:
            return
        with self.read() as conn:
            found = binary_cursor(conn).execute(
                f"SELECT p.row, p.text, s.text, s.embedding FROM {S}.passages p JOIN {S}.sentences s "
                "ON s.passage_row = p.row WHERE p.doc_id = ANY(%s) ORDER BY p.row, s.position", (ids,)).fetchall()
            fp = fingerprint(backend)
            pairs = binary_cursor(conn).execute(
                f"SELECT sa.text, sb.text, ps.p_entailment, ps.p_neutral, ps.p_contradiction FROM {S}.pair_scores ps "
                f"JOIN {S}.sentences sa ON sa.row = ps.a JOIN {S}.passages pa ON pa.row = sa.passage_row "
                f"JOIN {S}.sentences sb ON sb.row = ps.b JOIN {S}.passages pb ON pb.row = sb.passage_row "
                "WHERE ps.fingerprint = %s AND pa.doc_id = ANY(%s) AND pb.doc_id = ANY(%s)", (fp, ids, ids)).fetchall()
        per_passage: dict[int, tuple[str, list[str]]] = {}
        for row, ptext, stext, _ in found:
            per_passage.setdefault(row, (ptext, []))[1].append(stext)
        prime_sentences([t for t, _ in per_passage.values()], [s for _, s in per_passage.values()])
        if found:
            prime_cache([s for _, _, s, _ in found], np.stack([v for *_, v in found]))
        if pairs:
            _insert(fp, [(a, b) for a, b, *_ in pairs], np.array([p[2:] for p in pairs], dtype=np.float32))

