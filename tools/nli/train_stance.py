"""Training the stance model (``clinrag nli train --stage stance``): a cross-encoder that reads a study's
evidence against a claim and says whether it supports it, refutes it, or neither.

Why a model of its own rather than the NLI cross-encoder: the NLI cross-encoder is trained for sentence pairs
(what the contradiction check scores between guideline sentences) with 4 of its 6 layers frozen. Stance toward
a claim is the score between two abstracts (:mod:`clinrag.tools.nli.stance`), and it needs paraphrase and
direction reading that the frozen lower layers do not give: fine-tuning all six layers on evidence-vs-claim pairs
only (SciFact, HealthVer, PubMedQA conclusions vs. their question; no NLI4CT cohort comparisons) is what moved
its held-out validation (see ``MODEL_CARD.md``).

Shape: :func:`clinrag.tools.nli.train_cross_encoder.train_top_layers` with ``frozen_layers=0`` (the embeddings
stay as shipped, every encoder layer, the pooler and a 3-way head train), lr 3e-5 (the usual rate for
fine-tuning a whole BERT-style encoder; the NLI cross-encoder's 1e-4 is for its top two layers only), max length
128 tokens (p90 of HealthVer's evidence-claim pairs is 121). Validation after each epoch, the best epoch kept:

    val = ( AUROC(p_support; HealthVer validation topics, Supports vs Refutes)
          + AUROC(p_support; PubMedQA bucket 1, yes vs no) ) / 2

with p_support = P(entailment) / (P(entailment) + P(contradiction)), the quantity the stance score uses.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from clinrag.tools.nli.cross_encoder import ID2LABEL, MAX_LENGTH, STANCE_FILE
from clinrag.tools.nli.data import build_stance_training_data, label_ids
from clinrag.tools.nli.stance import p_support

FROZEN_LAYERS = 0
LEARNING_RATE = 3e-5


def train_stance_model(budget_minutes: float, out_dir: Path, root: Path | None = None, seed: int = 13,
                       log=print) -> dict:
    """Train, keep the best epoch in ``out_dir / STANCE_FILE``, and return the training report (``clinrag nli
    train`` merges it into ``training.json`` under "stance")."""
    from clinrag.evals.claim_pairs import auroc
    from clinrag.tools.nli.train_cross_encoder import train_top_layers

    data = build_stance_training_data(root, seed)
    val = data["val_healthver"] + data["val_pubmedqa"]
    n_hv = len(data["val_healthver"])
    supports = np.array([p.label == "entailment" for p in val], dtype=int)
    parts: list[dict] = []

    def val_score(probs: np.ndarray) -> float:
        s = p_support(probs)
        hv, pq = auroc(s[:n_hv], supports[:n_hv]), auroc(s[n_hv:], supports[n_hv:])
        parts.append({"healthver_val_auroc": round(hv, 4), "pubmedqa_bucket1_auroc": round(pq, 4)})
        return (hv + pq) / 2

    report = train_top_layers(data["train"], label_ids(data["train"]), val, val_score, budget_minutes,
                              out_dir / STANCE_FILE, ID2LABEL, MAX_LENGTH, lr=LEARNING_RATE, seed=seed, log=log,
                              frozen_layers=FROZEN_LAYERS)
    for epoch, part in zip(report["epochs"], parts):
        epoch.update(part)
    sources = dict(Counter(p.source for p in data["train"]))
    return {"stage": "stance", **report, "train_sources": sources, "n_val_healthver": n_hv,
            "n_val_pubmedqa": len(data["val_pubmedqa"])}
