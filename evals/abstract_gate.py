"""The support gate on an abstract corpus: does it answer the questions the abstracts answer, and abstain on the
ones they do not?

The guideline benchmarks cannot show this: on the PubMedQA abstracts (1,000 PQA-L abstracts) a question no abstract
answers ("Does vitamin D supplementation reduce fracture risk in older adults?") still finds abstracts that share
its words (vitamin D in kidney disease, regulatory T cells) with a best support above the threshold. This
evaluation builds a *leave-out* corpus from the PQA-L abstracts so that some questions have their abstract in the
corpus (answerable) and some do not (unanswerable, with the rest of the corpus as same-domain distractors):

* splits by PMID with the answerability model's buckets (``train_answerability.bucket``): bucket 1 (the model's
  dev split) = **calibration**, bucket 0 (its test split) = **test**; buckets 2-9, the model's training
  abstracts, stay in the corpus only as distractors, never as questions;
* within bucket 0 and bucket 1, an abstract is *left out* of the corpus when ``sha1("gate:" + pmid)`` is even;
* the abstracts asked about keep their text but get a neutral title ``PubMed <pmid>``: a PQA-L title *is* its
  question, so a titled abstract would make its question a verbatim match; the distractors keep their titles, as
  in the shipped corpus (a title that shares the question's words is what lifts an unrelated abstract).

Each question goes through the whole graph (``clinrag.run.ask``) with the corpus; a question counts as answered
when the graph answers (any abstention counts as an abstention). Reported per split and per weight ``w`` of the
trained answerability probability in the support score of abstract passages (``support = w * p_answers +
(1 - w) * absolute``, :mod:`clinrag.tools.retrieval.answerability`): answer rate on answerable questions,
abstention rate on unanswerable ones, and balanced accuracy. The weight is chosen on calibration only, at the
graph's fixed support threshold (a threshold that means the same for every corpus); the test split and the
vitamin-D question are reported with it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
from contextlib import contextmanager
from pathlib import Path

from clinrag.tools.retrieval import answerability
from clinrag.tools.retrieval import train_answerability as ta

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)
VITAMIN_D = "Does vitamin D supplementation reduce fracture risk in older adults?"
SPLITS = {"calibration": 1, "test": 0}


def left_out(pmid: str) -> bool:
    """Whether an abstract of the question buckets is left out of the gate corpus (about half of them)."""
    return int(hashlib.sha1(f"gate:{pmid}".encode()).hexdigest()[:8], 16) % 2 == 0


def gate_corpus() -> tuple[Path, list[dict]]:
    """The leave-out corpus (written under the answerability cache) and its questions: one per bucket-0/1
    abstract, ``{"question", "split", "answerable", "doc_id"}``."""
    from clinrag.documents import load_documents
    from clinrag.evals.chr_data import write_corpus

    docs = load_documents(ta.pubmedqa_corpus())
    kept, questions = [], []
    for doc in docs:
        pmid = doc.pmid or doc.doc_id
        split = next((name for name, b in SPLITS.items() if ta.bucket(pmid) == b), None)
        if split is not None:
            questions.append({"question": doc.title, "split": split, "answerable": not left_out(pmid),
                              "doc_id": doc.doc_id})
            if left_out(pmid):
                continue
            doc = doc.model_copy(update={"title": f"PubMed {pmid}"})
        kept.append(doc)
    path = write_corpus(kept, ta.cache_dir() / "corpora" / "pubmedqa_gate.jsonl")
    return path, questions


def run_split(questions: list[dict], ctx, weight: float) -> dict:
    """Decisions of the graph on ``questions`` with abstract passages' answerability weight ``weight``."""
    from clinrag.run import ask

    rows = []
    with abstract_weight(weight):
        for q in questions:
            result = ask(q["question"], ctx)
            rows.append({**q, "decision": result.decision, "support": best_support(result),
                         "found_own": q["doc_id"] in {e["doc_id"] for e in result.evidence}})
    return {**summarize(rows), "rows": rows}


@contextmanager
def abstract_weight(weight: float):
    """Run with ``weight`` as the answerability weight of abstract passages (restored afterwards)."""
    saved = answerability.ABSTRACT_ANSWERABILITY_WEIGHT
    answerability.ABSTRACT_ANSWERABILITY_WEIGHT = weight
    try:
        yield
    finally:
        answerability.ABSTRACT_ANSWERABILITY_WEIGHT = saved


def best_support(result) -> float:
    return round(max((float(e["support_score"]) for e in result.evidence), default=0.0), 4)


def summarize(rows: list[dict]) -> dict:
    pos = [r for r in rows if r["answerable"]]
    neg = [r for r in rows if not r["answerable"]]
    answered = sum(r["decision"] == "answer" for r in pos) / max(len(pos), 1)
    abstained = sum(r["decision"] != "answer" for r in neg) / max(len(neg), 1)
    return {"answerable": len(pos), "unanswerable": len(neg), "answer_rate": round(answered, 3),
            "own_abstract_found": round(sum(r["found_own"] for r in pos) / max(len(pos), 1), 3),
            "abstention_rate": round(abstained, 3), "balanced_accuracy": round((answered + abstained) / 2, 3),
            "median_support_answerable": statistics.median([r["support"] for r in pos]) if pos else None,
            "median_support_unanswerable": statistics.median([r["support"] for r in neg]) if neg else None}


def evaluate(weights=WEIGHTS, limit: int | None = None) -> dict:
    """Calibration sweep over ``weights``, the chosen weight (best balanced accuracy on calibration, the
    smaller weight on ties), then test and the vitamin-D question on the shipped PubMedQA corpus with it."""
    from clinrag.context import Context
    from clinrag.run import ask
    from clinrag.tools.index.store import build_index, stale_reason

    corpus, questions = gate_corpus()
    index_dir = ta.cache_dir() / "indexes" / "pubmedqa_gate"
    from clinrag.documents import load_documents

    if stale_reason(index_dir, load_documents(corpus)):
        build_index(corpus, index_dir, pair_scores=False)
    ctx = Context(corpus_path=str(corpus), index_dir=str(index_dir))
    by_split = {s: [q for q in questions if q["split"] == s][:limit] for s in SPLITS}
    sweep = {w: run_split(by_split["calibration"], ctx, w) for w in weights}
    chosen = max(weights, key=lambda w: (sweep[w]["balanced_accuracy"], -w))
    report = {"threshold": ctx.support_threshold, "calibration": {str(w): sweep[w] for w in weights},
              "chosen_weight": chosen, "shipped_weight": answerability.ABSTRACT_ANSWERABILITY_WEIGHT,
              "test": {str(w): run_split(by_split["test"], ctx, w) for w in sorted({0.0, chosen})}}
    shipped = Context(corpus_path=str(ta.pubmedqa_corpus()))
    vit = {}
    for w in sorted({0.0, chosen}):
        with abstract_weight(w):
            r = ask(VITAMIN_D, shipped)
        vit[str(w)] = {"decision": r.decision, "best_support": best_support(r),
                       "titles": [e["title"] for e in r.evidence][:3]}
    report["vitamin_d"] = vit
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The support gate on a leave-out PubMedQA abstract corpus")
    parser.add_argument("--json-out", type=Path)
    parser.add_argument("--limit", type=int, help="at most this many questions per split (a quick look)")
    args = parser.parse_args(argv)
    report = evaluate(limit=args.limit)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json_out:
        args.json_out.write_text(text + "\n")


if __name__ == "__main__":
    main()
