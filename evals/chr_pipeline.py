"""One MIRAGE question through CHR and its baselines: hypotheses, retrieval (top K), answer.

Hypotheses, per ``--hypotheses``:

* ``oracle`` (evaluation only): H+ = the correct option's text, H- = the distractor most similar to the question.
  Results are an UPPER BOUND of the retrieval mechanism, not end-to-end accuracy.
* ``options`` (LLM-free): H+ / H- = the two options best supported by retrieval for ``question + option``.
* ``llm``: the chat model writes H+ / H- (and each expansion baseline's text); a failure falls back to ``options``,
  then to query-only, and the case records it.

Expansion baselines without a chat model use H+ as their generated text (HyDE = the same H+, no penalty).
Answering: a chat model reads the top K (MedRAG-style prompt, JSON answer choice, temperature 0); without one,
the option the top K support most (:func:`clinrag.tools.retrieval.option_support.answer_from_passages`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time

from pydantic import BaseModel, Field

from clinrag import options
from clinrag.chat_models import load_chat_model
from clinrag.evals.chr_data import MirageQuestion
from clinrag.prompts.medrag import MEDRAG_SYSTEM, MEDRAG_USER
from clinrag.schema import Hypotheses
from clinrag.tools.index.embeddings import forget_cached
from clinrag.tools.index.store import CorpusIndex
from clinrag.tools.retrieval.option_support import (
    answer_from_passages,
    informative_options,
    option_hypotheses,
    oracle_hypotheses,
)
from clinrag.tools.retrieval.query_expansion import generate_expansions, generate_hypotheses
from clinrag.tools.retrieval.retrievers import EXPANSION_RETRIEVERS, mimic_share, retrieve

log = logging.getLogger(__name__)
HYPOTHESIS_MODES = ("llm", "options", "oracle")
UPPER_BOUND_LABEL = "oracle hypotheses: an upper bound of the retrieval mechanism, not end-to-end accuracy"


class HarnessSettings(BaseModel):
    retrievers: list[str] = Field(default_factory=lambda: ["chr"])
    hypotheses: str = "options"
    lam: float = options.CHR_LAMBDA
    pool: int = options.CANDIDATE_POOL  # chr: the smallest first-stage pool (grown with the corpus); rrf: depth
    k: int = 5
    rrf_k: int = options.RRF_K
    hyde_generations: int = 1
    multi_queries: int = 3
    chat_model: str | None = None


class CaseHypotheses(BaseModel):
    hypotheses: Hypotheses | None = None
    source: str  # oracle | options | llm | none
    target_label: str | None = None  # the option H+ stands for (oracle / options)
    mimic_label: str | None = None
    expansions: dict[str, list[str]] = Field(default_factory=dict)
    note: str = ""
    ms: float = 0.0


def case_hypotheses(index: CorpusIndex, q: MirageQuestion, s: HarnessSettings, chat_model=None) -> CaseHypotheses:
    start = time.perf_counter()
    out = _case_hypotheses(index, q, s, chat_model)
    out.ms = round((time.perf_counter() - start) * 1000, 2)
    return out


def _case_hypotheses(index: CorpusIndex, q: MirageQuestion, s: HarnessSettings, chat_model) -> CaseHypotheses:
    options = q.options if informative_options(q.options) else None
    wanted = [r for r in s.retrievers if r in EXPANSION_RETRIEVERS]
    note = ""
    if s.hypotheses == "oracle":
        if not options:
            return CaseHypotheses(source="none", note="oracle hypotheses need content options; query-only")
        chosen = oracle_hypotheses(q.question, options, q.answer)
        return _from_options(chosen, "oracle", wanted)
    if s.hypotheses == "llm" and chat_model is not None:
        try:
            hyp = generate_hypotheses(chat_model, q.question, q.options)
            expansions = {
                r: generate_expansions(chat_model, r, q.question, hyde_generations=s.hyde_generations,
                                       multi_queries=s.multi_queries, options=q.options)
                for r in wanted
            }
            return CaseHypotheses(hypotheses=hyp, source="llm", expansions=expansions)
        except ValueError as e:
            log.warning("%s: %s", q.id, e)
            note = f"{e}; fell back to "
    if options:
        chosen = option_hypotheses(index, q.question, options, pool=s.pool, k=s.k)
        out = _from_options(chosen, "options", wanted)
        out.note = note + "option hypotheses" if note else ""
        return out
    return CaseHypotheses(source="none", note=note + "query-only retrieval (lambda = 0)")


def _from_options(chosen, source: str, wanted: list[str]) -> CaseHypotheses:
    return CaseHypotheses(
        hypotheses=chosen.hypotheses, source=source, target_label=chosen.target_label, mimic_label=chosen.mimic_label,
        expansions={r: [chosen.hypotheses.target] for r in wanted},
    )


def _texts_of(q: MirageQuestion, hyp: CaseHypotheses) -> list[str]:
    """Everything a retriever may encode for this case (their cache entries are dropped before timing)."""
    texts = [q.question]
    if hyp.hypotheses:
        texts += [hyp.hypotheses.target, hyp.hypotheses.mimic]
    for generated in hyp.expansions.values():
        texts += generated + [f"{q.question} [SEP] {g}" for g in generated]
    return texts


def timed_retrieve(index: CorpusIndex, q: MirageQuestion, retriever: str, hyp: CaseHypotheses, s: HarnessSettings):
    """(top K of one retriever, its latency in ms with the query encoding included: cached encodings are dropped)."""
    h = hyp.hypotheses
    forget_cached(_texts_of(q, hyp))
    start = time.perf_counter()
    found = retrieve(
        index, retriever, q.question, target=h.target if h else None, mimic=h.mimic if h else None,
        expansions=hyp.expansions.get(retriever), lam=s.lam if h else 0.0, pool=s.pool, k=s.k, rrf_k=s.rrf_k,
    )
    return found, round((time.perf_counter() - start) * 1000, 2)


def _medrag_answer(chat_model, index: CorpusIndex, q: MirageQuestion, rows: list[int]) -> str | None:
    documents = "\n".join(
        f"Document [{i}] (Title: {index.passages[r].meta.title}) {index.passages[r].text}" for i, r in enumerate(rows)
    )
    options = "\n".join(f"{label}. {text}" for label, text in q.options.items())
    reply = chat_model.invoke([
        ("system", MEDRAG_SYSTEM),
        ("human", MEDRAG_USER.format(documents=documents, question=q.question, options=options)),
    ])
    text = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
    match = re.search(r'"answer_choice"\s*:\s*"\s*([A-Za-z])', text)
    label = match.group(1).upper() if match else None
    return label if label in q.options else None


def answer(index: CorpusIndex, q: MirageQuestion, rows: list[int], chat_model=None) -> tuple[str | None, str]:
    """(predicted label, how): the chat model's choice, else the option the passages support most."""
    if chat_model is not None:
        try:
            label = _medrag_answer(chat_model, index, q, rows)
            if label:
                return label, "chat_model"
        except Exception as e:  # provider error: the case still gets the LLM-free answer, and says so
            log.warning("%s: answer failed: %s", q.id, e)
        predicted, _ = answer_from_passages(index, q.options, rows)
        return predicted, "option_support (chat model answer unusable)"
    predicted, _ = answer_from_passages(index, q.options, rows)
    return predicted, "option_support" if predicted else "none (yes/no options need a chat model)"


def run_case(index: CorpusIndex, q: MirageQuestion, s: HarnessSettings, chat_model=None) -> dict:
    """Every requested retriever on one question, sharing one set of hypotheses.

    All retrievals run first, in an order rotated per question (no retriever is always timed first, or always
    right after another's answering pass, which evicts the encoder from the CPU caches); then the answers.
    """
    hyp = case_hypotheses(index, q, s, chat_model)
    h = hyp.hypotheses
    shift = int(hashlib.sha1(q.id.encode()).hexdigest(), 16) % len(s.retrievers)
    found = {r: timed_retrieve(index, q, r, hyp, s) for r in s.retrievers[shift:] + s.retrievers[:shift]}
    by_retriever = {}
    for name in s.retrievers:
        top, ms = found[name]
        predicted, how = answer(index, q, top.rows, chat_model)
        by_retriever[name] = {
            "predicted": predicted,
            "answered_by": how,
            "top5_doc_ids": top.doc_ids(index),
            "top5_passage_ids": top.passage_ids(index),
            "mimic_share_top5": mimic_share(index, top.rows, h.target, h.mimic) if h else None,
            "retrieval_ms": ms,
        }
    return {"hypotheses": hyp.model_dump(mode="json"), "by_retriever": by_retriever}


def chat_model_for(s: HarnessSettings):
    return load_chat_model(s.chat_model) if s.chat_model else None
