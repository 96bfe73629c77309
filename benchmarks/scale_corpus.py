"""A full-size synthetic PubMed-like corpus for benchmarks/scale.py's worker-RSS measurement (BENCHMARK ONLY).

Embedding 400k passages and ~1.7 M sentences with the real encoder would take hours on a 2-core machine, and the
RSS of a worker depends on the sizes of what it loads, not on what the vectors mean. So:

* ``write_corpus``: synthetic abstracts (``source_type`` abstract, a journal as ``org``, year, pmid, citation
  count, no topic, as PubMed records) whose sentences are drawn from a Zipf-weighted vocabulary (medical words plus
  pseudo-words), 6-16 sentences of 14-38 words each (PubMedQA's 11.5 sentences and 2.7 passages per abstract), until
  the index's own 120-word chunking gives ``n_passages`` passages.
* ``build_synthetic_index``: ``clinrag.tools.index.store.build_index`` itself (chunking, FAISS HNSW, BM25, the
  manifest, the atomic swap) with two steps replaced in this process only: the encoder by
  :class:`SyntheticEmbedder` (deterministic unit vectors from benchmarks/scale_data.py's fitted Gaussian mixture,
  drawn per call in call order from a fixed seed) and pysbd by the synthetic text's known sentence boundaries
  (every sentence ends with the only period it holds). No pair scores (abstracts; the contradiction check scores
  pairs at question time). Every file the embedded worker loads has its real size.
* ``load_postgres``: ``clinrag.tools.index.pg_load.load_corpus`` on that index (the path of
  ``clinrag index build --store postgres``), with a ``maintenance_work_mem`` large enough for the HNSW graphs.

Product defaults are untouched: the replacements are attributes patched in the benchmark's own process.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
from scale_data import Synthetic

MEDICAL = """cancer screening mammography colorectal colonoscopy aspirin statin diabetes insulin metformin hypertension
blood pressure stroke myocardial infarction heart failure atrial fibrillation anticoagulation warfarin apixaban
prostate antigen biopsy lung tomography smoking cessation vaccine influenza pneumococcal hepatitis hiv therapy
randomized trial cohort mortality incidence risk ratio confidence interval patients women men adults children
elderly pregnancy obesity exercise diet vitamin calcium osteoporosis fracture depression anxiety dementia
asthma copd antibiotic infection sepsis kidney dialysis liver cirrhosis surgery outcome adverse events placebo
dose efficacy safety guideline recommendation follow-up survival recurrence chemotherapy radiotherapy tumor""".split()
SYLLABLES = ["ab", "al", "an", "ar", "bi", "ca", "co", "de", "di", "en", "er", "fa", "ge", "hy", "in", "ka", "lo",
             "ma", "me", "mi", "ne", "no", "ol", "or", "pa", "pe", "ra", "re", "ri", "sa", "se", "ta", "ti", "to",
             "ur", "va", "ve", "xi", "zo"]
FILLER = "the of and in with was were for to a on by that this from as at is".split()
SENTENCE_END = re.compile(r"(?<=\.)\s+")


class SyntheticEmbedder:
    """BENCHMARK ONLY, never a product encoder: ``embed_texts``'s signature, returning unit float32 vectors drawn
    from the fitted Gaussian mixture of benchmarks/scale_data.py (deterministic: call ``i`` uses seed (seed, i))."""

    def __init__(self, seed: int = 0, clusters: int = 4000):
        self.mix, self.seed, self.calls = Synthetic(clusters, seed), seed, 0

    def __call__(self, texts, show_progress: bool = False, label: str = "embedding") -> np.ndarray:
        rng = np.random.default_rng([self.seed, self.calls])
        self.calls += 1
        if show_progress:
            print(f"  synthetic vectors ({label}): {len(texts):,}", flush=True)
        return self.mix.draw(len(texts), rng)[0] if len(texts) else np.zeros((0, 384), dtype=np.float32)


def synthetic_sentences(text: str) -> list[str]:
    """The sentences of synthetic text (each ends with its only period), as split_sentences returns them."""
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def _vocabulary(rng: np.random.Generator, n: int = 30_000) -> tuple[list[str], np.ndarray]:
    words = set(MEDICAL)
    while len(words) < n:
        words.add("".join(rng.choice(SYLLABLES, rng.integers(2, 5))))
    vocab = FILLER + sorted(words)
    weights = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05
    return vocab, weights / weights.sum()


def _chunks(word_counts: list[int], max_words: int = 120) -> int:
    """How many passages ``chunk_document`` makes of sentences with these word counts."""
    chunks, words = 1, 0
    for n in word_counts:
        if words and words + n > max_words:
            chunks, words = chunks + 1, 0
        words += n
    return chunks


def write_corpus(path: Path, n_passages: int, seed: int = 0) -> dict:
    """Write synthetic abstracts to ``path`` (the corpus JSONL) until they make ``n_passages`` passages."""
    rng = np.random.default_rng(seed)
    vocab, p = _vocabulary(rng)
    journals = [f"J{''.join(rng.choice(SYLLABLES, 3)).capitalize()}" for _ in range(1000)]
    jp = 1.0 / np.arange(1, 1001)
    jp /= jp.sum()
    years = np.arange(1990, 2025)
    yp = 1.05 ** (years - 1990) / (1.05 ** (years - 1990)).sum()
    passages = docs = sentences = 0
    t0 = time.perf_counter()
    with path.open("w", encoding="utf-8") as fh:
        while passages < n_passages:
            lengths = rng.integers(14, 39, rng.integers(6, 17)).tolist()
            ids = rng.choice(len(vocab), sum(lengths) + 10, p=p)
            cut = np.cumsum([0, *lengths])
            sents = [" ".join(vocab[i] for i in ids[a:b]).capitalize() + "." for a, b in zip(cut[:-1], cut[1:])]
            year = int(rng.choice(years, p=yp))
            pmid = str(10_000_000 + docs)
            doc = {"doc_id": f"pmid-{pmid}", "source_type": "abstract", "org": str(rng.choice(journals, p=jp)),
                   "title": " ".join(vocab[i] for i in ids[-10:]).capitalize(),
                   "issued": f"{year}-{int(rng.integers(1, 13)):02d}-{int(rng.integers(1, 29)):02d}",
                   "text": " ".join(sents), "pmid": pmid, "citation_count": int(rng.poisson(12))}
            fh.write(json.dumps(doc) + "\n")
            passages += _chunks(lengths)
            sentences += len(sents)
            docs += 1
    return {"documents": docs, "passages": passages, "sentences": sentences, "bytes": path.stat().st_size,
            "seconds": round(time.perf_counter() - t0, 1)}


def build_synthetic_index(corpus: Path, seed: int = 0) -> dict:
    """``build_index`` of ``corpus`` into the index root's default folder, with the synthetic encoder and sentence
    boundaries patched in (this process only); no pair scores."""
    from clinrag.tools.index import store

    store.embed_texts = SyntheticEmbedder(seed)
    store.split_sentences = synthetic_sentences
    t0 = time.perf_counter()
    index_dir = store.build_index(corpus, show_progress=True, pair_scores=False)
    sizes = {f.name: f.stat().st_size for f in index_dir.iterdir() if f.is_file()}
    return {"index_dir": str(index_dir), "seconds": round(time.perf_counter() - t0, 1), "file_bytes": sizes,
            "manifest": json.loads((index_dir / "manifest.json").read_text())}


def load_postgres(url: str, corpus: Path, maintenance_work_mem: str) -> dict:
    """The built index loaded into the database at ``url`` by ``load_corpus`` (one transaction; HNSW, GIN, btree)."""
    from clinrag.tools.index.pg_load import load_corpus

    t0 = time.perf_counter()
    out = load_corpus(url, corpus, maintenance_work_mem=maintenance_work_mem)
    return {**out, "seconds": round(out["seconds"], 1), "wall_s": round(time.perf_counter() - t0, 1)}


def database_sizes(url: str) -> dict:
    """Bytes of the corpus schema's tables and indexes (the shared server's disk, not a worker's memory)."""
    import psycopg

    from clinrag.tools.index.pg_schema import SCHEMA

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT c.relname, c.relkind, pg_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n "
                            "ON n.oid = c.relnamespace WHERE n.nspname = %s", (SCHEMA,)).fetchall()
    return {"tables_bytes": sum(b for _, k, b in rows if k in "rt"), "indexes_bytes": sum(b for _, k, b in rows
                                                                                          if k == "i"),
            "largest": sorted(((name, b) for name, _, b in rows), key=lambda r: -r[1])[:6]}
