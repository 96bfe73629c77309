"""Claims from different abstracts: does the contradiction score separate evidence that answers one question in
opposite directions from evidence that answers it the same way?

Sets (all held out from the direction classifier and the combiner; see tools/frames/train_direction.py):

* ``healthver_test`` (the headline): for each HealthVer *test* claim, pairs of evidence snippets (from different
  CORD-19 abstracts, distinct texts) cited for it: Supports-vs-Refutes = positive (one question, opposite
  answers), Supports-vs-Supports and Refutes-vs-Refutes = negative. At most PER_CLAIM positives and PER_CLAIM
  negatives per claim (fixed seed), so that a few claims with many snippets do not dominate and the
  cross-encoder run stays within minutes on a CPU.
* ``healthver_test_unseen``: the same pairs restricted to those whose two texts neither the NLI cross-encoder nor
  the stance model trained on. HealthVer's dev and test splits share most evidence texts (the same snippets judged
  against other claims; the models train on dev), so ``healthver_test`` mixes pairs of texts the models have read
  with pairs of new ones; this set is the measure for abstracts never read.
* ``scifact_dev_cross_abstract``: the construction the brief asked for on SciFact dev (rationale sentences of
  *different* cited abstracts of one claim). SciFact gives every cited abstract of a claim the same label (0
  SUPPORT-vs-CONTRADICT pairs in train and dev; test is unlabelled), so this set has negatives only and no AUROC;
  its counts are reported so that the gap is visible.
* ``scifact_dev_claim_vs_rationale``: each SciFact dev claim (a finding as a citing paper states it) against the
  rationale of a cited abstract: CONTRADICT = positive, SUPPORT = negative. Different documents, but the claim is
  not an abstract sentence and the cross-encoder was trained on this format (SciFact train), so it favours NLI.

Scores per pair: NLI alone (cross-encoder, lexical; p_contradiction, mean of both orders), frames alone
(:func:`clinrag.tools.frames.findings.frames_scores`), combined (:func:`...combine`), and, where the pair comes with
the claim both texts answer (HealthVer), **stance** (:mod:`clinrag.tools.nli.stance`: how far apart the two texts'
support for the claim is), the score the contradiction check uses between two abstracts, with the question as the
claim. AUROC by the
Mann-Whitney formula AUROC = (R_pos - n_pos (n_pos + 1) / 2) / (n_pos n_neg), R_pos the rank sum of the
positives (average ranks for ties).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import random
from pathlib import Path

import numpy as np

from clinrag.paths import data_dir

PER_CLAIM = 5
SEED = 13


def auroc(scores: np.ndarray, labels: np.ndarray) -> float | None:
    """Mann-Whitney AUROC with average ranks for ties; None without both classes."""
    scores, labels = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    n_pos, n_neg = int(labels.sum()), int((1 - labels).sum())
    if not n_pos or not n_neg:
        return None
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):  # average rank over each run of ties
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def healthver_claim_pairs(split: str, root: Path | None = None, topics: str = "all",
                          per_claim: int = PER_CLAIM, seed: int = SEED) -> list[tuple[str, str, int]]:
    """(evidence a, evidence b, 1 if opposite labels) for one HealthVer split; ``topics`` "combiner" keeps the
    dev topics of the combiner split only (train_direction.SPLITS)."""
    return [(a, b, y) for _, a, b, y in healthver_claim_pair_claims(split, root, topics, per_claim, seed)]


def healthver_claim_pair_claims(split: str, root: Path | None = None, topics: str = "all", per_claim: int = PER_CLAIM,
                                seed: int = SEED) -> list[tuple[str, str, str, int]]:
    """As :func:`healthver_claim_pairs`, each pair with the claim both texts were cited for first."""
    from clinrag.tools.frames.train_direction import _bucket

    root = Path(root) if root else data_dir()
    with (root / "healthver" / f"healthver_{split}.csv").open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["label"] != "Neutral"]
    if topics == "combiner":
        rows = [r for r in rows if _bucket(r["topic_ip"]) == 0]
    by_claim: dict[str, dict[str, list[str]]] = {}
    for r in rows:
        texts = by_claim.setdefault(r["claim"].strip(), {"Supports": [], "Refutes": []})[r["label"]]
        if r["evidence"] not in texts:
            texts.append(r["evidence"])
    rng = random.Random(seed)
    out = []
    for claim in sorted(by_claim):
        sup, ref = by_claim[claim]["Supports"], by_claim[claim]["Refutes"]
        pos = [(a, b) for a in sup for b in ref if a != b]
        neg = [(a, b) for group in (sup, ref) for a, b in itertools.combinations(group, 2) if a != b]
        for pairs, label in ((pos, 1), (neg, 0)):
            for a, b in rng.sample(pairs, min(per_claim, len(pairs))):
                out.append((claim, a, b, label))
    return out


def scifact_cross_abstract_counts(root: Path) -> dict:
    from clinrag.tools.nli.data import read_jsonl

    pos = neg = 0
    for claim in read_jsonl(root / "scifact" / "claims_dev.jsonl"):
        docs = [(rs[0]["label"], sum(len(r["sentences"]) for r in rs)) for rs in claim["evidence"].values()]
        for (la, na), (lb, nb) in itertools.combinations(docs, 2):
            pos += na * nb * (la != lb)
            neg += na * nb * (la == lb)
    return {"n_pos": pos, "n_neg": neg, "note": "SciFact labels every cited abstract of a claim alike: no positives"}


def scifact_claim_vs_rationale(root: Path) -> list[tuple[str, str, int]]:
    from clinrag.tools.nli.data import read_jsonl, scifact_corpus

    corpus = scifact_corpus(str(root))
    out = []
    for claim in read_jsonl(root / "scifact" / "claims_dev.jsonl"):
        for doc_id, rationales in claim["evidence"].items():
            for r in rationales:
                text = " ".join(corpus[int(doc_id)][i] for i in r["sentences"])
                out.append((claim["claim"], text, int(r["label"] == "CONTRADICT")))
    return out


def component_scores(pairs: list[tuple[str, str, int]], nli_backend: str = "cross-encoder") -> dict[str, np.ndarray]:
    """Per-pair scores of each component, NLI symmetrised over both orders."""
    from clinrag.tools.frames.findings import frames_scores
    from clinrag.tools.nli.backends import get_nli_backend

    ab = [(a, b) for a, b, _ in pairs]
    both = ab + [(b, a) for a, b in ab]
    n = len(ab)
    out = {}
    for name, spec in (("nli_cross_encoder", nli_backend), ("nli_lexical", "lexical")):
        p = get_nli_backend(spec).predict(both)[:, 2]
        out[name] = (p[:n] + p[n:]) / 2
    out["frames"] = frames_scores(ab)
    return out


def stance_scores(pairs: list[tuple[str, str, str, int]], backend) -> np.ndarray:
    """score(a, b) = |stance(a) - stance(b)| toward the pair's claim (:mod:`clinrag.tools.nli.stance`; the texts are
    evidence cited for the claim, so no relevance filter applies), with ``backend`` reading evidence vs. claim."""
    from clinrag.tools.nli.stance import stance_opposition, support_probabilities

    by_claim: dict[str, dict[str, None]] = {}  # claim -> its texts, in order, once each
    for claim, a, b, _ in pairs:
        by_claim.setdefault(claim, {}).update(dict.fromkeys((a, b)))
    p = {(claim, t): v for claim, texts in by_claim.items()
         for t, v in zip(texts, support_probabilities(backend, list(texts), claim))}
    return np.array([stance_opposition(p[(c, a)], p[(c, b)]) for c, a, b, _ in pairs], dtype=float)


def stance_backends(nli_backend: str) -> dict[str, object]:
    """``stance``: the model the contradiction check uses between abstracts (the stance model for the models
    trained here); ``stance_nli``: the same score with the sentence-pair NLI backend, the baseline beside it."""
    from clinrag.tools.nli.backends import get_nli_backend, get_stance_backend

    return {"stance": get_stance_backend(nli_backend), "stance_nli": get_nli_backend(nli_backend)}


def pubmedqa_yes_no(root: Path, nli_backend: str = "cross-encoder") -> dict:
    """PubMedQA PQA-L bucket 0 (sha1(pmid) % 5 == 0, held out from the stance model and the direction classifier):
    AUROC of p_support(conclusion, question as a claim) for "yes" vs "no" abstracts, per stance backend."""
    from clinrag.tools.nli.data import pubmedqa_stance_pairs
    from clinrag.tools.nli.stance import p_support

    pairs = [p for p in pubmedqa_stance_pairs(root, {0}) if p.label != "neutral"]
    labels = np.array([p.label == "entailment" for p in pairs], dtype=int)
    row: dict = {}
    for name, backend in stance_backends(nli_backend).items():
        row[name] = round(auroc(p_support(backend.predict([(p.premise, p.hypothesis) for p in pairs])), labels), 4)
    row.update(n_pos=int(labels.sum()), n_neg=int((1 - labels).sum()))
    return row


def score_table(pairs: list[tuple], nli_backend: str = "cross-encoder") -> dict:
    """AUROC of every score; ``pairs`` are (a, b, label) or, with the claim, (claim, a, b, label) (adds stance)."""
    from clinrag.tools.frames.findings import combine

    with_claim = len(pairs[0]) == 4
    plain = [p[1:] for p in pairs] if with_claim else pairs
    labels = np.array([y for _, _, y in plain])
    comps = component_scores(plain, nli_backend)
    comps["combined"] = combine(comps["nli_cross_encoder"], comps["nli_lexical"], comps["frames"])
    if with_claim:
        for name, backend in stance_backends(nli_backend).items():
            comps[name] = stance_scores(pairs, backend)
    row = {name: round(a, 4) if (a := auroc(s, labels)) is not None else None for name, s in comps.items()}
    row.update(n_pos=int(labels.sum()), n_neg=int((1 - labels).sum()))
    return row


def training_texts(root: Path | None = None) -> set[str]:
    """Every text the NLI cross-encoder or the stance model was trained on (their validation texts only chose an
    epoch). HealthVer's dev and test splits share evidence texts (the same abstract snippets judged against other
    claims), so many texts of the test pairs were read in training, with other claims."""
    from clinrag.tools.nli.data import build_stance_training_data, build_training_data

    pairs = build_training_data(root)["train"] + build_stance_training_data(root)["train"]
    return {t for p in pairs for t in (p.premise, p.hypothesis)}


def evaluate_claim_pairs(root: Path | None = None, nli_backend: str = "cross-encoder") -> dict:
    """AUROC of each score on each set, with the numbers of positive and negative pairs. ``healthver_test_unseen``
    keeps the HealthVer test pairs whose two texts neither model trained on (:func:`training_texts`): the figure for
    abstracts the models never read."""
    root = Path(root) if root else data_dir()
    pairs = healthver_claim_pair_claims("test", root)
    seen = training_texts(root)
    return {
        "healthver_test": score_table(pairs, nli_backend),
        "healthver_test_unseen": score_table([p for p in pairs if p[1] not in seen and p[2] not in seen], nli_backend),
        "scifact_dev_claim_vs_rationale": score_table(scifact_claim_vs_rationale(root), nli_backend),
        "scifact_dev_cross_abstract": scifact_cross_abstract_counts(root),
        "pubmedqa_bucket0_yes_vs_no": pubmedqa_yes_no(root, nli_backend),
    }


def format_table(result: dict) -> str:
    cols = ("nli_cross_encoder", "nli_lexical", "frames", "combined", "stance_nli", "stance")
    lines = [f"{'set':34} " + " ".join(f"{c:>17}" for c in cols) + f" {'n_pos':>6} {'n_neg':>6}"]
    for name, row in result.items():
        cells = " ".join(f"{'-' if row.get(c) is None else row[c]:>17}" for c in cols)
        lines.append(f"{name:34} {cells} {row['n_pos']:>6} {row['n_neg']:>6}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json-out", type=Path)
    parser.add_argument("--nli-backend", default="cross-encoder")
    args = parser.parse_args(argv)
    result = evaluate_claim_pairs(nli_backend=args.nli_backend)
    print(format_table(result))
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
