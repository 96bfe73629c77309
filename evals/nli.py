"""Measurements of an NLI backend on the biomedical evaluation sets (``clinrag nli eval``).

* SciFact dev, claim vs. gold rationale: SUPPORT vs. CONTRADICT macro-F1 (argmax of p_entailment vs.
  p_contradiction), and 3-way macro-F1 with the NEI claims (vs. their closest cited sentence).
* HealthVer test: 3-way macro-F1.
* NLI4CT Gold_test: entailment vs. contradiction macro-F1.
* Document level: for SciFact dev claims, CNT(claim, abstract) = max p_contradiction over the abstract's
  sentences; AUROC of CONTRADICT against SUPPORT abstracts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.metrics import f1_score, roc_auc_score

from clinrag.paths import data_dir
from clinrag.tools.nli.backends import NLIBackend
from clinrag.tools.nli.data import Pair, build_eval_data, label_ids, read_jsonl, scifact_corpus

Progress = Callable[[str, int, int], None]
"""Told (stage, pairs done, pairs in the stage) as a backend works through an evaluation set."""
PROGRESS_CHUNK = 256


def predict_with_progress(backend: NLIBackend, pairs: list[tuple[str, str]], stage: str,
                          progress: Progress | None = None) -> np.ndarray:
    """``backend.predict(pairs)``, in chunks when ``progress`` is given so that it can be told how far it is."""
    if progress is None:
        return backend.predict(pairs)
    progress(stage, 0, len(pairs))
    parts = []
    for start in range(0, len(pairs), PROGRESS_CHUNK):
        parts.append(backend.predict(pairs[start : start + PROGRESS_CHUNK]))
        progress(stage, min(start + PROGRESS_CHUNK, len(pairs)), len(pairs))
    return np.concatenate(parts) if parts else np.zeros((0, 3))


def two_way_f1(pairs: list[Pair], probs: np.ndarray) -> float:
    """Macro-F1 of entailment vs. contradiction on the pairs labelled with one of them."""
    keep = np.array([p.label != "neutral" for p in pairs])
    gold = label_ids(pairs)[keep]
    pred = np.where(probs[keep, 0] >= probs[keep, 2], 0, 2)
    return float(f1_score(gold, pred, average="macro", labels=[0, 2]))


def three_way_f1(pairs: list[Pair], probs: np.ndarray) -> float:
    return float(f1_score(label_ids(pairs), probs.argmax(1), average="macro", labels=[0, 1, 2]))


def document_auroc(backend: NLIBackend, root: Path, progress: Progress | None = None) -> tuple[float, int]:
    """AUROC of CNT(claim, abstract) for CONTRADICT (positive) vs. SUPPORT abstracts of SciFact dev claims."""
    corpus = scifact_corpus(str(root))
    pairs, owners, gold = [], [], []
    for claim in read_jsonl(root / "scifact" / "claims_dev.jsonl"):
        for doc_id, rationales in claim["evidence"].items():
            gold.append(int(rationales[0]["label"] == "CONTRADICT"))
            for sentence in corpus[int(doc_id)]:
                pairs.append((sentence, claim["claim"]))
                owners.append(len(gold) - 1)
    probs = predict_with_progress(backend, pairs, "scifact documents", progress)[:, 2]
    cnt = np.zeros(len(gold))
    np.maximum.at(cnt, np.array(owners), probs)
    return float(roc_auc_score(gold, cnt)), len(gold)


def evaluate_backend(backend: NLIBackend, root: Path | None = None, with_documents: bool = True,
                     progress: Progress | None = None) -> dict:
    """The metrics of the module docstring for one backend; ``progress`` is told how far each set is."""
    root = Path(root) if root else data_dir()
    sets = build_eval_data(root)
    metrics: dict = {"backend": backend.name}
    started = time.perf_counter()
    probs = {name: predict_with_progress(backend, [(p.premise, p.hypothesis) for p in pairs], name, progress)
             for name, pairs in sets.items()}
    metrics["scifact_support_vs_contradict_f1"] = round(two_way_f1(sets["scifact_dev"], probs["scifact_dev"]), 4)
    metrics["scifact_3way_f1"] = round(three_way_f1(sets["scifact_dev"], probs["scifact_dev"]), 4)
    metrics["healthver_test_3way_f1"] = round(three_way_f1(sets["healthver_test"], probs["healthver_test"]), 4)
    metrics["nli4ct_gold_f1"] = round(two_way_f1(sets["nli4ct_gold"], probs["nli4ct_gold"]), 4)
    if with_documents:
        auroc, n_docs = document_auroc(backend, root, progress)
        metrics["scifact_document_auroc"] = round(auroc, 4)
        metrics["scifact_documents"] = n_docs
    metrics["n_pairs"] = {name: len(pairs) for name, pairs in sets.items()}
    metrics["seconds"] = round(time.perf_counter() - started, 1)
    return metrics


def pair_threshold_curve(root: Path | None = None, keep: float = 0.8) -> dict:
    """Tuning the contradiction check's sentence-pair cosine threshold for this encoder on a development split
    (SciFact *train* claims, never an evaluation set): the threshold that keeps ``keep`` of the claim-rationale
    sentence pairs, and the share of the other cited sentences it keeps too (the NLI work it saves)."""
    from clinrag.tools.index.embeddings import embed_texts

    root = Path(root) if root else data_dir()
    corpus = scifact_corpus(str(root))
    claims = read_jsonl(root / "scifact" / "claims_train.jsonl")
    texts = sorted({c["claim"] for c in claims}
                   | {s for c in claims for d in c["cited_doc_ids"] for s in corpus.get(d, [])})
    vecs = dict(zip(texts, embed_texts(texts)))
    rationale, other = [], []
    for c in claims:
        marked = {(int(d), i) for d, rs in c["evidence"].items() for r in rs for i in r["sentences"]}
        for d in c["cited_doc_ids"]:
            for i, sentence in enumerate(corpus.get(d, [])):
                (rationale if (d, i) in marked else other).append(float(vecs[sentence] @ vecs[c["claim"]]))
    rationale, other = np.array(rationale), np.array(other)
    threshold = float(np.percentile(rationale, 100 * (1 - keep)))
    return {
        "threshold": round(threshold, 3), "keep_target": keep,
        "rationale_pairs_kept": round(float((rationale >= threshold).mean()), 3),
        "other_pairs_kept": round(float((other >= threshold).mean()), 3),
        "n_rationale_pairs": len(rationale), "n_other_pairs": len(other),
        "curve": {f"{t:.2f}": [round(float((rationale >= t).mean()), 3), round(float((other >= t).mean()), 3)]
                  for t in np.arange(0.3, 0.75, 0.05)},
    }
