"""Sentence-pair NLI data built from the public biomedical datasets in the data directory.

Pairs are (premise, hypothesis, label) with label in {entailment, neutral, contradiction}; the premise is
short (rationale sentences, not whole sections), because that is what the contradiction check scores.

Training sources (never anything reported as test):
* SciFact train: claim vs. its rationale sentences (SUPPORT -> entailment, CONTRADICT -> contradiction);
  claim vs. a non-rationale sentence of a cited abstract, and NEI claims vs. the closest sentence of a
  cited abstract -> neutral.
* NLI4CT train: statement vs. the evidence lines of its trial section(s); neutral: vs. another section.
* HealthVer dev: evidence vs. claim (Supports / Refutes / Neutral), split by topic into train and
  validation (its test split is evaluation only).
* Counterfactuals (a minority, optional): SciFact SUPPORT rationales vs. the claim with its negation or
  direction flipped -> contradiction.

The stance model (``tools/nli/train_stance.py``) trains on evidence-vs-claim pairs only
(:func:`build_stance_training_data`): SciFact train, HealthVer dev outside its validation topics, and PubMedQA
PQA-L conclusions vs. their question as a claim.

Evaluation sets: SciFact dev (claim vs. gold rationale, plus NEI claims vs. their closest cited sentence),
HealthVer test, NLI4CT Gold_test.
"""

from __future__ import annotations

import csv
import json
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel

from clinrag.paths import data_dir

Label = Literal["entailment", "neutral", "contradiction"]
LABELS: tuple[Label, ...] = ("entailment", "neutral", "contradiction")
HEALTHVER_LABELS = {"Supports": "entailment", "Refutes": "contradiction", "Neutral": "neutral"}
MAX_NLI4CT_LINES = 6


class Pair(BaseModel):
    premise: str
    hypothesis: str
    label: Label
    source: str
    group: str  # claim / statement / topic id: splits never separate a group


def label_ids(pairs: list[Pair]) -> np.ndarray:
    """Class index of each pair's label, in LABELS order (what the models output)."""
    return np.array([LABELS.index(p.label) for p in pairs])


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@lru_cache(maxsize=1)
def scifact_corpus(root: str) -> dict[int, list[str]]:
    return {d["doc_id"]: d["abstract"] for d in read_jsonl(Path(root) / "scifact" / "corpus.jsonl")}


def _closest_sentence(claim: str, sentences: list[str]) -> str:
    from clinrag.tools.index.embeddings import embed_cached

    vecs = embed_cached(sentences)
    return sentences[int((vecs @ embed_cached([claim])[0]).argmax())]


def scifact_pairs(split: str, root: Path, rng: random.Random, neutral_per_claim: int = 1) -> list[Pair]:
    """Claim-level pairs of one SciFact split (train or dev)."""
    corpus = scifact_corpus(str(root))
    pairs: list[Pair] = []
    for claim in read_jsonl(root / "scifact" / f"claims_{split}.jsonl"):
        group = f"scifact:{claim['id']}"
        if not claim["evidence"]:
            sentences = [s for d in claim["cited_doc_ids"] for s in corpus.get(d, [])]
            if sentences:
                pairs.append(Pair(premise=_closest_sentence(claim["claim"], sentences), hypothesis=claim["claim"],
                                  label="neutral", source="scifact-nei", group=group))
            continue
        rationale_ids: dict[int, set[int]] = {}
        for doc_id, rationales in claim["evidence"].items():
            abstract = corpus[int(doc_id)]
            for r in rationales:
                label = "entailment" if r["label"] == "SUPPORT" else "contradiction"
                premise = " ".join(abstract[i] for i in r["sentences"])
                pairs.append(Pair(premise=premise, hypothesis=claim["claim"], label=label, source="scifact",
                                  group=group))
                rationale_ids.setdefault(int(doc_id), set()).update(r["sentences"])
        others = [corpus[d][i] for d, ids in rationale_ids.items() for i in range(len(corpus[d])) if i not in ids]
        for sentence in rng.sample(others, min(neutral_per_claim, len(others))):
            pairs.append(Pair(premise=sentence, hypothesis=claim["claim"], label="neutral", source="scifact-other",
                              group=group))
    return pairs


def _trial_section(root: Path, trial_id: str, section: str) -> list[str]:
    path = root / "nli4ct" / "CT json" / f"{trial_id}.json"
    return [line.strip() for line in json.loads(path.read_text()).get(section, []) if line.strip()]


def nli4ct_pairs(split: str, root: Path, rng: random.Random, neutrals: bool = True) -> list[Pair]:
    """Statement vs. its evidence lines (Primary, and Secondary for comparisons)."""
    sections = ["Intervention", "Eligibility", "Results", "Adverse Events"]
    name = {"train": "train.json", "dev": "dev.json", "gold": "Gold_test.json"}[split]
    pairs: list[Pair] = []
    for sid, item in json.loads((root / "nli4ct" / name).read_text()).items():
        label = item["Label"].lower()
        premise_parts = []
        for role in ("Primary", "Secondary"):
            trial = item.get(f"{role}_id")
            if not trial:
                continue
            lines = _trial_section(root, trial, item["Section_id"])
            chosen = [lines[i] for i in item.get(f"{role}_evidence_index", []) if i < len(lines)][:MAX_NLI4CT_LINES]
            prefix = f"{role} trial: " if item.get("Secondary_id") else ""
            premise_parts.append(prefix + " ".join(chosen))
        group = f"nli4ct:{sid}"
        pairs.append(Pair(premise=" ".join(premise_parts), hypothesis=item["Statement"], label=label,
                          source="nli4ct", group=group))
        if neutrals:
            other = rng.choice([s for s in sections if s != item["Section_id"]])
            lines = _trial_section(root, item["Primary_id"], other)
            if lines:
                pairs.append(Pair(premise=" ".join(rng.sample(lines, min(3, len(lines)))), hypothesis=item["Statement"],
                                  label="neutral", source="nli4ct-other", group=group))
    return pairs


def healthver_pairs(split: str, root: Path) -> list[Pair]:
    with (root / "healthver" / f"healthver_{split}.csv").open(encoding="utf-8") as fh:
        return [
            Pair(premise=row["evidence"], hypothesis=row["claim"], label=HEALTHVER_LABELS[row["label"]],
                 source="healthver", group=f"healthver:{row['topic_ip']}")
            for row in csv.DictReader(fh)
        ]


_FLIPS = [("increases", "decreases"), ("increased", "decreased"), ("increase", "decrease"), ("higher", "lower"),
          ("reduces", "increases"), ("reduced", "increased"), ("improves", "worsens"), ("more", "less"),
          ("promotes", "inhibits"), ("activates", "inhibits"), ("positively", "negatively"), ("enhances", "impairs")]
_AUX = re.compile(r"\b(is|are|was|were|can|may|does|do|did|has|have|will|could|should)\b(?! not)")


def counterfactual(claim: str) -> str | None:
    """The claim with its direction flipped or, failing that, negated (None when neither applies)."""
    words = claim.split()
    for i, w in enumerate(words):
        for a, b in _FLIPS:
            for x, y in ((a, b), (b, a)):
                if w.lower() == x:
                    return " ".join(words[:i] + [y] + words[i + 1:])
    if _AUX.search(claim):
        return _AUX.sub(lambda m: f"{m.group(1)} not", claim, count=1)
    return None


def counterfactual_pairs(pairs: list[Pair], share: float, rng: random.Random) -> list[Pair]:
    """Contradictions made from SciFact SUPPORT pairs, ``share`` of the number of real pairs at most."""
    supports = [p for p in pairs if p.source == "scifact" and p.label == "entailment"]
    out = []
    for p in supports:
        flipped = counterfactual(p.hypothesis)
        if flipped:
            out.append(Pair(premise=p.premise, hypothesis=flipped, label="contradiction", source="counterfactual",
                            group=p.group))
    rng.shuffle(out)
    return out[: int(share * len(pairs))]


def split_by_group(pairs: list[Pair], val_share: float, rng: random.Random) -> tuple[list[Pair], list[Pair]]:
    groups = sorted({p.group for p in pairs})
    rng.shuffle(groups)
    val = set(groups[: int(len(groups) * val_share)])
    return [p for p in pairs if p.group not in val], [p for p in pairs if p.group in val]


def build_training_data(root: Path | None = None, seed: int = 13, counterfactual_share: float = 0.05,
                        val_share: float = 0.15) -> dict[str, list[Pair]]:
    """{"train": [...], "val": [...]} with splits disjoint by claim / statement / HealthVer topic."""
    root = Path(root) if root else data_dir()
    rng = random.Random(seed)
    pairs = scifact_pairs("train", root, rng) + nli4ct_pairs("train", root, rng) + healthver_pairs("dev", root)
    train, val = split_by_group(pairs, val_share, rng)
    train += counterfactual_pairs(train, counterfactual_share, rng)
    return {"train": train, "val": val}


def build_eval_data(root: Path | None = None, seed: int = 13) -> dict[str, list[Pair]]:
    root = Path(root) if root else data_dir()
    rng = random.Random(seed)
    return {
        "scifact_dev": scifact_pairs("dev", root, rng, neutral_per_claim=0),
        "healthver_test": healthver_pairs("test", root),
        "nli4ct_gold": nli4ct_pairs("gold", root, rng, neutrals=False),
    }


# PubMedQA PQA-L buckets (sha1(pmid) % 5, as tools/frames/train_direction.py splits them): bucket 0 is held out
# for reporting (the direction classifier holds out the same PMIDs), bucket 1 validates the stance model, the rest
# train it.
PUBMEDQA_STANCE_LABELS = {"yes": "entailment", "no": "contradiction", "maybe": "neutral"}


def pubmedqa_stance_pairs(root: Path, buckets: set[int]) -> list[Pair]:
    """(conclusion, question as a claim) per PubMedQA PQA-L abstract: yes -> entailment, no -> contradiction,
    maybe -> neutral; the question goes through :func:`clinrag.tools.nli.stance.claim_of`, as at query time."""
    from clinrag.tools.frames.train_direction import _bucket
    from clinrag.tools.nli.stance import claim_of

    return [Pair(premise=row["long_answer"], hypothesis=claim_of(row["question"]),
                 label=PUBMEDQA_STANCE_LABELS[row["final_decision"]], source="pubmedqa",
                 group=f"pubmedqa:{row['pmid']}")
            for row in read_jsonl(root / "pubmedqa" / "pqal_corpus.jsonl")
            if _bucket(str(row["pmid"])) in buckets and row["final_decision"] in PUBMEDQA_STANCE_LABELS]


def build_stance_training_data(root: Path | None = None, seed: int = 13) -> dict[str, list[Pair]]:
    """Training and validation pairs of the stance model (evidence or conclusion vs. a claim).

    * train: SciFact train (claim vs. rationale, and neutrals), HealthVer dev outside the validation topics,
      PubMedQA PQA-L buckets 2-4.
    * val_healthver: HealthVer dev, Supports / Refutes, of the topics the NLI cross-encoder holds out for its own
      validation (:func:`build_training_data`): the topics neither model trains on, where the two can be compared.
    * val_pubmedqa: PubMedQA bucket 1, yes / no only.
    HealthVer test and PubMedQA bucket 0 are never used here: they are what ``evals/claim_pairs.py`` reports."""
    root = Path(root) if root else data_dir()
    val_topics = stance_validation_topics(root, seed)
    healthver = healthver_pairs("dev", root)
    train = (scifact_pairs("train", root, random.Random(seed)) + [p for p in healthver if p.group not in val_topics]
             + pubmedqa_stance_pairs(root, {2, 3, 4}))
    random.Random(seed).shuffle(train)
    return {"train": train,
            "val_healthver": [p for p in healthver if p.group in val_topics and p.label != "neutral"],
            "val_pubmedqa": [p for p in pubmedqa_stance_pairs(root, {1}) if p.label != "neutral"]}


def stance_validation_topics(root: Path | None = None, seed: int = 13) -> set[str]:
    """The HealthVer dev topic groups ("healthver:<topic>") in the NLI cross-encoder's validation split."""
    return {p.group for p in build_training_data(root, seed)["val"] if p.source == "healthver"}
