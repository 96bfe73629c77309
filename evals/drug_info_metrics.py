"""Answer-vs-reference metrics of Javadi et al. (arXiv:2511.06668), per answer, macro-averaged per medicine.

* ROUGE-1, ROUGE-2, ROUGE-L: F1 from Google's ``rouge-score`` (ROUGE-1.5.5 reimplementation, Porter stemming).
* cosine: between the mean sentence embeddings of answer and reference, with the retrieval encoder
  (all-MiniLM-L6-v2). Sentences are embedded one by one because the encoder truncates at 256 word pieces and
  references (label sections) run to thousands of words.
* JSD and KLD of the two texts' word distributions (lower-cased word tokens), add-one (Laplace) smoothed over
  their joint vocabulary, in bits: JSD(P_ref, P_ans) in [0, 1] and KL(P_ref || P_ans), i.e. how badly the
  answer's word distribution covers the reference's.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from functools import lru_cache

import numpy as np
from scipy.spatial.distance import jensenshannon
from scipy.special import rel_entr

METRIC_KEYS = ("rouge1", "rouge2", "rougeL", "cosine", "jsd", "kld")
_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=1)
def _rouge():
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)


def rouge(answer: str, reference: str) -> dict[str, float]:
    scores = _rouge().score(reference, answer)
    return {k: float(v.fmeasure) for k, v in scores.items()}


def word_distributions(answer: str, reference: str, smoothing: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(P_ref, P_ans) over the joint vocabulary, add-``smoothing`` smoothed."""
    ref, ans = Counter(_WORD.findall(reference.lower())), Counter(_WORD.findall(answer.lower()))
    vocab = sorted(set(ref) | set(ans))
    if not vocab:
        return np.ones(1), np.ones(1)
    p = np.array([ref[w] + smoothing for w in vocab], dtype=np.float64)
    q = np.array([ans[w] + smoothing for w in vocab], dtype=np.float64)
    return p / p.sum(), q / q.sum()


def kl_divergence(p: np.ndarray, q: np.ndarray) -> float:
    """KL(p || q) in bits (scipy's ``rel_entr``: p * ln(p / q), elementwise)."""
    return float(rel_entr(p, q).sum() / math.log(2))


def js_divergence(p: np.ndarray, q: np.ndarray) -> float:
    """The Jensen-Shannon divergence in bits, in [0, 1]: scipy returns the distance, its square root."""
    return float(jensenshannon(p, q, base=2) ** 2)


def text_vector(text: str) -> np.ndarray:
    from clinrag.tools.index.embeddings import embed_cached
    from clinrag.tools.index.text import split_sentences

    sentences = split_sentences(text) or [text]
    vec = embed_cached(sentences).mean(axis=0)
    norm = np.linalg.norm(vec)
    return vec / norm if norm else vec


def score_answer(answer: str, reference: str) -> dict[str, float]:
    if not answer.strip():
        p, q = word_distributions("", reference)
        return {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0, "cosine": 0.0, "jsd": js_divergence(p, q),
                "kld": kl_divergence(p, q)}
    p, q = word_distributions(answer, reference)
    return {
        **rouge(answer, reference),
        "cosine": float(text_vector(answer) @ text_vector(reference)),
        "jsd": js_divergence(p, q),
        "kld": kl_divergence(p, q),
    }


def macro_average(rows: list[dict]) -> dict[str, float | int]:
    """Mean per medicine over its questions, then mean over medicines. ``rows``: {"medicine", "scores"}."""
    per_medicine: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        per_medicine[row["medicine"]].append(row["scores"])
    out: dict[str, float | int] = {}
    for key in METRIC_KEYS:
        means = [float(np.mean([s[key] for s in scores])) for scores in per_medicine.values()]
        out[key] = round(float(np.mean(means)), 4) if means else math.nan
    out["n_medicines"] = len(per_medicine)
    out["n_questions"] = len(rows)
    return out
