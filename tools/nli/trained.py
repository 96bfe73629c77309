"""The NLI models trained here (``clinrag nli train``), shipped inside the package.

* ``FeatureNLI`` (first stage): a small MLP over frozen MiniLM sentence embeddings plus linguistic features
  (``tools/nli/features.py``). Scores every candidate sentence pair cheaply; inference is plain numpy.
* ``CrossEncoderNLI`` (second stage): MiniLM as a cross-encoder whose lower layers are the shipped
  all-MiniLM-L6-v2 weights (frozen in training) and whose top layers and head were fine-tuned here; only the
  fine-tuned tensors ship. The default backend (``tools/nli/cross_encoder.py``; served on ONNX Runtime by
  ``tools/index/onnx_models.py``).
* ``TwoStageNLI``: the first stage on all pairs, the second stage on the pairs the first stage finds possibly
  contradictory, probabilities averaged there.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.nli.features import pair_features

MODEL_DIR = Path(__file__).resolve().parent / "weights"
FEATURE_MODEL = "feature_mlp.npz"


def file_digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class FeatureNLI:
    """First stage: standardized features -> ReLU hidden layers -> softmax over (ent, neu, con)."""

    name = "feature-mlp"

    def __init__(self, path: Path | str = MODEL_DIR / FEATURE_MODEL):
        self.fingerprint = f"{self.name}:{file_digest(Path(path))}"  # keys stored pair scores to these weights
        data = np.load(path)
        self.mean, self.scale = data["mean"], data["scale"]
        n_layers = int(data["n_layers"])
        self.weights = [(data[f"W{i}"], data[f"b{i}"]) for i in range(n_layers)]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        h = (features - self.mean) / self.scale
        for i, (w, b) in enumerate(self.weights):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return _softmax(h)

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros((0, 3))
        premises, hypotheses = [a for a, _ in pairs], [b for _, b in pairs]
        return self.probabilities(pair_features(premises, hypotheses, embed_cached(premises), embed_cached(hypotheses)))


def save_feature_model(path: Path, mean: np.ndarray, scale: np.ndarray, coefs: list, intercepts: list) -> None:
    arrays = {"mean": mean.astype(np.float32), "scale": scale.astype(np.float32), "n_layers": np.array(len(coefs))}
    for i, (w, b) in enumerate(zip(coefs, intercepts)):
        arrays[f"W{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


@lru_cache(maxsize=2)
def load_feature_model(path: str = str(MODEL_DIR / FEATURE_MODEL)) -> FeatureNLI:
    return FeatureNLI(path)


class TwoStageNLI:
    """First stage on every pair; the second stage re-scores the pairs the first finds possibly contradictory
    (p_contradiction >= ``gate``), probabilities averaged there.

    A gate rather than a top-n per call: each pair's score then depends on that pair only, so it can be cached
    and precomputed (``tools/nli/pair_scores.py``)."""

    def __init__(self, first, second, gate: float = 0.3):
        self.first, self.second, self.gate = first, second, gate
        self.name = f"two-stage({first.name}+{second.name}, gate {gate})"
        self.fingerprint = f"two-stage:{first.fingerprint}+{second.fingerprint}:{gate}"

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        probs = self.first.predict(pairs)
        rescore = np.flatnonzero(probs[:, 2] >= self.gate) if len(pairs) else []
        if len(rescore):
            probs[rescore] = (probs[rescore] + self.second.predict([pairs[i] for i in rescore])) / 2
        return probs
