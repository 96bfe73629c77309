"""A trained answerability score: does this passage answer this question?

Two models (trained by :mod:`clinrag.tools.retrieval.train_answerability`, card in
``answerability_weights/MODEL_CARD.md``), one factory (:func:`get_answerability_model`, closed set
:data:`clinrag.options.AnswerabilityModelName`, default :data:`ANSWERABILITY_MODEL`):

* ``cross-encoder`` (:mod:`clinrag.tools.retrieval.answerability_cross_encoder`): MiniLM reading question and
  passage text together, on ONNX Runtime. It scores at most :data:`CROSS_ENCODER_TOP_N` candidates per question
  (the first of the hybrid ranking, in one batch); the support of any other candidate stays the absolute score.
* ``mlp``: a one-hidden-layer MLP on frozen all-MiniLM-L6-v2 vectors the query path already has (every candidate
  whose support is read).

The MLP's features: the question vector ``q`` and the index's sentence vectors of the passage. For a passage with
unit sentence vectors ``s_1..s_n`` (cosines ``c_j = q . s_j``), ``b`` = the sentence closest to ``q`` and
``m`` = the normalized mean of the sentences, the features are::

    x = [q * s_b (384), q * m (384), c_b, c_second, q . m, coverage]        (772 values)
    p_answers = sigmoid(w2 . relu(W1 ((x - mu) / sigma) + b1) + b2)

``q * s`` (elementwise) lets the model learn *which* dimensions of agreement matter (the cosine is their
unweighted sum); ``coverage`` is the IDF-weighted share of the question's terms found in the passage
(:func:`clinrag.tools.retrieval.hybrid.term_coverage`). No passage-level vector is used: passage vectors embed
the document title, and in the training corpora titles leak the answer (PubMedQA titles are the questions,
MedQuAD titles name the question type).

The support score the gate reads stays absolute, in [0, 1]::

    support = w * p_answers + (1 - w) * absolute,     absolute = 0.8 * max(c_b, 0) + 0.2 * coverage

with ``w`` = :func:`source_weight` of the passage's source type (a convex combination of two values in [0, 1] is
in [0, 1]). Cost per passage of the MLP: its sentences' cosines (already computed by the index) and a 772 x 64
product; of the cross-encoder: a MiniLM forward pass over question + passage (<= 128 tokens).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from clinrag.options import ANSWERABILITY_MODELS, AnswerabilityModelName

WEIGHTS_DIR = Path(__file__).resolve().with_name("answerability_weights")
WEIGHTS_PATH = WEIGHTS_DIR / "answerability.npz"
FEATURE_DIM = 2 * 384 + 4
# Share of the trained probability in the support score of guideline (and label, leaflet, other) passages. 0 keeps
# the absolute score exactly (the model is not run for them). Chosen on the guideline-drift canonical split only
# (evals/answerability.py, the model card): it would have become the default only if canonical and holdout stayed at
# 100 % and the abstention margins did not shrink; they shrank. With the cross-encoder the rule chose 0 itself (w = 0.1
# narrows the relative gap 0.110 -> 0.071, w >= 0.2 misclassifies a canonical case).
ANSWERABILITY_WEIGHT = 0.0
# The same share for abstract passages (source_type "abstract"). An abstract that shares a question's words is not
# an answer to it (vitamin D in kidney disease for a vitamin-D-and-fractures question), which is what the model was
# trained to tell. Chosen with Context.abstract_support_threshold by `clinrag eval abstract-gate` on its calibration
# split (a leave-out PubMedQA corpus): at each weight's lowest threshold with >= 97 % abstention on unanswerable
# questions, weight 0 answers the most (0.76 of answerable calibration questions; 0.70, 0.64, 0.68, 0.58 at 0.25-1;
# with the cross-encoder 0.70, 0.64, 0.54, 0.06).
ABSTRACT_ANSWERABILITY_WEIGHT = 0.0


# The model behind p_answers. The MLP: on held-out reranking (hybrid top-50, same run) the cross-encoder trained within
# the CPU budget ranks below both the MLP and today's hybrid ranking (MedQuAD MRR@10 0.350 at top-10 vs MLP 0.511,
# hybrid 0.554; BioASQ 0.823 vs 0.887, 0.957; model card), so it stays selectable, not the default.
ANSWERABILITY_MODEL: AnswerabilityModelName = "mlp"
# Candidates per question the cross-encoder scores (the first of the hybrid ranking), in one batch. Measured (model
# card; benchmarks/query_speed.py, ONNX, 2 cores, weight 0.5 on every source type): top 5 warm p50 94.8 ms, p95 109.7
# ms, cold start +0.15 s; top 10 p50 133.8 ms, p95 153.1 ms, +0.27 s (over the 100 ms / 0.2 s goals). On held-out
# reranking it also does least harm at 5 (MedQuAD MRR@10 0.436 at 5, 0.350 at 10, 0.279 at 20).
CROSS_ENCODER_TOP_N = 5


def source_weight(source_type: str) -> float:
    """The answerability weight ``w`` for passages of one source type."""
    return ABSTRACT_ANSWERABILITY_WEIGHT if source_type == "abstract" else ANSWERABILITY_WEIGHT


def answerability_in_use() -> bool:
    """Whether the query path runs the answerability cross-encoder (the default model, a weight > 0)."""
    return ANSWERABILITY_MODEL == "cross-encoder" and max(ANSWERABILITY_WEIGHT, ABSTRACT_ANSWERABILITY_WEIGHT) > 0


class AnswerabilityModel:
    """The shipped MLP head: standardization, one ReLU layer, a logistic output (float32 numpy)."""

    def __init__(self, arrays: dict[str, np.ndarray]):
        self.mean = np.asarray(arrays["mean"], dtype=np.float32)
        self.scale = np.asarray(arrays["scale"], dtype=np.float32)
        self.w1 = np.asarray(arrays["w1"], dtype=np.float32)
        self.b1 = np.asarray(arrays["b1"], dtype=np.float32)
        self.w2 = np.asarray(arrays["w2"], dtype=np.float32).reshape(-1)
        self.b2 = float(np.asarray(arrays["b2"]).reshape(-1)[0])
        if self.w1.shape[0] != FEATURE_DIM:
            raise ValueError(f"answerability weights expect {self.w1.shape[0]} features, not {FEATURE_DIM}")

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum((np.asarray(x, dtype=np.float32) - self.mean) / self.scale @ self.w1 + self.b1, 0.0)
        return h @ self.w2 + self.b2

    def predict(self, x: np.ndarray) -> np.ndarray:
        """P(passage answers question) per row of ``x``, float64 in [0, 1]."""
        z = np.clip(self.logits(x).astype(np.float64), -40.0, 40.0)
        return 1.0 / (1.0 + np.exp(-z))


@lru_cache(maxsize=2)
def load_model(path: str | None = None) -> AnswerabilityModel:
    """The shipped weights (or ``path``), loaded once per process."""
    with np.load(path or WEIGHTS_PATH) as arrays:
        return AnswerabilityModel(dict(arrays))


def pair_features(q_vec: np.ndarray, sentence_vecs: list[np.ndarray], coverage: np.ndarray) -> np.ndarray:
    """Feature rows (see the module docstring) for one question and passages given by their sentence vectors."""
    q = np.asarray(q_vec, dtype=np.float32)
    x = np.zeros((len(sentence_vecs), FEATURE_DIM), dtype=np.float32)
    for i, s in enumerate(sentence_vecs):
        s = np.atleast_2d(np.asarray(s, dtype=np.float32))
        c = s @ q
        order = np.argsort(-c, kind="stable")
        mean = s.mean(axis=0)
        mean /= max(float(np.linalg.norm(mean)), 1e-8)
        x[i, :384] = q * s[order[0]]
        x[i, 384:768] = q * mean
        x[i, 768] = c[order[0]]
        x[i, 769] = c[order[1]] if len(order) > 1 else c[order[0]]
        x[i, 770] = mean @ q
        x[i, 771] = coverage[i]
    return x


def passage_sentence_vectors(index, rows) -> list[np.ndarray]:
    """The corpus store's sentence vectors of each passage row (the passage vector when a passage has none)."""
    return index.sentence_vectors_of(rows)


def answer_probability(index, q_vec: np.ndarray, rows, coverage: np.ndarray,
                       model: AnswerabilityModel | None = None) -> np.ndarray:
    """p_answers for passage ``rows`` of ``index`` (``coverage``: their term coverage of the question)."""
    if len(rows) == 0:
        return np.zeros(0)
    model = model or load_model()
    return model.predict(pair_features(q_vec, passage_sentence_vectors(index, rows), np.asarray(coverage)))


class MLPAnswerability:
    """``mlp``: the shipped head on the index's vectors; scores every row it is given."""

    name = "mlp"
    top_n = None

    def __init__(self, model: AnswerabilityModel | None = None):
        self.model = model or load_model()

    def probability(self, index, question: str | None, q_vec: np.ndarray, rows, coverage) -> np.ndarray:
        return answer_probability(index, q_vec, rows, coverage, self.model)


class CrossEncoderAnswerability:
    """``cross-encoder``: the shipped MiniLM cross-encoder (ONNX Runtime, or torch with CLINRAG_MODEL_RUNTIME=torch)
    on (question, passage text); callers score at most ``top_n`` candidates per question.

    ``memo`` (None by default): a dict that, when set, keeps every pair's probability for the process (the
    evaluations, which ask the same questions at several weights, set it; the query path does not)."""

    name = "cross-encoder"

    def __init__(self, top_n: int | None = None, runtime: str | None = None):
        self.top_n = CROSS_ENCODER_TOP_N if top_n is None else top_n
        self.runtime = runtime
        self.memo: dict | None = None

    def predict_pairs(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        from clinrag.tools.retrieval.answerability_cross_encoder import answers_column, load_cross_encoder

        if self.memo is None:
            return answers_column(load_cross_encoder(self.runtime).predict(pairs))
        todo = [pair for pair in dict.fromkeys(pairs) if pair not in self.memo]
        if todo:
            self.memo.update(zip(todo, answers_column(load_cross_encoder(self.runtime).predict(todo)).tolist()))
        return np.array([self.memo[pair] for pair in pairs], dtype=np.float64)

    def probability(self, index, question: str | None, q_vec: np.ndarray, rows, coverage) -> np.ndarray:
        if not question:
            raise ValueError("the answerability cross-encoder needs the question text")
        rows = [int(r) for r in rows]
        return self.predict_pairs([(question, p.text) for p in index.passages_at(rows)])


def get_answerability_model(name: AnswerabilityModelName | None = None):
    """The answerability model ``name`` (default :data:`ANSWERABILITY_MODEL`), loaded once per process. Either has
    ``name``, ``top_n`` (candidates per question it scores; None: every one) and
    ``probability(index, question, q_vec, rows, coverage) -> p_answers``."""
    name = name or ANSWERABILITY_MODEL
    if name not in ANSWERABILITY_MODELS:
        raise ValueError(f"answerability model {name!r}: expected one of {', '.join(ANSWERABILITY_MODELS)}")
    return _answerability_model(name)


@lru_cache(maxsize=4)
def _answerability_model(name: str):
    return CrossEncoderAnswerability() if name == "cross-encoder" else MLPAnswerability()


class AnswerProbabilities:
    """p_answers of one question's candidates, computed on first use and kept for the question.

    A model with a ``top_n`` scores only the first ``top_n`` rows of ``ranked`` (the hybrid ranking; by default the
    rows of the first request), all in one batch; every other row gets NaN, i.e. keeps the absolute support."""

    def __init__(self, index, question: str | None, q_vec: np.ndarray, terms: list[str], ranked=None,
                 model=None):
        self.index, self.question, self.q_vec, self.terms = index, question, q_vec, terms
        self.ranked = None if ranked is None else [int(r) for r in ranked]
        self.model = model or get_answerability_model()
        self._p: dict[int, float] = {}
        self._eligible: set[int] | None = None

    def _score(self, rows: list[int]) -> None:
        from clinrag.tools.retrieval.hybrid import term_coverage

        rows = [r for r in dict.fromkeys(rows) if r not in self._p]
        if rows:
            cov = np.array([term_coverage(self.index, self.terms, r) for r in rows], dtype=np.float64)
            self._p.update(zip(rows, self.model.probability(self.index, self.question, self.q_vec, rows, cov).tolist()))

    def of(self, rows) -> np.ndarray:
        rows = [int(r) for r in rows]
        if self.model.top_n is None:
            self._score(rows)
            return np.array([self._p[r] for r in rows], dtype=np.float64)
        if self._eligible is None:
            top = list(dict.fromkeys(self.ranked if self.ranked is not None else rows))[: self.model.top_n]
            self._eligible = set(top)
            self._score(top)
        return np.array([self._p[r] if r in self._eligible else np.nan for r in rows], dtype=np.float64)


def support_scores(index, q_vec: np.ndarray, rows, terms: list[str], sentence_cosine: np.ndarray,
                   weight: float | None = None, question: str | None = None,
                   probabilities: AnswerProbabilities | None = None) -> np.ndarray:
    """Absolute support in [0, 1] of passage ``rows`` (``sentence_cosine``: their best sentence cosine).

    ``w * p_answers + (1 - w) * absolute`` with ``w`` = ``weight`` for every row, by default each passage's
    :func:`source_weight`, ``absolute`` = :func:`clinrag.tools.retrieval.hybrid.support_score` and p_answers from
    ``probabilities`` (by default :class:`AnswerProbabilities` of the default model over ``rows`` in the order
    given); the model is run only for rows with ``w > 0``, and a row it does not score (beyond the
    cross-encoder's top-N) keeps ``absolute``.
    """
    from clinrag.tools.retrieval.hybrid import support_score, term_coverage

    rows = [int(r) for r in rows]
    if weight is None:
        w = np.array([source_weight(p.meta.source_type) for p in index.passages_at(rows)], dtype=np.float64)
    else:
        w = np.full(len(rows), float(weight))
    coverage = np.array([term_coverage(index, terms, r) for r in rows], dtype=np.float64)
    absolute = np.array([support_score(float(c), v) for c, v in zip(sentence_cosine, coverage)], dtype=np.float64)
    scored = np.flatnonzero(w > 0)
    if not len(scored):
        return absolute
    probabilities = probabilities or AnswerProbabilities(index, question, q_vec, terms, ranked=rows)
    p = probabilities.of([rows[i] for i in scored])
    keep = ~np.isnan(p)
    scored, p = scored[keep], p[keep]
    out = absolute.copy()
    out[scored] = np.clip(w[scored] * p + (1 - w[scored]) * absolute[scored], 0.0, 1.0)
    return out
