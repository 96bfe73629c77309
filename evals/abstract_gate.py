"""The support gate on an abstract corpus: does it answer the questions the abstracts answer, and abstain on the
ones they do not?

The guideline benchmarks cannot show this: on the PubMedQA abstracts (1,000 PQA-L abstracts) a question no abstract
answers ("Does vitamin D supplementation reduce fracture risk in older adults?") still finds abstracts that share
its words (vitamin D in kidney disease, regulatory T cells) with a best support above the threshold. This
evaluation builds a *leave-out* corpus from the PQA-L abstracts so that some questions have their abstract in the
corpus (answerable) and some do not (unanswerable, with the rest of the corpus as same-domain distractors):

* splits by PMID with the answerability model's buckets (``answerability_data.bucket``): bucket 1 (the model's
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
abstention rate on unanswerable ones, and balanced accuracy, at each weight's *abstract support threshold*
(``Context.abstract_support_threshold``). Both are chosen on calibration only: per weight, the lowest threshold at
which at least ABSTENTION_TARGET of the unanswerable questions abstain (the safety goal of the guideline
benchmarks); among those, the weight that answers the most answerable questions. The test split and the vitamin-D
question are reported with the chosen setting beside the shipped one. Each question runs once per weight; the
threshold is applied afterwards (:func:`at_threshold`), since nothing after the support gate depends on it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import statistics
from contextlib import contextmanager
from pathlib import Path

from clinrag.tools.retrieval import answerability
from clinrag.tools.retrieval import answerability_data as data

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)
VITAMIN_D = "Does vitamin D supplementation reduce fracture risk in older adults?"
SPLITS = {"calibration": 1, "test": 0}
# Share of unanswerable calibration questions that must abstain: the safety goal of the guideline benchmarks.
ABSTENTION_TARGET = 0.97
THRESHOLD_STEP = 0.005


def left_out(pmid: str) -> bool:
    """Whether an abstract of the question buckets is left out of the gate corpus (about half of them)."""
    return int(hashlib.sha1(f"gate:{pmid}".encode()).hexdigest()[:8], 16) % 2 == 0


def gate_corpus() -> tuple[Path, list[dict]]:
    """The leave-out corpus (written under the answerability cache) and its questions: one per bucket-0/1
    abstract, ``{"question", "split", "answerable", "doc_id"}``."""
    from clinrag.documents import load_documents
    from clinrag.evals.chr_data import write_corpus

    docs = load_documents(data.pubmedqa_corpus())
    kept, questions = [], []
    for doc in docs:
        pmid = doc.pmid or doc.doc_id
        split = next((name for name, b in SPLITS.items() if data.bucket(pmid) == b), None)
        if split is not None:
            questions.append({"question": doc.title, "split": split, "answerable": not left_out(pmid),
                              "doc_id": doc.doc_id})
            if left_out(pmid):
                continue
            doc = doc.model_copy(update={"title": f"PubMed {pmid}"})
        kept.append(doc)
    path = write_corpus(kept, data.cache_dir() / "corpora" / "pubmedqa_gate.jsonl")
    return path, questions


def run_split(questions: list[dict], ctx, weight: float) -> list[dict]:
    """Per question: the graph's decision with no abstract threshold (so that only the scope guard and the guideline
    rules can abstain) and the best support, with abstract passages' answerability weight ``weight``."""
    from clinrag.run import ask

    open_ctx = dataclasses.replace(ctx, abstract_support_threshold=0.0)
    rows = []
    with abstract_weight(weight):
        for q in questions:
            result = ask(q["question"], open_ctx)
            rows.append({**q, "decision": result.decision, "support": best_support(result),
                         "found_own": q["doc_id"] in {e["doc_id"] for e in result.evidence}})
    return rows


def at_threshold(rows: list[dict], threshold: float) -> list[dict]:
    """The rows as the gate decides them at ``threshold``: an answer stays an answer only if its support reaches
    it (the support gate is the graph's last abstention; nothing after it depends on the threshold)."""
    return [{**r, "decision": "answer" if r["decision"] == "answer" and r["support"] >= threshold else "abstain"}
            for r in rows]


def lowest_safe_threshold(rows: list[dict], target: float = ABSTENTION_TARGET) -> float | None:
    """The lowest threshold on the THRESHOLD_STEP grid at which at least ``target`` of the unanswerable
    questions abstain (None when none does)."""
    steps = int(round(1 / THRESHOLD_STEP))
    for i in range(steps + 1):
        t = round(i * THRESHOLD_STEP, 4)
        if summarize(at_threshold(rows, t))["abstention_rate"] >= target:
            return t
    return None


@contextmanager
def abstract_weight(weight: float):
    """Run with ``weight`` as the answerability weight of abstract passages (restored afterwards)."""
    saved = answerability.ABSTRACT_ANSWERABILITY_WEIGHT
    answerability.ABSTRACT_ANSWERABILITY_WEIGHT = weight
    try:
        yield
    finally:
        answerability.ABSTRACT_ANSWERABILITY_WEIGHT = saved


def vitamin_d_check(weight: float, threshold: float) -> dict:
    """The vitamin-D question on the shipped PubMedQA corpus with abstract passages' answerability weight ``weight``
    and support threshold ``threshold`` (and the answerability model in force)."""
    from clinrag.context import Context
    from clinrag.run import ask

    with abstract_weight(weight):
        r = ask(VITAMIN_D, Context(corpus_path=str(data.pubmedqa_corpus()), abstract_support_threshold=threshold))
    return {"decision": r.decision, "abstain_reason": r.abstain_reason, "best_support": best_support(r),
            "titles": [e["title"] for e in r.evidence][:3]}


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


def evaluate(weights=WEIGHTS, limit: int | None = None, model: str | None = None) -> dict:
    """Calibration: for each weight, the lowest threshold with calibration abstention >= ABSTENTION_TARGET; the
    chosen (weight, threshold) answers most calibration questions among those (the smaller weight on ties). Then
    the test split and the vitamin-D question on the shipped PubMedQA corpus at the chosen setting, beside the
    shipped defaults. ``model``: the answerability model behind p_answers (default ``ANSWERABILITY_MODEL``)."""
    ce = answerability.get_answerability_model("cross-encoder")
    saved_memo, ce.memo = ce.memo, {}  # each (question, passage) scored once, whatever the weight
    saved_model = answerability.ANSWERABILITY_MODEL
    answerability.ANSWERABILITY_MODEL = model or saved_model
    try:
        return _evaluate(weights, limit)
    finally:
        ce.memo, answerability.ANSWERABILITY_MODEL = saved_memo, saved_model


def _evaluate(weights, limit: int | None) -> dict:
    from tqdm.auto import tqdm

    from clinrag.context import Context
    from clinrag.documents import load_documents
    from clinrag.tools.index.store import build_index, stale_reason

    corpus, questions = gate_corpus()
    index_dir = data.cache_dir() / "indexes" / "pubmedqa_gate"
    if stale_reason(index_dir, load_documents(corpus)):
        build_index(corpus, index_dir, pair_scores=False)
    ctx = Context(corpus_path=str(corpus), index_dir=str(index_dir))
    shipped = (answerability.ABSTRACT_ANSWERABILITY_WEIGHT, ctx.abstract_support_threshold)
    by_split = {s: [q for q in questions if q["split"] == s][:limit] for s in SPLITS}
    calibration = {}
    for w in tqdm(weights, desc="calibration weights", disable=None):
        rows = run_split(by_split["calibration"], ctx, w)
        t = lowest_safe_threshold(rows)
        calibration[str(w)] = {"threshold": t, **summarize(at_threshold(rows, t if t is not None else 1.01)),
                               "at_shipped_threshold": summarize(at_threshold(rows, shipped[1])), "rows": rows}
    chosen_w = max(weights, key=lambda w: (calibration[str(w)]["answer_rate"], -w))
    chosen = (chosen_w, calibration[str(chosen_w)]["threshold"])
    test = {}
    for w, t in dict.fromkeys([shipped, chosen]):
        rows = run_split(by_split["test"], ctx, w)
        test[f"w={w} t={t}"] = {**summarize(at_threshold(rows, t)), "rows": rows}
    vitamin_d = {f"w={w} t={t}": vitamin_d_check(w, t) for w, t in dict.fromkeys([shipped, chosen])}
    return {"abstention_target": ABSTENTION_TARGET, "guideline_threshold": ctx.support_threshold,
            "model": answerability.ANSWERABILITY_MODEL,
            "shipped": {"weight": shipped[0], "threshold": shipped[1]},
            "chosen": {"weight": chosen[0], "threshold": chosen[1]},
            "calibration": calibration, "test": test, "vitamin_d": vitamin_d}


def format_report(report: dict) -> str:
    lines = [f"abstention target {report['abstention_target']}; shipped w={report['shipped']['weight']} "
             f"t={report['shipped']['threshold']}; chosen on calibration w={report['chosen']['weight']} "
             f"t={report['chosen']['threshold']}"]
    for split in ("calibration", "test"):
        for name, row in report[split].items():
            label = f"w={name} t={row['threshold']}" if split == "calibration" else name
            lines.append(f"{split:11} {label:18} answer {row['answer_rate']:.3f}"
                         f"  abstain {row['abstention_rate']:.3f}  balanced {row['balanced_accuracy']:.3f}"
                         f"  (n {row['answerable']}+{row['unanswerable']})")
    for name, row in report["vitamin_d"].items():
        lines.append(f"vitamin D   {name:18} {row['decision']} (best support {row['best_support']})")
    return "\n".join(lines)
