"""Training the answerability cross-encoder (:mod:`clinrag.tools.retrieval.answerability_cross_encoder`):
``python -m clinrag.tools.retrieval.train_answerability --model cross-encoder --budget-minutes 20``.

The same questions, splits and mined candidates as the MLP head (:mod:`.train_answerability`,
:func:`~.train_answerability.mine_candidates`), subsampled to fit the CPU budget (CE_QUESTIONS, CE_NEGATIVES,
CE_DEV_QUESTIONS), trained with the NLI cross-encoder's trainer
(:func:`clinrag.tools.nli.train_cross_encoder.train_top_layers`); the report joins the MLP's in ``training.json``.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from clinrag.tools.retrieval.train_answerability import SEED, group_mrr, mine_candidates, prepare, write_report

CE_QUESTIONS = {"medquad": 900, "pubmedqa": 450}  # training questions sampled per corpus (fits the CPU budget)
CE_NEGATIVES = 3  # per training question: a same-focus negative when mined, the rest drawn from the mined ones
CE_DEV_QUESTIONS = {"medquad": 40, "pubmedqa": 12}  # dev questions (every mined candidate) for the best epoch
# Only the top layer, the pooler and the head are trained: on a loaded 2-core machine one epoch of the top 2 layers
# over 3,000 pairs took 14 minutes (model card), one layer halves that; the higher rate suits the few epochs.
CE_FROZEN_LAYERS = 5
CE_LR = 2e-4


def passage_text(index, row: int) -> str:
    """The passage side of a cross-encoder pair: the passage text without the document title."""
    return index.passages[int(row)].text


def cross_encoder_data(seed: int = SEED, questions: dict | None = None, dev_questions: dict | None = None) -> dict:
    """Text pairs for the cross-encoder from the same questions, splits and mined candidates as the MLP.

    Train: ``questions[name]`` questions per corpus sampled from its train split; per question one positive passage
    and CE_NEGATIVES negatives (for MedQuAD one of them from another question type of the same focus when one was
    mined). Dev: ``dev_questions[name]`` dev questions with every mined candidate (positives capped at 2), rated by
    :func:`group_mrr`. BioASQ is never used."""
    data = prepare()
    rng = np.random.default_rng(seed)
    questions = questions or CE_QUESTIONS
    dev_questions = dev_questions or CE_DEV_QUESTIONS
    train, y_train, dev, y_dev, g_dev, counts = [], [], [], [], [], {}
    group = 0
    for name, (index, qs, q_vecs) in data.items():
        counts[name] = {}
        for split, wanted in (("train", questions[name]), ("dev", dev_questions[name])):
            sel = [i for i, q in enumerate(qs) if q["split"] == split]
            mined = mine_candidates(index, [qs[i] for i in sel], q_vecs[sel], rng)
            take = sorted(rng.permutation(len(sel))[:wanted].tolist())
            n_pairs = 0
            for j in take:
                q, (pos, neg) = qs[sel[j]], mined[j]
                if split == "train":
                    same_focus = _same_focus_rows([qs[i] for i in sel], q) if name == "medquad" else set()
                    hard = [r for r in neg if r in same_focus][:1]  # one same-focus negative when mined
                    others = [r for r in neg if r not in hard]
                    rows = [int(rng.choice(pos)), *hard,
                            *(int(r) for r in rng.permutation(others)[: CE_NEGATIVES - len(hard)])]
                    train += [(q["question"], passage_text(index, r)) for r in rows]
                    y_train += [1] + [0] * (len(rows) - 1)
                else:
                    rows = list(pos[:2]) + list(neg)
                    dev += [(q["question"], passage_text(index, r)) for r in rows]
                    y_dev += [1] * len(pos[:2]) + [0] * len(neg)
                    g_dev += [group] * len(rows)
                    group += 1
                n_pairs += len(rows)
            counts[name][split] = {"questions": len(take), "of": len(sel), "pairs": n_pairs}
    return {"train": train, "y_train": np.array(y_train), "dev": dev, "y_dev": np.array(y_dev),
            "g_dev": np.array(g_dev), "counts": counts}


def _same_focus_rows(questions: list[dict], q: dict) -> set[int]:
    return {r for other in questions if other["focus"] == q["focus"] and other["qtype"] != q["qtype"]
            for r in other["rows"]}


def train_cross_encoder(budget_minutes: float = 20.0, out_path: Path | None = None, seed: int = SEED,
                        questions: dict | None = None, dev_questions: dict | None = None, log=print,
                        frozen_layers: int = CE_FROZEN_LAYERS, lr: float = CE_LR) -> dict:
    """Fine-tune the answerability cross-encoder within ``budget_minutes`` (caching included; data preparation is
    reported apart) with the NLI cross-encoder's trainer; the epoch of best dev MRR is kept."""
    from clinrag.tools.nli.train_cross_encoder import train_top_layers
    from clinrag.tools.retrieval.answerability_cross_encoder import (
        CROSS_ENCODER_FILE,
        ID2LABEL,
        MAX_LENGTH,
        WEIGHTS_DIR,
    )

    out_path = out_path or WEIGHTS_DIR / CROSS_ENCODER_FILE
    t0 = time.time()
    data = cross_encoder_data(seed, questions, dev_questions)
    prepared = time.time() - t0
    log(f"pairs: train {len(data['train'])} dev {len(data['dev'])} ({prepared:.0f}s)")
    report = train_top_layers(
        data["train"], data["y_train"], data["dev"],
        lambda probs: group_mrr(probs[:, 1], data["y_dev"], data["g_dev"]),
        budget_minutes, out_path, ID2LABEL, MAX_LENGTH, seed=seed, log=log, frozen_layers=frozen_layers, lr=lr)
    best = report.pop("best_val")
    report = {"stage": "answerability-cross-encoder", "counts": data["counts"],
              "data_minutes": round(prepared / 60, 2), **report, "best_dev_mrr": best,
              "weights_bytes": out_path.stat().st_size}
    for epoch in report["epochs"]:
        epoch["dev_mrr"] = epoch.pop("val")
    write_report(out_path.parent, "cross_encoder", report)
    return report
