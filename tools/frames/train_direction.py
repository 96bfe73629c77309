"""Training the finding-direction classifier (benefit / no_effect / harm / mixed) from the data directory.

Labels (see weights/MODEL_CARD.md): the datasets give direction only relative to a claim or a question, so each
text's label is derived as follows; a text whose label cannot be derived is left out.

* SciFact claims: the rule label (findings_rules.rule_direction) of the claim text.
* SciFact rationale sentences (the cited abstract's sentences, joined per rationale): SUPPORT -> the claim's
  label. CONTRADICT -> the rationale's own rule label when it differs from the claim's and is not None (a
  contradicted "X reduces Y" is either "X did not reduce Y" or "X increased Y", and the sentence says which);
  otherwise, for a no_effect claim, the rationale's rule label if it is benefit/harm; else left out.
* HealthVer evidence snippets: Supports / Refutes exactly as SciFact SUPPORT / CONTRADICT, against the claim's
  rule label; HealthVer claims: their rule label.
* PubMedQA long answers (conclusions): final decision "maybe" -> mixed; "no" -> no_effect unless the rule
  label is benefit or harm (then the "no" answers a question framed the other way; left out); "yes" -> the rule
  label when benefit or harm, else left out.
* NLI4CT is not used: its statements compare cohorts numerically ("cohort 1 had more adverse events"), which
  has no benefit/harm reading without the trial's arms.

Splits, fixed before training (SPLITS below):
* train: SciFact train; HealthVer dev topics outside the combiner share; PubMedQA PMIDs outside the 20% hold-out.
* combiner (validation; fits the claim-pair combiner and picks C): HealthVer dev topics with
  sha1(topic) % 5 == 0.
* held-out (reported): SciFact dev; HealthVer test; PubMedQA PMIDs with sha1(pmid) % 5 == 0.

Embeddings are cached in ``$XDG_CACHE_HOME/clinrag/findings_embeddings.npz`` (sha1 of the text -> vector).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from clinrag.paths import data_dir
from clinrag.tools.frames.findings_rules import DIRECTIONS, rule_direction

SPLITS = {
    "train": "SciFact train + HealthVer dev (non-combiner topics) + PubMedQA (sha1(pmid) % 5 != 0)",
    "combiner": "HealthVer dev topics with sha1(topic) % 5 == 0",
    "scifact_dev": "SciFact dev (held out)",
    "healthver_test": "HealthVer test (held out)",
    "pubmedqa_heldout": "PubMedQA PQA-L, sha1(pmid) % 5 == 0 (held out, ~20%)",
}
C_GRID = (0.003, 0.01, 0.03, 0.1, 0.3)  # inverse L2 strength; picked on the combiner split by macro-F1


class Example(BaseModel):
    text: str
    label: str
    source: str
    split: str


def _bucket(key: str) -> int:
    """Stable 0..4 bucket of a key (sha1, not Python's salted hash): the split never depends on the run."""
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % 5


def _read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _against_claim(claim_label: str | None, evidence: str, agrees: bool) -> str | None:
    """Label of an evidence text given the claim's label and whether the evidence supports the claim."""
    if claim_label is None:
        return None
    if agrees:
        return claim_label
    own = rule_direction(evidence)
    if own is not None and own != claim_label and own != "mixed":
        return own
    return None


def scifact_examples(split: str, root: Path) -> list[Example]:
    corpus = {d["doc_id"]: d["abstract"] for d in _read_jsonl(root / "scifact" / "corpus.jsonl")}
    name = "train" if split == "train" else "scifact_dev"
    out = []
    for claim in _read_jsonl(root / "scifact" / f"claims_{split}.jsonl"):
        claim_label = rule_direction(claim["claim"])
        if claim_label is not None:
            out.append(Example(text=claim["claim"], label=claim_label, source="scifact-claim", split=name))
        for doc_id, rationales in claim["evidence"].items():
            for r in rationales:
                text = " ".join(corpus[int(doc_id)][i] for i in r["sentences"])
                label = _against_claim(claim_label, text, r["label"] == "SUPPORT")
                if label is not None:
                    out.append(Example(text=text, label=label, source="scifact-rationale", split=name))
    return out


def healthver_examples(split: str, root: Path) -> list[Example]:
    with (root / "healthver" / f"healthver_{split}.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    out, seen = [], set()
    for row in rows:
        name = "healthver_test" if split == "test" else "combiner" if _bucket(row["topic_ip"]) == 0 else "train"
        claim_label = rule_direction(row["claim"])
        if claim_label is not None and row["claim"] not in seen:
            seen.add(row["claim"])
            out.append(Example(text=row["claim"].strip(), label=claim_label, source="healthver-claim", split=name))
        if row["label"] == "Neutral":
            continue
        label = _against_claim(claim_label, row["evidence"], row["label"] == "Supports")
        if label is not None:
            out.append(Example(text=row["evidence"], label=label, source="healthver-evidence", split=name))
    return out


def pubmedqa_label(decision: str, long_answer: str) -> str | None:
    rule = rule_direction(long_answer)
    if decision == "maybe":
        return "mixed"
    if decision == "no":
        return None if rule in ("benefit", "harm") else "no_effect"
    return rule if rule in ("benefit", "harm") else None


def pubmedqa_examples(root: Path) -> list[Example]:
    out = []
    for row in _read_jsonl(root / "pubmedqa" / "pqal_corpus.jsonl"):
        label = pubmedqa_label(row["final_decision"], row["long_answer"])
        if label is not None:
            split = "pubmedqa_heldout" if _bucket(str(row["pmid"])) == 0 else "train"
            out.append(Example(text=row["long_answer"], label=label, source="pubmedqa", split=split))
    return out


def build_examples(root: Path | None = None) -> list[Example]:
    root = Path(root) if root else data_dir()
    return (scifact_examples("train", root) + scifact_examples("dev", root) + healthver_examples("dev", root)
            + healthver_examples("test", root) + pubmedqa_examples(root))


def cache_path() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "clinrag" / "findings_embeddings.npz"


def cached_embeddings(texts: list[str]) -> np.ndarray:
    """MiniLM embeddings through an on-disk cache keyed by sha1(text)."""
    from clinrag.tools.index.embeddings import embed_texts

    path = cache_path()
    store: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as z:
            store = dict(zip(z["keys"].tolist(), z["vecs"]))
    keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
    missing = list(dict.fromkeys(t for t, k in zip(texts, keys) if k not in store))
    if missing:
        for t, v in zip(missing, embed_texts(missing)):
            store[hashlib.sha1(t.encode()).hexdigest()] = v
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, keys=np.array(list(store)), vecs=np.stack(list(store.values())))
    return np.stack([store[k] for k in keys])


def macro_f1(gold: list[int] | np.ndarray, pred: np.ndarray, labels: list[int]) -> float:
    """Mean over ``labels`` of F1 = 2 TP / (2 TP + FP + FN) (a class absent from gold and pred scores 0)."""
    gold, pred = np.asarray(gold), np.asarray(pred)
    scores = []
    for c in labels:
        tp = int(((pred == c) & (gold == c)).sum())
        fp, fn = int(((pred == c) & (gold != c)).sum()), int(((pred != c) & (gold == c)).sum())
        scores.append(2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0)
    return float(np.mean(scores))


def _fit(x: np.ndarray, y: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, max_iter=2000, class_weight="balanced").fit(x, y)


def train_direction_model(out_dir: Path | None = None, root: Path | None = None) -> dict:
    """Train, pick C on the combiner split, refit on train, report macro-F1 per held-out split, write
    ``direction.npz`` and ``direction_metrics.json`` into ``out_dir`` (default: the shipped weights folder)."""
    from clinrag.tools.frames.findings import WEIGHTS_DIR, direction_features, softmax_direction

    out_dir = Path(out_dir) if out_dir else WEIGHTS_DIR
    examples = build_examples(root)
    texts = [e.text for e in examples]
    x = direction_features(texts, cached_embeddings(texts))
    y = np.array([DIRECTIONS.index(e.label) for e in examples])
    split = np.array([e.split for e in examples])
    train = split == "train"
    mean, scale = x[train].mean(0), x[train].std(0) + 1e-6
    xs = (x - mean) / scale
    val = split == "combiner"
    labels = list(range(len(DIRECTIONS)))
    by_c = {c: macro_f1(y[val], _fit(xs[train], y[train], c).predict(xs[val]), labels) for c in C_GRID}
    best_c = max(by_c, key=by_c.get)
    clf = _fit(xs[train], y[train], best_c)
    model = {"W": clf.coef_.astype(np.float32), "b": clf.intercept_.astype(np.float32),
             "mean": mean.astype(np.float32), "scale": scale.astype(np.float32), "classes": np.array(DIRECTIONS)}
    out_dir.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out_dir / "direction.npz", **model)
    pred = softmax_direction(x, model).argmax(1)
    metrics: dict = {"C": best_c, "val_macro_f1_by_C": {str(c): round(v, 4) for c, v in by_c.items()}, "splits": {}}
    for name in SPLITS:
        keep = split == name
        present = sorted(set(y[keep].tolist()))
        metrics["splits"][name] = {
            "n": int(keep.sum()),
            "label_counts": {DIRECTIONS[i]: int((y[keep] == i).sum()) for i in labels},
            "macro_f1": round(macro_f1(y[keep], pred[keep], present), 4),
            "rule_macro_f1": round(macro_f1(y[keep], _rule_pred(np.array(texts)[keep]), present), 4),
        }
    metrics["pubmedqa_gold_3way"] = pubmedqa_gold_eval(root)
    (out_dir / "direction_metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    return metrics


def _rule_pred(texts: np.ndarray) -> np.ndarray:
    """Rule labels as class ids; None counts as a wrong answer (-1)."""
    return np.array([DIRECTIONS.index(r) if (r := rule_direction(t)) else -1 for t in texts])


def pubmedqa_gold_eval(root: Path | None = None) -> dict:
    """Against PubMedQA's own final decisions on the held-out PMIDs (no derived labels): yes = an effect
    (benefit or harm predicted), no = no_effect, maybe = mixed; 3-way macro-F1 over every held-out record."""
    from clinrag.tools.frames.findings import direction_probs

    root = Path(root) if root else data_dir()
    rows = [r for r in _read_jsonl(root / "pubmedqa" / "pqal_corpus.jsonl") if _bucket(str(r["pmid"])) == 0]
    texts = [r["long_answer"] for r in rows]
    pred = direction_probs(texts, cached_embeddings(texts)).argmax(1)
    mapped = np.array([{0: 0, 2: 0, 1: 1, 3: 2}[int(p)] for p in pred])  # benefit/harm -> yes
    gold = np.array([{"yes": 0, "no": 1, "maybe": 2}[r["final_decision"]] for r in rows])
    return {"n": len(rows), "macro_f1": round(macro_f1(gold, mapped, [0, 1, 2]), 4),
            "accuracy": round(float((gold == mapped).mean()), 4)}


def fit_combiner(out_dir: Path | None = None, root: Path | None = None, nli_backend: str = "cross-encoder") -> dict:
    """Fit the claim-pair combiner sigmoid(c0 + c . [p_con_ce, p_con_lex, D]) on the HealthVer dev combiner
    topics (evidence pairs built as in evals/claim_pairs.py, never a reported split); write ``combiner.npz``.
    Inputs whose fitted weight is negative are dropped one at a time and the rest refitted.
    Also reports the frames-alone AUROC on that split for outcome-mismatch weights 0, 0.5 and 1 (the basis of
    findings.OUTCOME_MISMATCH)."""
    from sklearn.linear_model import LogisticRegression

    from clinrag.evals.claim_pairs import auroc, component_scores, healthver_claim_pairs
    from clinrag.tools.frames.findings import WEIGHTS_DIR, frames_scores

    out_dir = Path(out_dir) if out_dir else WEIGHTS_DIR
    pairs = healthver_claim_pairs("dev", root, topics="combiner", per_claim=20)  # all pairs of a small split
    labels = np.array([y for _, _, y in pairs])
    comps = component_scores(pairs, nli_backend)
    names = ["nli_cross_encoder", "nli_lexical", "frames"]
    x = np.stack([comps[n] for n in names], axis=1)
    keep = [True] * len(names)
    while True:  # a negative weight on a contradiction score is an artefact of a small fit split: drop, refit
        clf = LogisticRegression(C=1.0).fit(x[:, keep], labels)
        coef = np.zeros(len(names))
        coef[np.array(keep)] = clf.coef_[0]
        if (coef >= 0).all():
            break
        keep[int(coef.argmin())] = False
    np.savez(out_dir / "combiner.npz", coef=coef.astype(np.float32), intercept=np.float32(clf.intercept_[0]),
             inputs=np.array(names))
    ab = [(a, b) for a, b, _ in pairs]
    report = {"n_pos": int(labels.sum()), "n_neg": int((1 - labels).sum()),
              "coef": dict(zip(names, [round(float(c), 4) for c in coef])),
              "intercept": round(float(clf.intercept_[0]), 4),
              "auroc_fit_split": {k: round(auroc(v, labels), 4) for k, v in comps.items()},
              "frames_auroc_by_outcome_weight": {str(w): round(auroc(frames_scores(ab, w), labels), 4)
                                                 for w in (0.0, 0.5, 1.0)}}
    (out_dir / "combiner_metrics.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    print(json.dumps(train_direction_model(), indent=2))
    print(json.dumps(fit_combiner(), indent=2))
