"""Evaluating the trained answerability score (:mod:`clinrag.tools.retrieval.answerability`).

``python -m clinrag.evals.answerability --json-out PATH [--drift] [--skip-rerank]``

1. **Reranking, held-out questions** (splits of :mod:`clinrag.tools.retrieval.answerability_data`, fixed before
   training): MedQuAD test focuses, PubMedQA test PMIDs, and BioASQ test question ids (never trained on; a corpus
   of the snippets of those questions). For each question the top-50 of today's ranking
   (:func:`~clinrag.tools.retrieval.hybrid.hybrid_search`, ``fused``) are re-ordered by
   ``absolute`` (today's support score), ``model`` (p_answers), ``combined`` (the support score
   ``w * p + (1 - w) * absolute`` at ``w`` = :data:`RERANK_WEIGHT`), and ``hybrid+model`` (reciprocal-rank fusion
   of the hybrid and model rankings, k = 60 as in the hybrid ranking). Metrics: MRR@10 (reciprocal rank of the
   first relevant passage, 0 beyond rank 10), recall@5 (share of the question's relevant passages in the top 5,
   out of those present anywhere in the corpus) and recall@50 (what any reordering can reach).
2. **Support gate** (``--drift``): the rule of ``clinrag eval calibrate`` (:func:`clinrag.evals.calibrate.
   best_threshold`: best balanced accuracy, then the widest gap) applied to the guideline-drift *canonical* cases
   at each ``w``, twice: over every hybrid candidate (as ``calibrate`` does; ``w`` = 0, 0.05, ..., 1) and over the
   evidence the graph actually retrieves and gates on (``w`` = 0, 0.1, ..., 1; the organization-diverse selection
   itself reads the support score). ``w`` is chosen on the graph's evidence by balanced accuracy, then the gap
   (answerable min - not-covered max) *relative* to the spread of the scores (a rescaled score must not count
   as a wider margin), then the smaller ``w``. The chosen ``(w, threshold)`` is run through the whole graph on
   the canonical and holdout splits, beside today's ``(0, Context().support_threshold)``.
3. **Example**: "Does vitamin D supplementation reduce fracture risk in older adults?" on the PubMedQA corpus.
4. **Speed**: warm per-question time of the support scores of every first-stage candidate, and of ``ask``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

CE_TOP = (5, 10, 20)  # candidates the cross-encoder reorders (the first of the hybrid ranking)
RERANK_WEIGHT = 0.5  # the combination shown in the reranking table when the gate's weight is 0 (else that weight)
TOP = 50
RRF = 60


def _rank_metrics(order: list[int], relevant: set[int], n_relevant: int) -> tuple[float, float, float]:
    rr = next((1.0 / (i + 1) for i, r in enumerate(order[:10]) if r in relevant), 0.0)
    return rr, len(relevant & set(order[:5])) / n_relevant, len(relevant & set(order)) / n_relevant


def _orders(rows: list[int], scores: dict[str, np.ndarray], top: int | None = None) -> dict[str, list[int]]:
    """Each score's ordering of ``rows`` (their first ``top`` only; the rest keep the hybrid order)."""
    top = len(rows) if top is None else top
    return {name: [rows[i] for i in np.argsort(-score[:top], kind="stable")] + rows[top:]
            for name, score in scores.items()}


def _fusion(p: np.ndarray) -> np.ndarray:
    """Reciprocal-rank fusion of the hybrid order (the rows' order) and the order of ``p``."""
    model_rank = np.argsort(np.argsort(-p, kind="stable"), kind="stable")
    return 1.0 / (RRF + 1 + np.arange(len(p))) + 1.0 / (RRF + 1 + model_rank)


def rerank_eval(index, questions: list[dict], weight: float, ce_top: tuple[int, ...] = CE_TOP) -> dict:
    """Metrics of each ordering of the hybrid top-50 (see module docstring) over ``questions``
    (dicts with ``question`` and the relevant passage ``rows``): the MLP on all 50, the cross-encoder on the first
    N (``ce_top``; the rest keep the hybrid order), both alone, combined with the absolute score and fused."""
    from clinrag.tools.index.embeddings import embed_cached
    from clinrag.tools.index.text import content_tokens
    from clinrag.tools.retrieval.answerability import answer_probability, get_answerability_model
    from clinrag.tools.retrieval.hybrid import hybrid_search, support_score, term_coverage

    ce = get_answerability_model("cross-encoder")
    sums: dict[str, np.ndarray] = {}
    seconds = {"mlp": 0.0, "cross-encoder": 0.0}
    for q in questions:
        results = hybrid_search(index, q["question"])[:TOP]
        rows = [s.row for s in results]
        q_vec = embed_cached([q["question"]])[0]
        terms = content_tokens(q["question"])
        cov = np.array([term_coverage(index, terms, r) for r in rows])
        absolute = np.array([support_score(s.sentence_cosine, c) for s, c in zip(results, cov)])
        t0 = time.perf_counter()
        p = answer_probability(index, q_vec, rows, cov)
        t1 = time.perf_counter()
        p_ce = ce.probability(index, q["question"], q_vec, rows[: max(ce_top)], cov[: max(ce_top)])
        seconds["mlp"] += t1 - t0
        seconds["cross-encoder"] += time.perf_counter() - t1
        orders = {"hybrid": rows, **_orders(rows, {"absolute": absolute, "model": p,
                                                   "combined": weight * p + (1 - weight) * absolute,
                                                   "hybrid+model": _fusion(p)})}
        for n in ce_top:
            orders |= _orders(rows, {f"ce@{n}": p_ce[:n],
                                     f"ce_combined@{n}": weight * p_ce[:n] + (1 - weight) * absolute[:n],
                                     f"hybrid+ce@{n}": _fusion(p_ce[:n])}, n)
        relevant = set(q["rows"])
        for name, order in orders.items():
            sums[name] = sums.get(name, np.zeros(3)) + _rank_metrics(order, relevant, len(relevant))
    n = max(len(questions), 1)
    return {"n_questions": len(questions), "combined_weight": weight,
            "model_ms_per_question": {k: round(1000 * v / n, 1) for k, v in seconds.items()},
            **{name: {"mrr@10": round(v[0] / n, 4), "recall@5": round(v[1] / n, 4), "recall@50": round(v[2] / n, 4)}
               for name, v in sums.items()}}


def subsample(questions: list[dict], limit: int | None) -> list[dict]:
    """At most ``limit`` questions, a fixed pseudo-random choice (by a hash of the question text)."""
    if limit is None or len(questions) <= limit:
        return questions
    return sorted(questions, key=lambda q: hashlib.sha1(q["question"].encode()).hexdigest())[:limit]


def heldout_sets(bioasq_limit: int = 300) -> dict:
    """(index, questions) per held-out set."""
    from clinrag.tools.index.store import CorpusIndex
    from clinrag.tools.retrieval import answerability_data as data
    from clinrag.tools.retrieval import train_answerability as ta

    out = {}
    for name, (index, questions, _) in ta.prepare().items():
        out[name] = (index, [q for q in questions if q["split"] == "test"])
    bio = data.bioasq_questions("test", bioasq_limit)
    dst, relevant = data.bioasq_index(data.cache_dir() / "indexes" / "bioasq_test", bio)
    index = CorpusIndex.load(data.cache_dir() / "corpora" / "bioasq_test.jsonl", dst)
    rows_of: dict[str, list[int]] = {}
    for i, p in enumerate(index.passages):
        rows_of.setdefault(p.doc_id, []).append(i)
    out["bioasq"] = (index, [{"question": q["question"], "rows": [r for d in relevant[q["id"]] for r in rows_of[d]]}
                             for q in bio if q["id"] in relevant])
    return out


# ---------------------------------------------------------------- the support gate

@contextmanager
def answerability_setting(weight: float, model: str | None = None):
    """Run with guideline (non-abstract) passages' weight ``weight`` and the answerability model ``model``."""
    from clinrag.tools.retrieval import answerability

    saved = answerability.ANSWERABILITY_WEIGHT, answerability.ANSWERABILITY_MODEL
    answerability.ANSWERABILITY_WEIGHT = weight
    answerability.ANSWERABILITY_MODEL = model or saved[1]
    try:
        yield
    finally:
        answerability.ANSWERABILITY_WEIGHT, answerability.ANSWERABILITY_MODEL = saved


def case_scores(cases, ctx, model: str | None = None) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Per canonical support case: (expected decision, p_answers and absolute support of every hybrid candidate;
    p is NaN for candidates the model does not score, beyond the cross-encoder's top-N)."""
    from clinrag.tools.index.embeddings import embed_cached
    from clinrag.tools.index.store import get_index
    from clinrag.tools.index.text import content_tokens
    from clinrag.tools.retrieval.answerability import AnswerProbabilities, get_answerability_model
    from clinrag.tools.retrieval.hybrid import hybrid_search, support_score, term_coverage

    index = get_index(ctx.corpus_path, ctx.index_dir)
    out = []
    for case in cases:
        if case.outputs.abstain_reason == "out_of_scope":
            continue
        question = case.inputs.question
        results = hybrid_search(index, question, pool=ctx.candidate_pool)
        rows = [s.row for s in results]
        terms = content_tokens(question)
        cov = np.array([term_coverage(index, terms, r) for r in rows])
        absolute = np.array([support_score(s.sentence_cosine, c) for s, c in zip(results, cov)])
        p = AnswerProbabilities(index, question, embed_cached([question])[0], terms, ranked=rows,
                                model=get_answerability_model(model)).of(rows)
        out.append((case.outputs.decision, p, absolute))
    return out


def gate_table(scores, weights) -> list[dict]:
    """Threshold, balanced accuracy and margins of the support gate at each weight."""
    from clinrag.evals.calibrate import best_threshold

    table = []
    for w in weights:
        best = [(d, float(np.max(np.where(np.isnan(p), a, w * p + (1 - w) * a))) if len(a) else 0.0)
                for d, p, a in scores]
        above = [v for d, v in best if d == "answer"]
        below = [v for d, v in best if d != "answer"]
        t = best_threshold(below, above)
        acc = (sum(v < t for v in below) / len(below) + sum(v >= t for v in above) / len(above)) / 2
        spread = max(above + below) - min(above + below)
        table.append({"w": round(w, 2), "threshold": t, "balanced_accuracy": round(acc, 4),
                      "answerable_min": round(min(above), 4), "not_covered_max": round(max(below), 4),
                      "gap": round(min(above) - max(below), 4),
                      "relative_gap": round((min(above) - max(below)) / spread, 4) if spread else 0.0,
                      "answerable_min_minus_threshold": round(min(above) - t, 4),
                      "threshold_minus_not_covered_max": round(t - max(below), 4)})
    return table


def graph_case_scores(weights, split: str = "canonical",
                      model: str | None = None) -> dict[float, list[tuple[str, float]]]:
    """Per weight: (expected decision, best support of the evidence the graph retrieved) per support case.

    What the gate sees: the max over the graph's evidence (organization-diverse selection, whose topic anchors
    themselves depend on the support score), not over every hybrid candidate. Run with threshold 0, so that no
    case abstains on support and every case returns its evidence."""
    from clinrag.context import Context
    from clinrag.evals.guideline_drift import load_cases, run_experiment

    cases = [c for c in load_cases(split=split) if c.outputs.abstain_reason != "out_of_scope"]
    out = {}
    for w in weights:
        with answerability_setting(w, model):
            rows = run_experiment(cases, Context(support_threshold=0.0))
        out[w] = [(r["example"].outputs["decision"], r["outputs"].get("best_support") or 0.0) for r in rows]
    return out


def graph_gate_table(per_weight: dict[float, list[tuple[str, float]]]) -> list[dict]:
    """:func:`gate_table` on the graph's evidence (p is unused: the supports are already combined)."""
    table = []
    for w, best in per_weight.items():
        scores = [(d, np.zeros(1), np.array([v])) for d, v in best]
        table.append({**gate_table(scores, [0.0])[0], "w": round(w, 2)})
    return table


def choose_weight(table: list[dict]) -> dict:
    return max(table, key=lambda r: (r["balanced_accuracy"], r["relative_gap"], -r["w"]))


def drift_run(split: str, weight: float, threshold: float, model: str | None = None) -> dict:
    """The guideline-drift benchmark through the graph with the support weight, threshold and model given."""
    from clinrag.context import Context
    from clinrag.evals.guideline_drift import load_cases, run_experiment, summarize

    with answerability_setting(weight, model):
        rows = run_experiment(load_cases(split=split), Context(support_threshold=threshold))
    return summarize(rows)


def vitamin_d(model: str | None = None) -> dict:
    """The vitamin-D question on the PubMedQA abstracts with ``model`` behind p_answers, at the shipped abstract
    setting: abstract passages have their own weight and threshold, chosen per model by ``clinrag eval abstract-gate``
    (evals/abstract_gate.py), which also reports the question at the setting it chooses."""
    from clinrag.context import Context
    from clinrag.evals.abstract_gate import vitamin_d_check
    from clinrag.tools.retrieval import answerability

    shipped = answerability.ABSTRACT_ANSWERABILITY_WEIGHT, Context().abstract_support_threshold
    with answerability_setting(answerability.ANSWERABILITY_WEIGHT, model):
        return {"weight": shipped[0], "threshold": shipped[1], **vitamin_d_check(*shipped)}


def speed(weight: float, questions: list[str], repeats: int = 3, model: str | None = None) -> dict:
    """Warm per-question milliseconds: support of every first-stage candidate (absolute vs with the model; the
    cross-encoder scores its top-N of them)."""
    from clinrag.context import Context
    from clinrag.tools.index.embeddings import embed_cached
    from clinrag.tools.index.store import get_index
    from clinrag.tools.index.text import content_tokens
    from clinrag.tools.retrieval.answerability import AnswerProbabilities, get_answerability_model, support_scores
    from clinrag.tools.retrieval.hybrid import hybrid_search

    ctx = Context()
    index = get_index(ctx.corpus_path, ctx.index_dir)
    scorer = get_answerability_model(model)
    memo, scorer_memo = None, getattr(scorer, "memo", None)
    if hasattr(scorer, "memo"):
        scorer.memo = memo  # time the model, not the evaluation's memo
    out = {}
    try:
        for name, w in (("absolute", 0.0), ("with_model", weight or RERANK_WEIGHT)):
            times, n = [], []
            for _ in range(repeats):
                for question in questions:
                    results = hybrid_search(index, question, pool=ctx.candidate_pool)
                    q_vec = embed_cached([question])[0]
                    rows = [s.row for s in results]
                    terms = content_tokens(question)
                    t0 = time.perf_counter()
                    probabilities = AnswerProbabilities(index, question, q_vec, terms, ranked=rows, model=scorer)
                    support_scores(index, q_vec, rows, terms, np.array([s.sentence_cosine for s in results]),
                                   weight=w, question=question, probabilities=probabilities)
                    times.append((time.perf_counter() - t0) * 1000)
                    n.append(len(rows) if scorer.top_n is None else min(len(rows), scorer.top_n))
            out[name] = {"p50_ms": round(statistics.median(times), 3), "max_ms": round(max(times), 3),
                         "passages_scored_median": statistics.median(n) if w else 0}
    finally:
        if hasattr(scorer, "memo"):
            scorer.memo = scorer_memo
    return out


def holdout_margins(chosen: dict, model: str | None) -> dict:
    """Best support of the holdout support cases through the graph at w = 0 (today's threshold) and at the chosen
    ``(w, threshold)``: the margins answerable min - t and t - not-covered max."""
    from clinrag.context import Context

    out = {}
    for name, (w, t) in {"today": (0.0, Context().support_threshold),
                         "chosen": (chosen["w"], chosen["threshold"])}.items():
        best = graph_case_scores([w], "holdout", model)[w]
        above = [v for d, v in best if d == "answer"]
        below = [v for d, v in best if d != "answer"]
        out[name] = {"w": w, "threshold": t, "answerable_min_minus_threshold": round(min(above) - t, 4),
                     "threshold_minus_not_covered_max": round(t - max(below), 4)}
    return out


def accept(graph_table: list[dict], chosen: dict, drift: dict, holdout: dict) -> bool:
    """The rule for a guideline weight > 0 to become the default: canonical and holdout stay at 100 % through the
    graph, and neither abstention margin shrinks on either split (else the weight stays 0)."""
    if chosen["w"] == 0:
        return False
    perfect = all(r["cases_passed"] == r["n"] for r in drift["chosen"].values())
    today = graph_table[0]
    keys = ("answerable_min_minus_threshold", "threshold_minus_not_covered_max")
    wider = all(chosen[k] >= today[k] for k in keys) and all(
        holdout["chosen"][k] >= holdout["today"][k] for k in keys)
    return perfect and wider


def main(argv: list[str] | None = None) -> None:
    from clinrag.options import ANSWERABILITY_MODELS

    parser = argparse.ArgumentParser(description="Evaluate the trained answerability score")
    parser.add_argument("--json-out", type=Path)
    parser.add_argument("--drift", action="store_true", help="choose w on canonical, run the graph on both splits")
    parser.add_argument("--skip-rerank", action="store_true")
    parser.add_argument("--model", choices=ANSWERABILITY_MODELS, help="for --drift (default: the shipped default)")
    parser.add_argument("--bioasq-limit", type=int, default=300)
    parser.add_argument("--limit", type=int, help="held-out questions per set (a fixed pseudo-random choice)")
    parser.add_argument("--weights", type=int, default=11, help="guideline weights tried: 0, 1/(n-1), ..., 1")
    args = parser.parse_args(argv)

    from clinrag.context import Context
    from clinrag.evals.guideline_drift import load_cases
    from clinrag.tools.retrieval.answerability import (
        ANSWERABILITY_MODEL,
        ANSWERABILITY_WEIGHT,
        get_answerability_model,
    )

    get_answerability_model("cross-encoder").memo = {}  # each pair once per process, whatever the weight
    model = args.model or ANSWERABILITY_MODEL
    report: dict = {"answerability_weight_default": ANSWERABILITY_WEIGHT, "model": model}
    if not args.skip_rerank:
        report["rerank"] = {name: rerank_eval(index, subsample(qs, args.limit), ANSWERABILITY_WEIGHT or RERANK_WEIGHT)
                            for name, (index, qs) in heldout_sets(args.bioasq_limit).items()}
        print(json.dumps(report["rerank"], indent=2), flush=True)
    if args.drift:
        ctx = Context()
        canonical = load_cases(split="canonical")
        table = gate_table(case_scores(canonical, ctx, model), [i / 20 for i in range(21)])
        weights = [round(i / (args.weights - 1), 3) for i in range(args.weights)]
        graph_table = graph_gate_table(graph_case_scores(weights, model=model))
        chosen = choose_weight(graph_table)
        report["gate"] = {"candidates_table": table, "candidates_chosen": choose_weight(table),
                          "graph_table": graph_table, "today": graph_table[0], "chosen": chosen}
        print(json.dumps(report["gate"], indent=1), flush=True)
        report["drift"] = {
            "today": {s: drift_run(s, 0.0, ctx.support_threshold, model) for s in ("canonical", "holdout")},
            "chosen": {s: drift_run(s, chosen["w"], chosen["threshold"], model) for s in ("canonical", "holdout")},
        }
        report["holdout_margins"] = holdout_margins(chosen, model)
        report["accepted"] = accept(graph_table, chosen, report["drift"], report["holdout_margins"])
        print(json.dumps({k: report[k] for k in ("drift", "holdout_margins", "accepted")}, indent=2), flush=True)
        report["vitamin_d"] = vitamin_d(model)
        print(json.dumps(report["vitamin_d"], indent=2), flush=True)
        report["speed"] = speed(chosen["w"], [c.inputs.question for c in canonical], model=model)
        print(json.dumps(report["speed"], indent=2), flush=True)
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
