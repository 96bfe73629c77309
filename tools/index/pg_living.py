"""A living corpus in PostgreSQL: add, replace and retire documents, each in ONE transaction.

The slow work (chunking, embedding, frame extraction, NLI scores of the new sentences against related documents)
runs before the transaction, with the embedded build's own functions; the transaction then writes documents,
passages (vectors, lexemes), sentences, BM25 statistics (postings, df, n, total length), the vocabulary's word
counts, frames and pair scores, bumps ``generation`` and commits. A question runs in one REPEATABLE READ snapshot
(``question_snapshot``), so it sees the corpus before the commit or after it, never part of a command. Writers are
serialized by a row lock on ``meta.generation``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from clinrag import documents
from clinrag.documents import CorpusError
from clinrag.schema import Document
from clinrag.tools.index.pg_load import DOCUMENT_COLUMNS, DOCUMENT_TYPES, copy_rows, document_row, passage_tokens
from clinrag.tools.index.pg_schema import SCHEMA as S
from clinrag.tools.index.pg_schema import CorpusDatabaseError, Vector, connect, loaded_corpus, register_vector, where


def read_documents(path: Path | str) -> list[Document]:
    """The documents of a JSONL file, validated like a corpus (:func:`clinrag.documents.read_documents`); their
    links are checked later against the file and the database."""
    return documents.read_documents(path)[0]


def _open(url: str):
    conn = connect(url)
    if loaded_corpus(conn) is None:
        conn.close()
        raise CorpusDatabaseError(f"the database {where(url)} holds no corpus: load one first with "
                                  "`clinrag index build --store postgres`")
    register_vector(conn)
    return conn


def _check(conn, docs: list[Document], path, replacing: str | None = None) -> None:
    ids = [d.doc_id for d in docs]
    known = {d: retired for d, retired in conn.execute(
        f"SELECT doc_id, retired FROM {S}.documents WHERE doc_id = ANY(%s)", (ids + [l for d in docs for l in (
            d.supersedes, d.superseded_by) if l],))}
    for d in docs:
        if d.doc_id in known:
            raise CorpusError(f"{path}: field 'doc_id': '{d.doc_id}' is already in the corpus database")
        for name in ("supersedes", "superseded_by"):
            target = getattr(d, name)
            if target and target not in ids and (target not in known or known[target]):
                raise CorpusError(f"{path}: document '{d.doc_id}': field '{name}': unknown doc_id '{target}'")
            if name == "supersedes" and target and target != replacing and target not in ids:
                raise CorpusError(f"{path}: document '{d.doc_id}' supersedes '{target}': use "
                                  f"`clinrag corpus replace {target} FILE`")


def _prepare(conn, docs: list[Document], meta: dict) -> dict:
    """Everything the transaction writes for new documents, computed outside it (no lock held meanwhile)."""
    from clinrag.tools.index.embeddings import embed_texts
    from clinrag.tools.index.store import chunk_document, embedding_text
    from clinrag.tools.index.text import split_sentences

    passages = [p for d in docs for p in chunk_document(d)]
    per_passage = [split_sentences(p.text) for p in passages]
    flat = [s for sents in per_passage for s in sents]
    prepared = {
        "passages": passages, "per_passage": per_passage, "tokens": [passage_tokens(p) for p in passages],
        "vectors": embed_texts([embedding_text(p) for p in passages]), "sentence_vectors": embed_texts(flat),
        "titles": dict(zip([d.title for d in docs], embed_texts([d.title for d in docs]))),
    }
    owners = [p.doc_id for p, sents in zip(passages, per_passage) for _ in sents]
    prepared["centroids"] = {}
    for d in docs:
        mine = prepared["sentence_vectors"][[i for i, o in enumerate(owners) if o == d.doc_id]]
        if len(mine):
            c = mine.mean(0)
            prepared["centroids"][d.doc_id] = (c / max(float(np.linalg.norm(c)), 1e-12)).astype(np.float32)
    from clinrag.tools.frames.extract import document_frames

    prepared["frames"] = {d.doc_id: [f.model_dump(mode="json") for f in document_frames(d)]
                          for d in docs if d.source_type == "guideline"}
    prepared["pairs"] = _new_pairs(conn, docs, flat, owners, prepared, meta.get("pair_scores"))
    return prepared


def _new_pairs(conn, docs, flat, owners, prepared, pair_meta) -> list[tuple]:
    """NLI scores, both directions, of new sentences against the sentences of related documents (same topic, or
    among the NEIGHBOURS nearest by centroid), cosine >= the threshold the corpus was loaded with."""
    if not pair_meta or not flat:
        return []
    from clinrag.tools.nli.backends import get_nli_backend
    from clinrag.tools.nli.pair_scores import NEIGHBOURS, fingerprint, score_pairs

    backend = get_nli_backend(pair_meta["backend"])
    if fingerprint(backend) != pair_meta["fingerprint"]:
        return []  # another model than the stored scores': its scores would never be read
    vecs, out = prepared["sentence_vectors"], []
    for d in docs:
        related = {r for (r,) in conn.execute(
            f"SELECT doc_id FROM {S}.documents WHERE NOT retired AND topic = %s", (d.topic,))} if d.topic else set()
        if d.doc_id in prepared["centroids"]:
            related |= {r for (r,) in conn.execute(
                f"SELECT doc_id FROM {S}.documents WHERE NOT retired AND centroid IS NOT NULL "
                "ORDER BY centroid <#> %s LIMIT %s", (Vector(prepared["centroids"][d.doc_id]), NEIGHBOURS))}
        theirs = conn.execute(
            f"SELECT s.row, s.text, s.embedding FROM {S}.sentences s JOIN {S}.passages p ON p.row = s.passage_row "
            "WHERE p.doc_id = ANY(%s) ORDER BY s.row", (sorted(related),)).fetchall()
        mine = [i for i, o in enumerate(owners) if o == d.doc_id]
        if not theirs or not mine:
            continue
        sim = vecs[mine] @ np.stack([v for *_, v in theirs]).T
        for i, j in zip(*np.nonzero(sim >= pair_meta["threshold"])):
            a, (row, text, _) = flat[mine[i]], theirs[j]
            out.append((mine[i], row, a, text))
    texts = [(a, b) for _, _, a, b in out] + [(b, a) for _, _, a, b in out]
    probs = score_pairs(backend, texts) if texts else np.zeros((0, 3))
    n = len(out)
    return [(i, row, probs[k], probs[n + k]) for k, (i, row, _, _) in enumerate(out)]


def _write(cur, docs: list[Document], prep: dict, meta: dict) -> None:
    """Insert the prepared documents (inside the caller's transaction, writers' lock held)."""
    from clinrag.question.vocabulary import corpus_word_counts

    base_doc, base_row, base_sentence, base_word = cur.execute(
        f"SELECT (SELECT coalesce(max(ord) + 1, 0) FROM {S}.documents), "
        f"(SELECT coalesce(max(row) + 1, 0) FROM {S}.passages), (SELECT coalesce(max(row) + 1, 0) FROM {S}.sentences), "
        f"(SELECT coalesce(max(ord) + 1, 0) FROM {S}.words)").fetchone()
    copy_rows(cur, "documents", DOCUMENT_COLUMNS, DOCUMENT_TYPES,
              (document_row(d, base_doc + i, prep["titles"][d.title], prep["centroids"].get(d.doc_id))
               for i, d in enumerate(docs)))
    passages, tokens = prep["passages"], prep["tokens"]
    copy_rows(cur, "passages", "row, passage_id, doc_id, chunk, text, lexemes, embedding",
              ["int4", "text", "text", "int4", "text", "tsvector", "vector"],
              ((base_row + i, p.passage_id, p.doc_id, p.chunk, p.text, tokens[i], prep["vectors"][i])
               for i, p in enumerate(passages)))
    sentence_rows = [(base_sentence + k, base_row + i, pos, s)
                     for k, (i, pos, s) in enumerate((i, pos, s) for i, sents in enumerate(prep["per_passage"])
                                                     for pos, s in enumerate(sents))]
    copy_rows(cur, "sentences", "row, passage_row, position, text, embedding",
              ["int4", "int4", "int4", "text", "vector"],
              ((*r, prep["sentence_vectors"][k]) for k, r in enumerate(sentence_rows)))
    copy_rows(cur, "postings", "term, row, tf, dl", ["text", "int4", "int4", "int4"],
              ((t, base_row + i, n, len(toks)) for i, toks in enumerate(tokens) for t, n in Counter(toks).items()))
    df = Counter(t for toks in tokens for t in set(toks))
    cur.executemany(f"INSERT INTO {S}.terms (term, df) VALUES (%s, %s) "
                    "ON CONFLICT (term) DO UPDATE SET df = terms.df + EXCLUDED.df", list(df.items()))
    _bump_bm25(cur, meta, len(passages), sum(map(len, tokens)))
    words = corpus_word_counts(docs)
    cur.executemany(f"INSERT INTO {S}.words (word, n, ord) VALUES (%s, %s, %s) "
                    "ON CONFLICT (word) DO UPDATE SET n = words.n + EXCLUDED.n",
                    [(w, n, base_word + i) for i, (w, n) in enumerate(words.items())])
    copy_rows(cur, "frames", "doc_id, position, frame", ["text", "int4", "jsonb"],
              ((d, pos, f) for d, frames in prep["frames"].items() for pos, f in enumerate(frames)))
    if prep["pairs"]:
        fp = meta["pair_scores"]["fingerprint"]
        copy_rows(cur, "pair_scores", "a, b, fingerprint, p_entailment, p_neutral, p_contradiction",
                  ["int4", "int4", "text", "float4", "float4", "float4"],
                  [row for i, other, ab, ba in prep["pairs"] for row in (
                      (base_sentence + i, other, fp, *map(float, ab)),
                      (other, base_sentence + i, fp, *map(float, ba)))])


def _bump_bm25(cur, meta: dict, passages: int, length: int) -> None:
    stats = {**meta["bm25"], "n": meta["bm25"]["n"] + passages,
             "total_length": meta["bm25"]["total_length"] + length}
    cur.execute(f"UPDATE {S}.meta SET value = %s::jsonb WHERE key = 'bm25'", (json.dumps(stats),))


def _meta(conn) -> dict:
    return dict(conn.execute(f"SELECT key, value FROM {S}.meta").fetchall())


def _commit(conn, cur) -> int:
    """Bump ``generation`` (held locked since the transaction began); the caller's ``with`` commits."""
    generation = cur.execute(f"UPDATE {S}.meta SET value = to_jsonb((value #>> '{{}}')::int + 1) "
                             "WHERE key = 'generation' RETURNING value").fetchone()[0]
    return int(generation)


def _lock(cur) -> dict:
    """Serialize writers (row lock on meta.generation) and read the metadata as of the lock."""
    cur.execute(f"SELECT value FROM {S}.meta WHERE key = 'generation' FOR UPDATE")
    return dict(cur.execute(f"SELECT key, value FROM {S}.meta").fetchall())


def add_documents(url: str, path: Path | str) -> dict:
    """Add the documents of a JSONL file (new doc_ids; links to the file or to documents in the database)."""
    docs = read_documents(path)  # nothing is written on bad input
    with _open(url) as conn:
        _check(conn, docs, path)
        prepared = _prepare(conn, docs, _meta(conn))
        conn.rollback()
        with conn.transaction(), conn.cursor() as cur:
            meta = _lock(cur)
            _check(conn, docs, path)  # again, under the lock: a concurrent command may have added them
            _write(cur, docs, prepared, meta)
            generation = _commit(conn, cur)
    return {"documents": [d.doc_id for d in docs], "passages": len(prepared["passages"]), "generation": generation}


def replace_document(url: str, old_id: str, path: Path | str) -> dict:
    """Add the one document of ``path`` as the version that replaces ``old_id``, which becomes superseded."""
    docs = read_documents(path)
    if len(docs) != 1:
        raise CorpusError(f"{path}: `replace` takes exactly one document (the new version), found {len(docs)}")
    new = docs[0]
    if new.supersedes not in (None, old_id) or new.status != "current":
        raise CorpusError(f"{path}: document '{new.doc_id}' must be current and supersede '{old_id}' (or say nothing)")
    new = new.model_copy(update={"supersedes": old_id})
    with _open(url) as conn:
        row = conn.execute(f"SELECT status, retired FROM {S}.documents WHERE doc_id = %s", (old_id,)).fetchone()
        if row is None or row[1]:
            raise CorpusError(f"no document '{old_id}' in the corpus database")
        if row[0] != "current":
            raise CorpusError(f"'{old_id}' is already superseded; replace its current version instead")
        _check(conn, [new], path, replacing=old_id)
        prepared = _prepare(conn, [new], _meta(conn))
        conn.rollback()
        with conn.transaction(), conn.cursor() as cur:
            meta = _lock(cur)
            _check(conn, [new], path, replacing=old_id)
            changed = cur.execute(f"UPDATE {S}.documents SET status = 'superseded', superseded_by = %s "
                                  "WHERE doc_id = %s AND status = 'current' AND NOT retired", (new.doc_id, old_id))
            if changed.rowcount != 1:
                raise CorpusError(f"'{old_id}' changed while replacing it; nothing was written")
            _write(cur, [new], prepared, meta)
            generation = _commit(conn, cur)
    return {"documents": [new.doc_id], "replaced": old_id, "passages": len(prepared["passages"]),
            "generation": generation}


def retire_document(url: str, doc_id: str) -> dict:
    """Take a document out of retrieval: its passages, sentences, BM25 statistics, words, frames and pair scores go;
    the document row stays (retired) so that its history can still be told."""
    from clinrag.question.vocabulary import corpus_word_counts

    with _open(url) as conn, conn.transaction(), conn.cursor() as cur:
        meta = _lock(cur)
        row = cur.execute(f"SELECT title, text, org_name, org FROM {S}.documents WHERE doc_id = %s AND NOT retired",
                          (doc_id,)).fetchone()
        if row is None:
            raise CorpusError(f"no document '{doc_id}' in the corpus database")
        stats = cur.execute(f"SELECT count(*), coalesce(sum(dl), 0) FROM (SELECT DISTINCT row, dl FROM {S}.postings "
                            f"WHERE row IN (SELECT row FROM {S}.passages WHERE doc_id = %s)) x", (doc_id,)).fetchone()
        cur.execute(f"UPDATE {S}.terms t SET df = t.df - x.n FROM (SELECT term, count(*) AS n FROM {S}.postings "
                    f"WHERE row IN (SELECT row FROM {S}.passages WHERE doc_id = %s) GROUP BY term) x "
                    "WHERE t.term = x.term", (doc_id,))
        cur.execute(f"DELETE FROM {S}.terms WHERE df <= 0")
        n_passages = cur.execute(f"SELECT count(*) FROM {S}.passages WHERE doc_id = %s", (doc_id,)).fetchone()[0]
        _bump_bm25(cur, meta, -n_passages, -int(stats[1]))
        doc = type("D", (), dict(zip(("title", "text", "org_name", "org"), row)))
        cur.executemany(f"UPDATE {S}.words SET n = n - %s WHERE word = %s",
                        [(n, w) for w, n in corpus_word_counts([doc]).items()])
        cur.execute(f"DELETE FROM {S}.words WHERE n <= 0")
        cur.execute(f"DELETE FROM {S}.passages WHERE doc_id = %s", (doc_id,))  # cascades: sentences, postings, pairs
        cur.execute(f"DELETE FROM {S}.frames WHERE doc_id = %s", (doc_id,))
        cur.execute(f"UPDATE {S}.documents SET retired = true WHERE doc_id = %s", (doc_id,))
        generation = _commit(conn, cur)
    return {"retired": doc_id, "passages": n_passages, "generation": generation}
