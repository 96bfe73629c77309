"""Data for benchmarks/scale.py: synthetic PubMed-like vectors and metadata, exact ground truth, real texts.

Synthetic vectors: 384-d unit vectors from a three-level Gaussian mixture (a shared direction, ``TOPICS`` topics,
``--clusters`` clusters with Zipf-skewed sizes, then per-point noise). The spreads were fitted so that 2,000
synthetic points match 2,000 real MiniLM passages (MedQuAD answers and BioASQ snippets) on the mean and spread
of random-pair cosines and the mean top-1 / top-10 neighbour cosine; the run prints both sets of statistics
(``vector_stats``) so the fit can be checked. Metadata: year 1990-2024 weighted by PubMed's ~5 %/year growth, and
an org/journal from a Zipf law over ``ORGS`` names, both drawn independently of the vector: the worst case for
filtered search (in PubMed, journal and topic are correlated, which helps post-filtering).
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import numpy as np

DIM = 384
TOPICS, SHARED_WEIGHT, TOPIC_SD, CLUSTER_SD, POINT_SD = 20, 1.5, 0.14, 0.04, 0.035  # fitted, see module docstring
ORGS, ORG_ZIPF = 1000, 1.0
YEARS = (1990, 2024)


def _unit(a: np.ndarray) -> np.ndarray:
    return a / np.maximum(np.linalg.norm(a, axis=-1, keepdims=True), 1e-12)


class Synthetic:
    """The mixture; ``draw(n, rng)`` gives (vectors float32 (n, 384), year int16 (n,), org int32 (n,))."""

    def __init__(self, clusters: int, seed: int):
        rng = np.random.default_rng(seed)
        shared = _unit(rng.standard_normal(DIM))
        topics = _unit(SHARED_WEIGHT * shared + rng.standard_normal((TOPICS, DIM)) * TOPIC_SD)
        self.centroids = _unit(topics[rng.integers(0, TOPICS, clusters)]
                               + rng.standard_normal((clusters, DIM)) * CLUSTER_SD).astype(np.float32)
        w = 1.0 / np.arange(1, clusters + 1) ** 0.7
        self.cluster_p = w / w.sum()
        years = np.arange(YEARS[0], YEARS[1] + 1)
        self.years, self.year_p = years, 1.05 ** (years - YEARS[0]) / (1.05 ** (years - YEARS[0])).sum()
        o = 1.0 / np.arange(1, ORGS + 1) ** ORG_ZIPF
        self.org_p = o / o.sum()

    def draw(self, n: int, rng: np.random.Generator, chunk: int = 50_000):
        vecs = np.empty((n, DIM), dtype=np.float32)
        for s in range(0, n, chunk):
            m = min(chunk, n - s)
            lab = rng.choice(len(self.centroids), m, p=self.cluster_p)
            noise = rng.standard_normal((m, DIM), dtype=np.float32) * np.float32(POINT_SD)
            vecs[s : s + m] = _unit(self.centroids[lab] + noise)
        year = rng.choice(self.years, n, p=self.year_p).astype(np.int16)
        org = rng.choice(ORGS, n, p=self.org_p).astype(np.int32)
        return vecs, year, org


def vector_stats(x: np.ndarray, n: int = 2000, seed: int = 0) -> dict:
    """Random-pair cosine mean/std and mean top-1 / top-10 neighbour cosine of ``n`` points of ``x``."""
    rng = np.random.default_rng(seed)
    x = x[rng.choice(len(x), min(n, len(x)), replace=False)]
    sim = x @ x.T
    np.fill_diagonal(sim, -9.0)
    pairs = sim[np.triu_indices(len(x), 1)]
    top = -np.sort(-sim, axis=1)
    return {"points": len(x), "random_pair_cos_mean": round(float(pairs.mean()), 3),
            "random_pair_cos_std": round(float(pairs.std()), 3), "top1_cos": round(float(top[:, 0].mean()), 3),
            "top10_cos": round(float(top[:, min(9, len(x) - 2)].mean()), 3)}


def exact_topk(base: np.ndarray, queries: np.ndarray, k: int, mask: np.ndarray | None = None,
               block: int = 100_000) -> np.ndarray:
    """Exact inner-product top-k row ids (numpy brute force), best first; only rows where ``mask`` when given."""
    best_s = np.full((len(queries), k), -np.inf, dtype=np.float32)
    best_i = np.full((len(queries), k), -1, dtype=np.int64)
    for s in range(0, len(base), block):
        sim = queries @ base[s : s + block].T
        if mask is not None:
            sim[:, ~mask[s : s + block]] = -np.inf
        ids = np.broadcast_to(np.arange(s, s + sim.shape[1]), sim.shape)
        all_s, all_i = np.hstack([best_s, sim]), np.hstack([best_i, ids])
        top = np.argpartition(-all_s, k - 1, axis=1)[:, :k]
        best_s, best_i = np.take_along_axis(all_s, top, 1), np.take_along_axis(all_i, top, 1)
    order = np.argsort(-best_s, axis=1)
    return np.take_along_axis(best_i, order, 1)


def recall_at_k(found: list, truth: np.ndarray) -> float:
    """Mean over queries of |found ∩ true top-k| / k (fewer than k results count as misses)."""
    k = truth.shape[1]
    return float(np.mean([len(set(map(int, f)) & set(t.tolist())) / k for f, t in zip(found, truth)]))


def latency(values_s: list[float]) -> dict:
    ms = np.asarray(values_s) * 1000.0
    return {"p50_ms": round(float(np.percentile(ms, 50)), 3), "p95_ms": round(float(np.percentile(ms, 95)), 3),
            "mean_ms": round(float(ms.mean()), 3)}


def load_average() -> list[float]:
    try:
        return [float(v) for v in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return []


class Progress:
    """Periodic progress lines for steps without a bar (every ``every`` seconds)."""

    def __init__(self, label: str, every: float = 20.0):
        self.label, self.every, self.t0, self.last = label, every, time.monotonic(), time.monotonic()

    def tick(self, message: str = "", force: bool = False):
        now = time.monotonic()
        if force or now - self.last >= self.every:
            print(f"  [{self.label} {now - self.t0:6.0f}s] {message}", flush=True)
            self.last = now


# --- real texts --------------------------------------------------------------------------------------------------

_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(])")


def _pack(text: str, max_words: int = 120) -> list[str]:
    """Whole sentences packed into chunks of at most ``max_words`` words (the index's rule; a regex splitter)."""
    chunks, cur, n = [], [], 0
    for sent in _SENT.split(" ".join(text.split())):
        w = len(sent.split())
        if cur and n + w > max_words:
            chunks.append(" ".join(cur))
            cur, n = [], 0
        cur.append(sent)
        n += w
    return chunks + ([" ".join(cur)] if cur else [])


def pubmedqa_abstracts(data_dir: Path) -> list[dict]:
    """PubMedQA's 1,000 expert-labelled abstracts: pmid, year, question, abstract (contexts + conclusion)."""
    out = []
    with (data_dir / "pubmedqa" / "pqal_corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            out.append({"pmid": r["pmid"], "year": r["year"], "question": r["question"],
                        "abstract": " ".join([*r["contexts"], r.get("long_answer") or ""]).strip()})
    return out


def real_passages(data_dir: Path, n: int, seed: int) -> tuple[list[str], list[str], dict]:
    """``n`` passage texts as clinrag embeds them ("org. title. text"): MedQuAD answers chunked to 120 words,
    PubMedQA abstracts chunked, BioASQ snippets (PubMed sentences/paragraphs); shuffled, deduplicated. Also
    a pool of real questions (MedQuAD, PubMedQA, BioASQ) for queries, and per-source counts."""
    texts: dict[str, str] = {}
    questions: list[str] = []
    with (data_dir / "medquad" / "medquad.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            questions.append(r["question"])
            for chunk in _pack(r["answer"]) if r["answer"].strip() else []:
                texts.setdefault(f"{r['source']}. {r['focus']}. {chunk}", "medquad")
    for r in pubmedqa_abstracts(data_dir):
        questions.append(r["question"])
        for chunk in _pack(r["abstract"]):
            texts.setdefault(f"PubMed. {chunk}", "pubmedqa")
    with (data_dir / "mirage" / "bioasq_snippets.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            texts.setdefault(f"PubMed. {json.loads(line)['text'].strip()}", "bioasq")
    with (data_dir / "mirage" / "bioasq_questions.jsonl").open(encoding="utf-8") as fh:
        questions += [json.loads(line)["question"] for line in fh]
    items = sorted(texts.items())
    random.Random(seed).shuffle(items)
    items = items[:n]
    counts: dict[str, int] = {}
    for _, src in items:
        counts[src] = counts.get(src, 0) + 1
    questions = sorted(set(questions))
    random.Random(seed + 1).shuffle(questions)
    return [t for t, _ in items], questions, {"available": len(texts), "used": len(items), "by_source": counts}
