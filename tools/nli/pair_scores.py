"""Sentence-pair NLI scores computed once: at index time, and then at most once per process.

The contradiction check meets the same sentence pairs again and again (the corpus does not change between
questions). At index time the pairs it can meet are scored and stored with the index (``pair_scores.npz``):
cross-document sentence pairs whose cosine reaches the pair threshold, between documents of one topic, and
between each document and its ``NEIGHBOURS`` nearest documents (mean passage vector), which covers corpora
without topics such as PubMed pools. At query time :func:`score_pairs` serves stored and already seen pairs
from a bounded per-process cache and scores only the rest with the backend.

Scores are keyed by the backend's fingerprint (its name and model file digest): a retrained model never
reads another model's scores.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import numpy as np

PAIR_SCORES_FILE = "pair_scores.npz"
NEIGHBOURS = 10
# At ~90 pairs/s (cross-encoder, 2 cores) 20,000 pairs (40,000 directed scores) take ~7 minutes of index build;
# a larger corpus keeps its 20,000 most similar pairs (the rest are scored when a question meets them).
MAX_PRECOMPUTED_PAIRS = 20_000
_CACHE_MAX = 500_000

_cache: OrderedDict[tuple[str, str, str], np.ndarray] = OrderedDict()
_primed_from: set[tuple[str, str]] = set()  # (index folder, fingerprint) already loaded into the cache


def fingerprint(backend) -> str:
    return getattr(backend, "fingerprint", backend.name)


def _insert(key_prefix: str, pairs: list[tuple[str, str]], probs: np.ndarray) -> None:
    for (a, b), p in zip(pairs, probs):
        _cache[(key_prefix, a, b)] = np.asarray(p, dtype=np.float32)
    while len(_cache) > _CACHE_MAX:
        _cache.popitem(last=False)


def score_pairs(backend, pairs: list[tuple[str, str]]) -> np.ndarray:
    """(p_entailment, p_neutral, p_contradiction) per pair; only pairs never seen by this process are scored."""
    fp = fingerprint(backend)
    missing = list(dict.fromkeys(p for p in pairs if (fp, *p) not in _cache))
    fresh = dict(zip(missing, backend.predict(missing))) if missing else {}
    out = np.zeros((len(pairs), 3), dtype=np.float32)
    for i, pair in enumerate(pairs):
        if pair in fresh:
            out[i] = fresh[pair]
        else:
            out[i] = _cache[(fp, *pair)]
            _cache.move_to_end((fp, *pair))
    _insert(fp, missing, [fresh[p] for p in missing])  # after the lookups: a large call may evict its own pairs
    return out


def forget_pair_scores() -> None:
    """Empty the cache (benchmarks time the uncached path with it)."""
    _cache.clear()
    _primed_from.clear()


def primed_backend(index, spec: str, doc_ids=None):
    """The NLI backend ``spec``, with the pair scores stored with the corpus loaded into the cache: an embedded
    index loads all of them once per process; the PostgreSQL store loads those among ``doc_ids`` (the documents
    about to be compared) on every call, since its corpus can change between questions."""
    from clinrag.tools.nli.backends import get_nli_backend

    backend = get_nli_backend(spec)
    if getattr(index, "kind", "embedded") != "embedded":
        index.prime_pair_scores(backend, doc_ids)
        return backend
    key = (str(index.index_dir), fingerprint(backend))
    if key not in _primed_from:
        index.prime_pair_scores(backend, doc_ids)
        _primed_from.add(key)
    return backend


def candidate_pairs(sentences: list[str], sentence_docs: list[str], vectors: np.ndarray,
                    doc_topics: dict[str, str | None], pair_threshold: float, neighbours: int = NEIGHBOURS,
                    max_pairs: int = MAX_PRECOMPUTED_PAIRS) -> list[tuple[int, int]]:
    """Index pairs (i, j) of sentences from different related documents with cosine >= pair_threshold; at most
    ``max_pairs``, the most similar first."""
    grouped: dict[str, list[int]] = {}
    for i, d in enumerate(sentence_docs):
        grouped.setdefault(d, []).append(i)
    doc_ids = list(grouped)
    rows = {d: np.array(grouped[d]) for d in doc_ids}
    centroids = np.stack([vectors[rows[d]].mean(0) for d in doc_ids])
    centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-12)
    related = set()
    k = min(neighbours, len(doc_ids) - 1)
    for start in range(0, len(doc_ids), 1024 if k > 0 else len(doc_ids) + 1):  # blocks: no docs x docs matrix
        sim = centroids[start : start + 1024] @ centroids.T
        sim[np.arange(len(sim)), np.arange(start, start + len(sim))] = -np.inf  # not its own neighbour
        near = np.argpartition(-sim, k - 1, axis=1)[:, :k]
        related |= {tuple(sorted((doc_ids[start + r], doc_ids[j]))) for r in range(len(near)) for j in near[r]}
    by_topic: dict[str, list[str]] = {}
    for d in doc_ids:
        if doc_topics.get(d):
            by_topic.setdefault(doc_topics[d], []).append(d)
    related |= {tuple(sorted((a, b))) for group in by_topic.values() for a in group for b in group if a != b}
    out = []
    for da, db in sorted(related):
        sim = vectors[rows[da]] @ vectors[rows[db]].T
        out += [(float(sim[i, j]), int(rows[da][i]), int(rows[db][j]))
                for i, j in zip(*np.nonzero(sim >= pair_threshold))]
    if len(out) > max_pairs:
        out = sorted(out, reverse=True)[:max_pairs]
    return [(i, j) for _, i, j in out]


def precompute_pair_scores(index_dir: Path, sentences: list[str], sentence_docs: list[str], vectors: np.ndarray,
                           doc_topics: dict[str, str | None], backend, pair_threshold: float,
                           show_progress: bool = False) -> int:
    """Score both directions of every candidate pair and store them in ``index_dir``; returns the pair count."""
    from tqdm import tqdm

    idx = candidate_pairs(sentences, sentence_docs, vectors, doc_topics, pair_threshold)
    ordered = [(i, j) for i, j in idx] + [(j, i) for i, j in idx]
    texts = [(sentences[i], sentences[j]) for i, j in ordered]
    probs = np.zeros((len(texts), 3), dtype=np.float32)
    with tqdm(total=len(texts), desc="NLI pairs", unit="pair", disable=not show_progress) as bar:
        for start in range(0, len(texts), 512):
            probs[start : start + 512] = score_pairs(backend, texts[start : start + 512])
            bar.update(len(texts[start : start + 512]))
    np.savez_compressed(  # float32: fp16 would move reported scores in the 4th decimal
        index_dir / PAIR_SCORES_FILE, a=np.array([i for i, _ in ordered], dtype=np.int32),
        b=np.array([j for _, j in ordered], dtype=np.int32), probs=probs,
        fingerprint=np.array(fingerprint(backend)), pair_threshold=np.array(pair_threshold),
    )
    return len(ordered)


def load_pair_scores(index_dir: Path, sentences: list[str], backend) -> int:
    """Prime the cache from the stored scores of ``backend``; returns the number of pairs primed (0 if none)."""
    path = index_dir / PAIR_SCORES_FILE
    if not path.is_file():
        return 0
    data = np.load(path)
    if str(data["fingerprint"]) != fingerprint(backend):
        return 0
    pairs = [(sentences[i], sentences[j]) for i, j in zip(data["a"].tolist(), data["b"].tolist())]
    _insert(fingerprint(backend), pairs, data["probs"].astype(np.float32))
    return len(pairs)
