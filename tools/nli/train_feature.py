"""Training the shipped NLI models from the data directory (``clinrag nli train``).

Training writes into the folder it is given; nothing here defaults to the packaged model folder
(``trained.MODEL_DIR``), so a training run cannot overwrite the shipped weights by accident.
:func:`new_training_dir` is the command line's default: a new folder per run under the user data directory.

Stage 1 (seconds to minutes): features of ``tools/nli/features.py`` -> an MLP (scikit-learn), class-balanced
by sample weights, early-stopped; the hidden size is chosen on the validation split (disjoint by claim /
statement / topic), never on an evaluation set. Weights are exported to a small ``.npz`` that numpy serves.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

from clinrag.tools.index.embeddings import embed_texts
from clinrag.tools.nli.data import LABELS, Pair, build_training_data, label_ids
from clinrag.tools.nli.features import pair_features
from clinrag.tools.nli.trained import FEATURE_MODEL, FeatureNLI, save_feature_model

HIDDEN_CANDIDATES = [(128,), (256,), (256, 64)]


def featurize(pairs: list[Pair], show_progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    premises, hypotheses = [p.premise for p in pairs], [p.hypothesis for p in pairs]
    u = embed_texts(premises, show_progress=show_progress, label="embedding premises")
    v = embed_texts(hypotheses, show_progress=show_progress, label="embedding hypotheses")
    return pair_features(premises, hypotheses, u, v), label_ids(pairs)


def balanced_weights(y: np.ndarray) -> np.ndarray:
    counts = np.bincount(y, minlength=3).astype(float)
    return (len(y) / (3 * counts))[y]


def fit_mlp(x: np.ndarray, y: np.ndarray, hidden: tuple[int, ...], seed: int = 13):
    from sklearn.neural_network import MLPClassifier

    mean, scale = x.mean(0), x.std(0) + 1e-6
    clf = MLPClassifier(hidden_layer_sizes=hidden, alpha=1e-3, learning_rate_init=1e-3, max_iter=200,
                        early_stopping=True, validation_fraction=0.1, n_iter_no_change=8, random_state=seed)
    clf.fit((x - mean) / scale, y, sample_weight=balanced_weights(y))
    return clf, mean, scale


def macro_f1(y: np.ndarray, probs: np.ndarray) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(y, probs.argmax(1), average="macro"))


def training_root() -> Path:
    """Where ``clinrag nli train`` writes by default: ``$XDG_DATA_HOME/clinrag/nli-training``."""
    data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data_home / "clinrag" / "nli-training"


def new_training_dir() -> Path:
    """A new folder for one training run, named by its start time (never an existing one)."""
    root = training_root()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path, n = root / stamp, 1
    while path.exists():
        n += 1
        path = root / f"{stamp}-{n}"
    return path


def train_feature_model(out_dir: Path, seed: int = 13, show_progress: bool = True) -> dict:
    """Build the data, pick the hidden size on validation, refit on train, save into ``out_dir``; returns a
    training report."""
    started = time.perf_counter()
    data = build_training_data(seed=seed)
    x_train, y_train = featurize(data["train"], show_progress)
    x_val, y_val = featurize(data["val"], show_progress)
    featurized = time.perf_counter()
    scores = {}
    best = None
    for hidden in HIDDEN_CANDIDATES:
        clf, mean, scale = fit_mlp(x_train, y_train, hidden, seed)
        model = _as_feature_model(clf, mean, scale)
        scores[str(hidden)] = round(macro_f1(y_val, model.probabilities(x_val)), 4)
        if best is None or scores[str(hidden)] > scores[str(best[0])]:
            best = (hidden, clf, mean, scale)
    hidden, clf, mean, scale = best
    out_dir.mkdir(parents=True, exist_ok=True)
    save_feature_model(out_dir / FEATURE_MODEL, mean, scale, clf.coefs_, clf.intercepts_)
    return {
        "stage": "feature-mlp",
        "hidden": list(hidden),
        "val_macro_f1_by_hidden": scores,
        "n_train": len(y_train),
        "n_val": len(y_val),
        "train_label_counts": dict(zip(LABELS, np.bincount(y_train, minlength=3).tolist())),
        "featurize_minutes": round((featurized - started) / 60, 2),
        "fit_minutes": round((time.perf_counter() - featurized) / 60, 2),
        "seed": seed,
    }


def _as_feature_model(clf, mean: np.ndarray, scale: np.ndarray) -> FeatureNLI:
    model = FeatureNLI.__new__(FeatureNLI)
    model.mean, model.scale = mean.astype(np.float32), scale.astype(np.float32)
    model.weights = [(w.astype(np.float32), b.astype(np.float32)) for w, b in zip(clf.coefs_, clf.intercepts_)]
    return model


def write_report(report: dict, out_dir: Path) -> None:
    """Merge into ``out_dir/training.json``: retraining one stage keeps the other stage's report."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "training.json"
    try:
        merged = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        merged = {}
    if "stage" in merged:  # the single-stage layout of the first release
        merged = {"feature": merged}
    merged.update(report)
    path.write_text(json.dumps(merged, indent=2))
