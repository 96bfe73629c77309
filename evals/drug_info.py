"""The drug-information benchmark (TGA-style): six consumer questions per medicine, answered from PubMed abstracts.

The dataset is built at run time, in LangSmith example format, from the product information in the data
directory (:mod:`clinrag.evals.product_info`; never committed)::

    {"id": uuid5(product|question key), "inputs": {"question", "medicine", "question_key"},
     "outputs": {"reference"}, "metadata": {"product", "source", "jurisdiction", "ground_truth_doc_id", "sections"}}

Each question is answered from the evidence corpus (PubMed abstracts only: the PubMedQA corpus by default)
under one retrieval condition (:mod:`clinrag.tools.retrieval.retrieval_conditions`). Labels and leaflets are excluded
from the evidence by source type, and the ground-truth document by id, so the answer key is never its own evidence.
Without a chat model the answer is extractive: the retrieved abstracts' sentences most similar to the question
(``EXTRACTIVE_SENTENCES`` of them, in order of similarity). With one, the chat model answers from the abstracts.
Scores (:mod:`clinrag.evals.drug_info_metrics`) are macro-averaged per medicine.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import numpy as np

from clinrag.context import Context
from clinrag.evals.drug_info_metrics import METRIC_KEYS, macro_average, score_answer
from clinrag.evals.product_info import ProductInfo, load_product_info
from clinrag.pubmed.queries import CONSUMER_QUESTIONS
from clinrag.schema import EvidenceItem

CASE_NAMESPACE = uuid.UUID("0c3f6d2e-4d7b-4f7e-9a51-7d2f3b9e4c21")
DATASET_NAME = "clinrag-drug-info"
EXTRACTIVE_SENTENCES = 3
EVIDENCE_EXCLUDED_TYPES = frozenset({"label", "leaflet"})


def build_examples(products: list[ProductInfo]) -> list[dict]:
    """LangSmith-format examples: one per (medicine, question) that has ground truth."""
    examples = []
    for p in products:
        for q in CONSUMER_QUESTIONS:
            reference = p.answers.get(q.key)
            if not reference:
                continue
            examples.append({
                "id": str(uuid.uuid5(CASE_NAMESPACE, f"{p.product}|{q.key}")),
                "inputs": {"question": q.template.format(medicine=p.medicine), "medicine": p.name,
                           "question_key": q.key},
                "outputs": {"reference": reference},
                "metadata": {"product": p.product, "source": p.source, "jurisdiction": p.jurisdiction,
                             "ground_truth_doc_id": p.doc_id, "sections": p.sections.get(q.key, []), "topic": q.topic},
            })
    return examples


def load_examples(data_dir: Path, limit_medicines: int | None = None) -> list[dict]:
    products = load_product_info(data_dir)
    return build_examples(products[:limit_medicines] if limit_medicines else products)


def extractive_answer(question: str, evidence: list[EvidenceItem], n: int = EXTRACTIVE_SENTENCES) -> str:
    """The evidence sentences most similar to the question (no generation)."""
    from clinrag.tools.index.embeddings import embed_cached
    from clinrag.tools.index.text import split_sentences

    sentences = list(dict.fromkeys(s for e in evidence for s in split_sentences(e.text)))
    if not sentences:
        return ""
    sims = embed_cached(sentences) @ embed_cached([question])[0]
    return " ".join(sentences[i] for i in np.argsort(-sims, kind="stable")[:n])


def chat_answer(question: str, evidence: list[EvidenceItem], chat_model: str) -> str:
    from clinrag.chat_models import load_chat_model
    from clinrag.prompts.drug_info import DRUG_INFO_SYSTEM, DRUG_INFO_USER

    listing = "\n\n".join(f"[{e.doc_id}] ({e.year or 'year unknown'}) {e.title}\n{e.text}" for e in evidence)
    reply = load_chat_model(chat_model).invoke([
        ("system", DRUG_INFO_SYSTEM), ("user", DRUG_INFO_USER.format(question=question, evidence=listing or "(none)"))])
    return reply.content if isinstance(reply.content, str) else str(reply.content)


def make_target(ctx: Context, condition: str, k: int):
    from clinrag.tools.index.store import get_index
    from clinrag.tools.retrieval.retrieval_conditions import condition_search

    index = get_index(ctx.corpus_path, ctx.index_dir)

    def target(inputs: dict, ground_truth_doc_id: str = "") -> dict:
        result = condition_search(
            index, inputs["question"], condition, k=k, lam=ctx.mmr_lambda, alpha=ctx.temporal_alpha,
            pool=ctx.contradiction_pool, nli_backend=ctx.nli_backend, pair_threshold=ctx.pair_similarity_threshold,
            exclude_doc_ids=frozenset({ground_truth_doc_id}) if ground_truth_doc_id else frozenset(),
            exclude_source_types=EVIDENCE_EXCLUDED_TYPES,
            score_contradictions=True,  # salience shown for every condition
        )
        answer = (chat_answer(inputs["question"], result.evidence, ctx.chat_model) if ctx.chat_model
                  else extractive_answer(inputs["question"], result.evidence))
        return {"answer": answer, "evidence": [
            {"doc_id": e.doc_id, "year": e.year, "score": e.score, "contradiction_salience": e.contradiction_salience}
            for e in result.evidence]}

    return target


def answer_scores(run, example) -> list[dict]:
    """LangSmith evaluator: the six metrics of one answer against its reference."""
    scores = score_answer((run.outputs or {}).get("answer", ""), example.outputs["reference"])
    return {"results": [{"key": k, "score": round(v, 6)} for k, v in scores.items()]}


def run_benchmark(examples: list[dict], ctx: Context, condition: str, k: int = 5, on_case=None) -> list[dict]:
    """Every example through ``langsmith.evaluate`` offline; rows with the answer, evidence and scores."""
    from langsmith.schemas import Example

    from clinrag.evals.langsmith_offline import evaluate_offline

    target = make_target(ctx, condition, k)
    by_id = {e["id"]: e for e in examples}
    ground_truth = {e["inputs"]["question"]: e["metadata"]["ground_truth_doc_id"] for e in examples}

    def run_one(inputs: dict) -> dict:
        out = target(inputs, ground_truth.get(inputs["question"], ""))
        if on_case:
            on_case()
        return out

    data = [Example(id=e["id"], inputs=e["inputs"], outputs=e["outputs"], metadata=e["metadata"]) for e in examples]
    results = evaluate_offline(run_one, data, [answer_scores])
    rows = []
    for r in results:
        ex = by_id[str(r["example"].id)]
        scores = {e.key: e.score for e in r["evaluation_results"]["results"]}
        outputs = r["run"].outputs or {}
        rows.append({
            "id": ex["id"], "medicine": ex["inputs"]["medicine"], "question_key": ex["inputs"]["question_key"],
            "question": ex["inputs"]["question"], "source": ex["metadata"]["source"],
            "answer": outputs.get("answer", ""), "evidence": outputs.get("evidence", []),
            "scores": {k: scores.get(k) for k in METRIC_KEYS},
        })
    return rows


def summarize(rows: list[dict]) -> dict:
    """Overall macro averages, and the same per question (over the medicines that have it)."""
    by_question = {q.key: macro_average([r for r in rows if r["question_key"] == q.key]) for q in CONSUMER_QUESTIONS}
    salience = [e["contradiction_salience"] for r in rows for e in r["evidence"]]
    years = [e["year"] for r in rows for e in r["evidence"] if e.get("year")]
    return {"metrics": macro_average(rows), "by_question": {k: v for k, v in by_question.items() if v["n_questions"]},
            "evidence": {"mean_contradiction_salience": round(float(np.mean(salience)), 4) if salience else None,
                         "mean_year": round(float(np.mean(years)), 1) if years else None,
                         "abstracts_per_answer": round(len(salience) / len(rows), 2) if rows else 0}}
