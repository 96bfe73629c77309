"""BM25 in PostgreSQL with the same float32 scores as the embedded store's stored bm25s weights.

The database keeps term statistics rather than weights (``postings``: tf and the passage's token count dl per
(term, passage); ``terms``: df; ``meta.bm25``: n passages and their total token count), because adding or retiring
a document changes n and the average length and with them every weight; statistics change only for the
document's own terms. The weight is bm25s's Lucene BM25 (k1 = 1.5, b = 0.75), evaluated with the same numpy types
as ``bm25s.scoring._build_scores_and_indices_for_matrix`` (idf rounded to float32, the tf part in float64, the
product rounded to float32), and a query's score sums its terms' weights in float32 in query order, repeated terms
counted each time, as :class:`~clinrag.tools.index.bm25.StoredBM25` does: the scores are equal bit for bit on a
freshly loaded corpus (tests/test_corpus_postgres.py).

Ranking (:func:`top`) runs in SQL (float8) to pick candidates, which are then re-scored here and ordered by
(-score, row), the embedded order, so a last-bit difference cannot change the top k.
"""

from __future__ import annotations

import math

import numpy as np

from clinrag.tools.index.pg_schema import SCHEMA as S


def _avgdl(stats: dict) -> np.float64:
    """bm25s's average length: numpy's mean of the token counts (an exact integer sum, divided once)."""
    return np.float64(stats["total_length"] / stats["n"]) if stats["n"] else np.float64(1.0)


def idf(df: int, n: int) -> float:
    """Lucene BM25 idf (bm25s ``_score_idf_lucene``), also the IDF of term coverage."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def weights(stats: dict, df: int, tf: np.ndarray, dl: np.ndarray) -> np.ndarray:
    """w(t, d) for one term over passages with term frequencies ``tf`` and lengths ``dl`` (float32)."""
    k1, b = stats["k1"], stats["b"]
    tf_array = np.asarray(tf, dtype=np.float32)
    tfc = tf_array / (k1 * ((1 - b) + b * np.asarray(dl, dtype=np.int64) / _avgdl(stats)) + tf_array)
    return (np.float32(idf(df, stats["n"])) * tfc).astype(np.float32)


def scores(conn, stats: dict, terms: list[str], rows: list[int]) -> np.ndarray:
    """BM25 of the query ``terms`` for passage ``rows`` (float32, aligned with ``rows``)."""
    out = np.zeros(len(rows), dtype=np.float32)
    if not terms or not rows:
        return out
    position = {r: i for i, r in enumerate(rows)}
    grouped: dict[str, tuple[int, list, list, list]] = {}
    for term, row, tf, dl, df in conn.execute(
            f"SELECT p.term, p.row, p.tf, p.dl, t.df FROM {S}.postings p JOIN {S}.terms t USING (term) "
            "WHERE p.term = ANY(%s) AND p.row = ANY(%s)", (list(dict.fromkeys(terms)), rows)):
        entry = grouped.setdefault(term, (df, [], [], []))
        entry[1].append(position[row])
        entry[2].append(tf)
        entry[3].append(dl)
    per_term = {t: (np.asarray(pos), weights(stats, df, tf, dl)) for t, (df, pos, tf, dl) in grouped.items()}
    for term in terms:
        if term in per_term:
            np.add.at(out, *per_term[term])
    return out


def top(conn, stats: dict, terms: list[str], k: int, margin: int) -> list[int]:
    """The ``k`` rows of highest BM25 with a positive score, best first, ties in row order."""
    if not terms or k <= 0:
        return []
    candidates = [r for (r,) in conn.execute(
        f"""WITH q AS (SELECT term, count(*)::float8 AS qn FROM unnest(%(terms)s::text[]) AS term GROUP BY term)
        SELECT p.row FROM {S}.postings p JOIN q USING (term) JOIN {S}.terms t USING (term)
        GROUP BY p.row
        ORDER BY sum(q.qn * ln(1 + (%(n)s::float8 - t.df + 0.5) / (t.df + 0.5)) * p.tf
                     / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.dl / %(avgdl)s))) DESC, p.row
        LIMIT %(limit)s""",
        {"terms": terms, "n": stats["n"], "k1": stats["k1"], "b": stats["b"], "avgdl": float(_avgdl(stats)),
         "limit": k + margin})]
    exact = scores(conn, stats, terms, candidates)
    order = sorted(range(len(candidates)), key=lambda i: (-exact[i], candidates[i]))
    return [candidates[i] for i in order if exact[i] > 0][:k]


def idfs(conn, stats: dict, terms) -> dict[str, float]:
    """The IDF of each of ``terms`` the corpus uses."""
    return {t: idf(df, stats["n"]) for t, df in conn.execute(f"SELECT term, df FROM {S}.terms WHERE term = ANY(%s)",
                                                             (list(terms),))}


def coverage_from(stats: dict, question_terms: list[str], rows: list[int], known: dict[str, float],
                  held: dict[int, set]) -> np.ndarray:
    """IDF-weighted share of the question's distinct terms found in each passage (the embedded store's
    ``term_coverage``, same summation order); a term the corpus never uses counts at the largest IDF.
    ``known``: IDF of the terms the corpus uses; ``held``: each row's term set."""
    terms = set(question_terms)
    out = np.zeros(len(rows), dtype=np.float64)
    if not terms or not rows:
        return out
    max_idf = math.log(1 + (stats["n"] + 0.5) / 0.5)
    total = sum(known.get(t, max_idf) for t in terms)
    for i, row in enumerate(rows):
        out[i] = sum(known[t] for t in terms if t in held.get(row, ())) / total
    return out


def coverage(conn, stats: dict, question_terms: list[str], rows: list[int]) -> np.ndarray:
    """:func:`coverage_from`, reading the IDFs and the rows' term sets."""
    if not question_terms or not rows:
        return np.zeros(len(rows), dtype=np.float64)
    held = {r: set(ts) for r, ts in conn.execute(
        f"SELECT row, tsvector_to_array(lexemes) FROM {S}.passages WHERE row = ANY(%s)", (rows,))}
    return coverage_from(stats, question_terms, rows, idfs(conn, stats, set(question_terms)), held)
