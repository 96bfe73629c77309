"""Training the answerability head (:mod:`clinrag.tools.retrieval.answerability`) on frozen MiniLM vectors.

``python -m clinrag.tools.retrieval.train_answerability`` (a few minutes of CPU, most of it embedding questions
once; everything is cached under ``~/.cache/clinrag/answerability``).

Data (``clinrag.paths.data_dir()``), as clinrag indexes so that training sees exactly what the query path sees
(passages of at most 120 words, sentence vectors from the index, IDF from the corpus):

* **MedQuAD**: the disease-description corpus of the CHR benchmark (``evals/chr_data.medquad_documents``:
  information / symptoms / causes answers of the answered collections, cut to 120 words); the question is the
  answer's own MedQuAD question. Positive: the passages of its answer. Negatives: the answers to the *other*
  question types of the same focus (same disease, another aspect: the hard case for a similarity score), 4 of
  the 30 passages densest to the question that are not about the same focus, and 2 random passages.
* **PubMedQA** (PQA-L, 1,000 abstracts without their conclusions, ``~/.cache/clinrag/corpora/pubmedqa.jsonl``):
  the question against its own abstract's passages (positive), 4 of the 30 densest passages of other abstracts
  and 2 random ones (negatives). PubMedQA titles *are* the questions, so the PubMedQA coverage feature is computed
  on the passage text without its title.
* **BioASQ** (MIRAGE's flattened Task 7B-11B golden files) is never trained on: its terms allow evaluation use
  only, so it serves as the out-of-domain held-out set (``evals/answerability.py``).

Splits, fixed before training: ``bucket(key) = int(sha1(key)[:8], 16) % 10``; bucket 0 is test, bucket 1 dev,
2-9 train. MedQuAD is keyed by the lowercased focus (every question type of a disease lands in one split),
PubMedQA by PMID, BioASQ by question id (test = bucket 0).

Model: standardized features, one hidden layer of 64 ReLU units, logistic output, Adam with L2 ``alpha=1e-3``
(scikit-learn ``MLPClassifier``, up to 25 epochs), kept at the epoch of best dev MRR (first positive among each dev
question's mined candidates; patience 4 epochs);
weights saved as float32 arrays (about 200 kB).

``--model cross-encoder`` trains the answerability cross-encoder instead
(:mod:`.train_answerability_cross_encoder`: the same questions, splits and mined candidates, :func:`mine_candidates`,
subsampled to fit ``--budget-minutes`` of CPU). Both reports go to ``training.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from clinrag.tools.retrieval.answerability import FEATURE_DIM, WEIGHTS_PATH, pair_features
from clinrag.tools.retrieval.answerability_data import (
    cache_dir,
    medquad_corpus,
    medquad_questions,
    pubmedqa_corpus,
    pubmedqa_questions,
    question_vectors,
    reuse_index,
)

N_DENSE_NEG = 4  # negatives drawn among the densest candidates: what a reranker of hybrid top-50 has to demote
DENSE_WINDOW = 30  # ... from this many nearest passages (wider than 4 so that near-duplicates are not all taken)
N_RANDOM_NEG = 2  # easy negatives keep the probability scale honest for unrelated passages (the gate's case)
N_SAME_FOCUS_NEG = 3  # MedQuAD: the other question types of the same disease (at most 2 exist here)
HIDDEN = 64
SEED = 13


def coverage_values(index, terms: list[str], rows, title_free: bool) -> np.ndarray:
    """IDF-weighted term coverage as the query path computes it; ``title_free``: on the passage text only."""
    from clinrag.tools.index.text import content_tokens
    from clinrag.tools.retrieval.hybrid import term_coverage

    if not title_free:
        return np.array([term_coverage(index, terms, int(r)) for r in rows])
    wanted = set(terms)
    if not wanted:
        return np.zeros(len(rows))
    total = sum(index.idf.get(t, index.max_idf) for t in wanted)
    out = []
    for r in rows:
        have = set(content_tokens(index.passages[int(r)].text))
        out.append(sum(index.idf.get(t, index.max_idf) for t in wanted & have) / total)
    return np.array(out)


def mine_candidates(index, questions: list[dict], q_vecs: np.ndarray,
                    rng: np.random.Generator) -> list[tuple[list[int], list[int]]]:
    """Per question: its positive rows and its mined negative rows (see module docstring)."""
    n = len(index.passages)
    row_focus = {}
    row_key = {}
    for q in questions:
        for r in q["rows"]:
            row_focus[r] = q["focus"]
            row_key[r] = (q["focus"], q["qtype"])
    by_focus: dict[str, list[int]] = {}
    for r, f in row_focus.items():
        by_focus.setdefault(f, []).append(r)
    sims = q_vecs @ index.vectors.T
    out = []
    for qi, q in enumerate(questions):
        pos = list(q["rows"])
        same = [r for r in by_focus.get(q["focus"], []) if r not in pos and row_key.get(r) != (q["focus"], q["qtype"])]
        same = list(rng.permutation(same))[:N_SAME_FOCUS_NEG] if same else []
        near = [int(r) for r in np.argsort(-sims[qi])[:DENSE_WINDOW] if row_focus.get(int(r)) != q["focus"]]
        near = list(rng.permutation(near))[:N_DENSE_NEG] if near else []
        rand = [int(r) for r in rng.integers(0, n, N_RANDOM_NEG * 2) if row_focus.get(int(r)) != q["focus"]]
        out.append((pos, [int(r) for r in dict.fromkeys([*same, *near, *rand[:N_RANDOM_NEG]])]))
    return out


def mine_pairs(index, questions: list[dict], q_vecs: np.ndarray, rng: np.random.Generator,
               title_free: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature rows, labels and question numbers of every (question, candidate) pair (see module docstring)."""
    from clinrag.tools.index.text import content_tokens
    from clinrag.tools.retrieval.answerability import passage_sentence_vectors

    xs, ys, groups = [], [], []
    for qi, (q, (pos, neg)) in enumerate(zip(questions, mine_candidates(index, questions, q_vecs, rng))):
        rows = pos + neg
        cov = coverage_values(index, content_tokens(q["question"]), rows, title_free)
        xs.append(pair_features(q_vecs[qi], passage_sentence_vectors(index, rows), cov))
        ys.append(np.r_[np.ones(len(pos)), np.zeros(len(neg))])
        groups.append(np.full(len(rows), qi))
    return np.vstack(xs), np.concatenate(ys), np.concatenate(groups)


def group_mrr(scores: np.ndarray, labels: np.ndarray, groups: np.ndarray) -> float:
    """Mean reciprocal rank of the first positive within each group (question)."""
    rr = []
    for g in np.unique(groups):
        m = groups == g
        order = np.argsort(-scores[m], kind="stable")
        hits = np.flatnonzero(labels[m][order] > 0)
        rr.append(1.0 / (hits[0] + 1) if len(hits) else 0.0)
    return float(np.mean(rr))


def prepare() -> dict:
    """Indexes, questions and their vectors for MedQuAD and PubMedQA (cached)."""
    from clinrag.tools.index.store import CorpusIndex

    out = {}
    for name, corpus in (("medquad", medquad_corpus()), ("pubmedqa", pubmedqa_corpus())):
        dst = reuse_index(corpus, cache_dir() / "indexes" / name)
        index = CorpusIndex.load(corpus, dst)
        questions = medquad_questions(index) if name == "medquad" else pubmedqa_questions(index)
        q_vecs = question_vectors(name, [q["question"] for q in questions])
        out[name] = (index, questions, q_vecs)
    return out


def train(out_path: Path = WEIGHTS_PATH) -> dict:
    from sklearn.neural_network import MLPClassifier

    t0 = time.time()
    data = prepare()
    rng = np.random.default_rng(SEED)
    parts = {"train": [], "dev": []}
    counts: dict[str, dict] = {}
    offset = 0
    for name, (index, questions, q_vecs) in data.items():
        for split in ("train", "dev"):
            sel = [i for i, q in enumerate(questions) if q["split"] == split]
            x, y, g = mine_pairs(index, [questions[i] for i in sel], q_vecs[sel], rng, title_free=name == "pubmedqa")
            parts[split].append((x, y, g + offset))
            offset += len(sel)
            counts.setdefault(name, {})[split] = {"questions": len(sel), "pairs": int(len(y)),
                                                  "positives": int(y.sum())}
        counts[name]["test"] = {"questions": sum(q["split"] == "test" for q in questions)}
    xtr, ytr, _ = (np.vstack([p[0] for p in parts["train"]]), np.concatenate([p[1] for p in parts["train"]]), None)
    xdv, ydv, gdv = (np.vstack([p[0] for p in parts["dev"]]), np.concatenate([p[1] for p in parts["dev"]]),
                     np.concatenate([p[2] for p in parts["dev"]]))
    print(f"pairs: train {len(ytr)} dev {len(ydv)} ({time.time() - t0:.0f}s)", flush=True)
    mean = xtr.mean(axis=0)
    scale = xtr.std(axis=0) + 1e-6
    ztr, zdv = (xtr - mean) / scale, (xdv - mean) / scale
    clf = MLPClassifier(hidden_layer_sizes=(HIDDEN,), alpha=1e-3, batch_size=256, learning_rate_init=1e-3,
                        random_state=SEED)
    best, best_state, history = -1.0, None, []
    for epoch in range(25):
        clf.partial_fit(ztr, ytr, classes=[0, 1])
        dev = group_mrr(clf.predict_proba(zdv)[:, 1], ydv, gdv)
        history.append(round(dev, 4))
        if dev > best:
            best, best_state = dev, ([w.copy() for w in clf.coefs_], [b.copy() for b in clf.intercepts_], epoch)
        elif epoch - best_state[2] >= 4:
            break
    coefs, intercepts, best_epoch = best_state
    baseline = group_mrr(xdv[:, 768], ydv, gdv)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out_path, mean=mean.astype(np.float32), scale=scale.astype(np.float32),
             w1=coefs[0].astype(np.float32), b1=intercepts[0].astype(np.float32),
             w2=coefs[1].astype(np.float32), b2=intercepts[1].astype(np.float32))
    report = {"counts": counts, "dev_mrr_history": history, "best_epoch": best_epoch, "dev_mrr": round(best, 4),
              "dev_mrr_best_sentence_cosine": round(baseline, 4), "feature_dim": FEATURE_DIM, "hidden": HIDDEN,
              "seconds": round(time.time() - t0), "weights_bytes": out_path.stat().st_size}
    write_report(out_path.parent, "mlp", report)
    return report


def write_report(folder: Path, model: str, report: dict) -> None:
    """``training.json`` in ``folder`` holds one report per model (``mlp``, ``cross_encoder``)."""
    path = folder / "training.json"
    existing = json.loads(path.read_text()) if path.is_file() else {}
    if "counts" in existing:  # the MLP's report, written before there were two models
        existing = {"mlp": existing}
    existing[model] = report
    path.write_text(json.dumps(existing, indent=2) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("mlp", "cross-encoder"), default="mlp")
    parser.add_argument("--out", type=Path, help="weights file (default: the shipped one of --model)")
    parser.add_argument("--budget-minutes", type=float, default=20.0,
                        help="cross-encoder: CPU minutes for caching and training (data preparation apart)")
    parser.add_argument("--frozen-layers", type=int, help="cross-encoder: frozen layers (default CE_FROZEN_LAYERS)")
    parser.add_argument("--lr", type=float, help="cross-encoder: AdamW learning rate (default CE_LR)")
    args = parser.parse_args(argv)
    if args.model == "cross-encoder":
        from clinrag.tools.retrieval.train_answerability_cross_encoder import (
            CE_FROZEN_LAYERS,
            CE_LR,
            train_cross_encoder,
        )

        args.frozen_layers = CE_FROZEN_LAYERS if args.frozen_layers is None else args.frozen_layers
        args.lr = CE_LR if args.lr is None else args.lr
        print(json.dumps(train_cross_encoder(args.budget_minutes, args.out, frozen_layers=args.frozen_layers,
                                             lr=args.lr, log=lambda m: print(m, flush=True)), indent=2))
    else:
        print(json.dumps(train(args.out or WEIGHTS_PATH), indent=2))


if __name__ == "__main__":
    main()
