"""``clinrag eval chr``: CHR and its baselines on MIRAGE, as a LangSmith evaluation (offline by default).

One LangSmith example per question (inputs: question, options; outputs: answer; metadata: benchmark, PMIDs).
The target runs every requested retriever on the question with one shared set of hypotheses
(:mod:`clinrag.evals.chr_pipeline`); evaluators score each retriever (``correct[chr]``, ``mimic_share_top5[chr]``...).

Metrics per retriever: accuracy of the answerer on the top K, chance (mean 1 / number of options), the share of
top-K passages closer to H- than to H+ (``mimic_share_top5``), the gold-document recall when the benchmark names
PMIDs found in the corpus, the option-hypothesis accuracy (H+ = the answer), and retrieval latency. Overlap
(the paper's analysis): among questions CHR answers correctly and the other retriever does not, the share whose
top-K lists share no passage. With ``--hypotheses oracle`` every number is an upper bound of the retrieval
mechanism, not end-to-end accuracy, and the output says so.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from clinrag.evals.chr_data import MirageQuestion
from clinrag.evals.chr_pipeline import UPPER_BOUND_LABEL, HarnessSettings, chat_model_for, run_case

CASE_NAMESPACE = uuid.UUID("3c1e0b7a-5f7d-4d0e-8c6b-0d2f6a9e4c51")
METRIC_COLUMNS = ("n", "accuracy", "chance", "mimic_share_top5", "gold_recall_top5", "hypothesis_accuracy",
                  "retrieval_ms_p50", "retrieval_ms_p95")


def example_id(q: MirageQuestion) -> uuid.UUID:
    return uuid.uuid5(CASE_NAMESPACE, f"{q.benchmark}/{q.id}")


def to_examples(questions: list[MirageQuestion]):
    from langsmith.schemas import Example

    return [
        Example(id=example_id(q), inputs={"id": q.id, "question": q.question, "options": q.options},
                outputs={"answer": q.answer},
                metadata={"benchmark": q.benchmark, "mirage_id": q.id, "pmids": q.pmids})
        for q in questions
    ]


def make_evaluators(retrievers: list[str]) -> list:
    def for_retriever(name: str):
        def correct(run, example) -> dict:
            predicted = ((run.outputs or {}).get("by_retriever", {}).get(name) or {}).get("predicted")
            score = None if predicted is None else int(predicted == example.outputs["answer"])
            return {"key": f"correct[{name}]", "score": score}

        def mimic(run, example) -> dict:
            return {"key": f"mimic_share_top5[{name}]",
                    "score": ((run.outputs or {}).get("by_retriever", {}).get(name) or {}).get("mimic_share_top5")}

        return [correct, mimic]

    return [e for name in retrievers for e in for_retriever(name)]


def run_experiment(
    questions: list[MirageQuestion], index, settings: HarnessSettings, upload: bool = False
) -> list[dict]:
    """Every question through ``langsmith.evaluate`` (offline unless ``upload``; it shows a progress bar);
    rows: question, outputs, scores."""
    from langsmith import Client, evaluate, tracing_context

    from clinrag.evals.langsmith_offline import evaluate_offline

    offline = not upload
    chat_model = chat_model_for(settings)
    by_id = {str(example_id(q)): q for q in questions}
    by_mirage_id = {q.id: q for q in questions}

    def target(inputs: dict) -> dict:
        q = by_mirage_id[inputs["id"]]
        # Offline, evaluate() still traces the target locally: the runs inside must not reach a tracer that sends.
        with tracing_context(enabled=not offline):
            return run_case(index, q, settings, chat_model)

    evaluators = make_evaluators(settings.retrievers)
    if upload:
        selected = Client().list_examples(dataset_name=upload_dataset(questions),
                                          example_ids=[example_id(q) for q in questions])
        results = evaluate(target, data=selected, evaluators=evaluators,
                           experiment_prefix=f"clinrag-chr-{settings.hypotheses}", max_concurrency=0)
        return _rows(results, by_id)
    return _rows(evaluate_offline(target, to_examples(questions), evaluators), by_id)


def _rows(results, by_id: dict) -> list[dict]:
    return [{"question": by_id[str(r["example"].id)], "outputs": r["run"].outputs or {},
             "scores": {e.key: e.score for e in r["evaluation_results"]["results"]}} for r in results]


class ChrInputs(BaseModel):
    id: str
    question: str
    options: dict[str, str]


class ChrOutputs(BaseModel):
    answer: str


def upload_dataset(questions: list[MirageQuestion], client=None) -> str:
    """Create or update the LangSmith dataset of this benchmark (schemas, stable example ids); returns its name."""
    from clinrag.evals.langsmith_upload import sync_dataset

    name = f"clinrag-chr-{questions[0].benchmark}"
    examples = [{"id": e.id, "inputs": e.inputs, "outputs": e.outputs, "metadata": e.metadata}
                for e in to_examples(questions)]
    sync_dataset(name, examples, description="MIRAGE questions for the clinrag CHR harness",
                 inputs_schema=ChrInputs.model_json_schema(), outputs_schema=ChrOutputs.model_json_schema(),
                 client=client)
    return name


def _rate(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return round(float(np.mean(values)), 4) if values else None


def summarize(rows: list[dict], retriever: str, corpus_doc_ids: set[str] | None = None) -> dict:
    cases = [(r["question"], r["outputs"]["by_retriever"][retriever], r["outputs"]["hypotheses"]) for r in rows]
    latencies = [c["retrieval_ms"] for _, c, _ in cases]
    gold = [
        int(any(f"pubmed:{p}" in c["top5_doc_ids"] for p in q.pmids)) for q, c, _ in cases
        if corpus_doc_ids is not None and any(f"pubmed:{p}" in corpus_doc_ids for p in q.pmids)
    ]
    labelled = [int(h["target_label"] == q.answer) for q, _, h in cases
                if h.get("target_label") and h["source"] != "oracle"]
    return {
        "n": len(cases),
        "accuracy": _rate([None if c["predicted"] is None else int(c["predicted"] == q.answer) for q, c, _ in cases]),
        "chance": _rate([1 / len(q.options) for q, _, _ in cases]),
        "mimic_share_top5": _rate([c["mimic_share_top5"] for _, c, _ in cases]),
        "gold_recall_top5": _rate(gold),
        "hypothesis_accuracy": _rate(labelled),
        "retrieval_ms_p50": round(float(np.percentile(latencies, 50)), 2) if latencies else None,
        "retrieval_ms_p95": round(float(np.percentile(latencies, 95)), 2) if latencies else None,
    }


def overlap(rows: list[dict], winner: str = "chr", other: str = "hyde") -> dict:
    """Among questions ``winner`` answers correctly and ``other`` does not: how many share no top-K passage."""
    wins = []
    for r in rows:
        q, by = r["question"], r["outputs"]["by_retriever"]
        if by[winner]["predicted"] == q.answer and by[other]["predicted"] != q.answer:
            wins.append((set(by[winner]["top5_passage_ids"]), set(by[other]["top5_passage_ids"]),
                         set(by[winner]["top5_doc_ids"]), set(by[other]["top5_doc_ids"])))
    return {
        "pair": f"{winner} correct, {other} wrong",
        "n": len(wins),
        "share_no_shared_passage": _rate([int(not (a & b)) for a, b, _, _ in wins]),
        "share_no_shared_document": _rate([int(not (c & d)) for _, _, c, d in wins]),
    }


def report(rows: list[dict], settings: HarnessSettings, corpus_doc_ids: set[str] | None = None) -> dict:
    metrics = {r: summarize(rows, r, corpus_doc_ids) for r in settings.retrievers}
    overlaps = [overlap(rows, "chr", o) for o in settings.retrievers if o != "chr" and "chr" in settings.retrievers]
    label = UPPER_BOUND_LABEL if settings.hypotheses == "oracle" else f"{settings.hypotheses} hypotheses"
    return {"label": label, "settings": settings.model_dump(), "metrics": metrics, "overlap": overlaps}


def markdown_table(result: dict) -> str:
    head = "| retriever | " + " | ".join(METRIC_COLUMNS) + " |"
    lines = [f"**{result['label']}**", "", head, "|" + " --- |" * (len(METRIC_COLUMNS) + 1)]
    for name, m in result["metrics"].items():
        lines.append(f"| {name} | " + " | ".join("-" if m[c] is None else str(m[c]) for c in METRIC_COLUMNS) + " |")
    for o in result["overlap"]:
        lines.append(f"\nOverlap ({o['pair']}, n = {o['n']}): share with no shared top-K passage "
                     f"{o['share_no_shared_passage']}, no shared document {o['share_no_shared_document']}")
    return "\n".join(lines)


def json_payload(rows: list[dict], result: dict) -> dict:
    """``{"metrics": {accuracy, n, mimic_share_top5, ...}, "cases": [{id, predicted, answer, top5_doc_ids}, ...]}``;
    ``metrics`` is the first retriever's, ``metrics["by_retriever"]`` has them all, each case names its retriever."""
    first = next(iter(result["metrics"]))
    cases = [
        {"id": r["question"].id, "retriever": name, "predicted": out["predicted"], "answer": r["question"].answer,
         "top5_doc_ids": out["top5_doc_ids"], "top5_passage_ids": out["top5_passage_ids"],
         "mimic_share_top5": out["mimic_share_top5"], "retrieval_ms": out["retrieval_ms"],
         "answered_by": out["answered_by"], "hypotheses": r["outputs"]["hypotheses"]}
        for r in rows for name, out in r["outputs"]["by_retriever"].items()
    ]
    metrics = {**result["metrics"][first], "retriever": first, "by_retriever": result["metrics"],
               "overlap": result["overlap"], "label": result["label"]}
    return {"metrics": metrics, "settings": result["settings"], "cases": cases}


def write_json(path: str | Path, payload: dict) -> None:
    Path(path).write_text(json.dumps(payload, indent=2))
