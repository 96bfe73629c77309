"""Finding frames for abstract sentences that report a result, and a contradiction score between two findings.

A :class:`FindingFrame` is (intervention/exposure, outcome, direction, effect measure, sentence). Direction is
relative to the outcome's polarity: reduced mortality is a benefit, an increased risk of fracture a harm, "no
significant difference" no effect, and "mixed" covers an effect on one outcome and none on another or an
uncertain answer.

Pieces: :mod:`.findings_rules` (cue lexicons, effect measures, is-it-a-result rule, hand features),
:mod:`.findings_roles` (spaCy dependency roles), the direction classifier (multinomial logistic regression over
the frozen all-MiniLM-L6-v2 sentence embedding and the hand features; weights in ``weights/direction.npz``,
trained by :mod:`.train_direction`, documented in ``weights/MODEL_CARD.md``).

Contradiction between two findings a, b (texts from different abstracts that answer one question):

* frames: D(a, b) = sum_{j,k} P_a(j) P_b(k) W[j, k] with W = 1 between distinct classes of {benefit,
  no_effect, harm}, 0.5 between "mixed" and any other class (a mixed finding half-agrees with either side),
  0 on the diagonal; multiplied by OUTCOME_MISMATCH when both outcomes are extracted and share no content word.
* combined (the default, :func:`finding_contradiction`): sigmoid(c0 + c1 * p_con_cross_encoder + c2 *
  p_con_lexical + c3 * D), coefficients fitted on the HealthVer dev combiner topics (weights/combiner.npz);
  never on a reported split. Without that file, the fixed mix 0.5 * D + 0.25 * (p_con_ce + p_con_lex).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from clinrag.tools.frames.findings_roles import outcomes_match, roles
from clinrag.tools.frames.findings_rules import DIRECTIONS, Direction, effect_measure, hand_features, is_result_sentence

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
DIRECTION_WEIGHTS = WEIGHTS_DIR / "direction.npz"
COMBINER_WEIGHTS = WEIGHTS_DIR / "combiner.npz"
# Disagreement weights between direction classes (rows/cols in DIRECTIONS order: benefit, no_effect, harm, mixed).
DISAGREEMENT = np.array([[0.0, 1.0, 1.0, 0.5],
                         [1.0, 0.0, 1.0, 0.5],
                         [1.0, 1.0, 0.0, 0.5],
                         [0.5, 0.5, 0.5, 0.0]])
# Weight of the disagreement when both outcomes are extracted and share no content word (the findings may be about
# different things). Measured on the HealthVer dev combiner topics (weights/combiner_metrics.json): frames-alone
# AUROC 0.504 at weight 0 (strict restriction), 0.544 at 0.5, 0.653 at 1 (no restriction): role extraction on
# multi-sentence snippets is too noisy, and paraphrased outcomes ("death" / "mortality") share no word, so the
# restriction is off by default; pass ``outcome_weight`` to frames_scores to apply it.
OUTCOME_MISMATCH = 1.0


class FindingFrame(BaseModel):
    intervention: str | None = None  # intervention or exposure
    outcome: str | None = None
    direction: Direction
    effect: str | None = None  # effect measure as stated: "HR 0.82 (95% CI 0.70-0.96)", "OR 1.5", "p = 0.03"
    sentence: str
    probabilities: dict[str, float] = {}  # direction classifier output, by class
    doc_id: str | None = None
    year: int | None = None


@lru_cache(maxsize=1)
def load_direction_model() -> dict[str, np.ndarray]:
    """Weights of the direction classifier: W (classes x features), b, feature mean/scale, classes."""
    with np.load(DIRECTION_WEIGHTS, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


@lru_cache(maxsize=1)
def load_combiner() -> dict[str, np.ndarray] | None:
    if not COMBINER_WEIGHTS.exists():
        return None
    with np.load(COMBINER_WEIGHTS, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def direction_features(texts: list[str], embeddings: np.ndarray | None = None) -> np.ndarray:
    """[MiniLM embedding (384) | hand features (findings_rules.HAND_FEATURES)] per text."""
    if embeddings is None:
        from clinrag.tools.index.embeddings import embed_cached

        embeddings = embed_cached(list(texts))
    hand = np.stack([hand_features(t) for t in texts]) if texts else np.zeros((0, 20), dtype=np.float32)
    return np.hstack([np.asarray(embeddings, dtype=np.float32), hand])


def softmax_direction(features: np.ndarray, model: dict[str, np.ndarray]) -> np.ndarray:
    """P(direction) = softmax(W @ ((x - mean) / scale) + b), rows in DIRECTIONS order."""
    z = ((features - model["mean"]) / model["scale"]) @ model["W"].T + model["b"]
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def direction_probs(texts: list[str], embeddings: np.ndarray | None = None) -> np.ndarray:
    """Direction probabilities, shape (len(texts), 4), columns benefit, no_effect, harm, mixed."""
    if not texts:
        return np.zeros((0, len(DIRECTIONS)))
    return softmax_direction(direction_features(texts, embeddings), load_direction_model())


def extract_findings(sentence: str, doc_id: str | None = None, year: int | None = None,
                     probs: np.ndarray | None = None) -> FindingFrame | None:
    """The finding a result sentence reports, or None when the sentence reports no result (methods, aims,
    background without a direction cue)."""
    if not is_result_sentence(sentence):
        return None
    p = direction_probs([sentence])[0] if probs is None else probs
    intervention, outcome = roles(sentence)
    return FindingFrame(intervention=intervention, outcome=outcome, direction=DIRECTIONS[int(p.argmax())],
                        effect=effect_measure(sentence), sentence=sentence,
                        probabilities={d: round(float(x), 4) for d, x in zip(DIRECTIONS, p)}, doc_id=doc_id, year=year)


def _result_outcome(text: str) -> str | None:
    """Outcome of the first result sentence of a text (a snippet may hold several sentences)."""
    from clinrag.tools.frames.findings_roles import nlp

    for sent in nlp()(text).sents:
        if is_result_sentence(sent.text):
            outcome = roles(sent.text)[1]
            if outcome:
                return outcome
    return None


def direction_disagreement(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """D = sum_jk P_a(j) P_b(k) DISAGREEMENT[j, k], row-wise for (n, 4) inputs; in [0, 1]."""
    return np.einsum("nj,jk,nk->n", np.atleast_2d(pa), DISAGREEMENT, np.atleast_2d(pb))


def frames_scores(pairs: list[tuple[str, str]], outcome_weight: float = OUTCOME_MISMATCH) -> np.ndarray:
    """Frames-alone contradiction score of each pair: direction disagreement, down-weighted by
    ``outcome_weight`` where both outcomes are extracted and do not match."""
    if not pairs:
        return np.zeros(0)
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    probs = dict(zip(texts, direction_probs(texts)))
    outcomes = {t: _result_outcome(t) for t in texts}
    d = direction_disagreement(np.stack([probs[a] for a, _ in pairs]), np.stack([probs[b] for _, b in pairs]))
    match = np.array([outcomes_match(outcomes[a], outcomes[b]) is not False for a, b in pairs])
    return d * np.where(match, 1.0, outcome_weight)


def combine(p_con_ce: np.ndarray, p_con_lex: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """Combined score from the three components (see the module docstring)."""
    combiner = load_combiner()
    if combiner is None:
        return 0.5 * frames + 0.25 * (p_con_ce + p_con_lex)
    x = np.stack([p_con_ce, p_con_lex, frames], axis=1)
    return 1.0 / (1.0 + np.exp(-(x @ combiner["coef"] + combiner["intercept"])))


def finding_contradiction_batch(pairs: list[tuple[str, str]], nli_backend: str = "cross-encoder") -> np.ndarray:
    """Combined contradiction score of each (a, b) pair of findings, in [0, 1]. The NLI components are
    symmetrised (mean of both orders): two findings have no premise/hypothesis roles."""
    if not pairs:
        return np.zeros(0)
    from clinrag.tools.nli.backends import get_nli_backend

    both = list(pairs) + [(b, a) for a, b in pairs]
    n = len(pairs)
    ce = get_nli_backend(nli_backend).predict(both)[:, 2]
    lex = get_nli_backend("lexical").predict(both)[:, 2]
    return combine((ce[:n] + ce[n:]) / 2, (lex[:n] + lex[n:]) / 2, frames_scores(list(pairs)))


def finding_contradiction(a: str, b: str, nli_backend: str = "cross-encoder") -> float:
    """Combined contradiction score of two findings (see :func:`finding_contradiction_batch`)."""
    return float(finding_contradiction_batch([(a, b)], nli_backend)[0])
