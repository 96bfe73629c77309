"""Choosing the support and scope thresholds on the canonical split only.

Rule: each threshold maximizes balanced accuracy between the two classes and, among equals, sits at the
midpoint of the widest gap (largest margin), so that the holdout split measures how well the choice
generalizes. Support: answerable vs. not-covered canonical cases. Scope
(embedding test): the scope declaration's own exclusion examples, each scored leave-one-out against its
category, are the positives (the canonical out-of-scope cases are all caught by the declared rules, so they
cannot calibrate the embedding test); the canonical in-scope and not-covered questions are the negatives. A
wrong refusal of an in-scope question costs more than a missed exclusion example that a rule may still catch,
so the scope thresholds refuse no canonical negative and catch as many exclusion examples as that allows.
"""

from __future__ import annotations

import numpy as np

from clinrag.context import Context
from clinrag.evals.guideline_drift import Case
from clinrag.nodes.scope_guard import in_scope_similarity
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.index.store import get_index
from clinrag.tools.retrieval.hybrid import hybrid_search


def strict_threshold(below: list[float], above: list[float]) -> float | None:
    """Midpoint between the highest 'below' value and the next 'above' value: no 'below' value passes."""
    if not above:
        return None
    top = max(below, default=min(above) - 0.02)
    passing = [v for v in above if v > top]
    return round((top + min(passing)) / 2, 3) if passing else None


def best_threshold(below: list[float], above: list[float]) -> float | None:
    """Threshold t (values >= t count as 'above') with the best balanced accuracy, then the widest gap."""
    if not below or not above:
        return None
    values = sorted(set(below) | set(above))
    candidates = [(a + b) / 2 for a, b in zip(values, values[1:])] + [values[0] - 1e-3, values[-1] + 1e-3]

    def quality(t: float) -> tuple[float, float]:
        accuracy = (sum(v < t for v in below) / len(below) + sum(v >= t for v in above) / len(above)) / 2
        gap = min(abs(v - t) for v in values)
        return accuracy, gap

    return round(max(candidates, key=quality), 3)


def calibrate(cases: list[Case], ctx: Context | None = None) -> dict:
    ctx = ctx or Context()
    index = get_index(ctx.corpus_path, ctx.index_dir)
    scope = index.scope

    def exclusion_similarity(text: str) -> tuple[float, float]:
        """(best similarity to an exclusion, leaving the text itself out; margin over in-scope similarity)."""
        q = embed_cached([text])[0]
        best = max(
            float(np.max(embed_cached([c.description, *[e for e in c.examples if e != text]]) @ q))
            for c in scope.out_of_scope
        )
        return best, best - in_scope_similarity(q, scope, index.max_in_scope_cosine)

    sim_oos, margin_oos = [], []
    for category in scope.out_of_scope:
        for example in category.examples:
            sim, margin = exclusion_similarity(example)
            sim_oos.append(sim)
            margin_oos.append(margin)

    support_answerable, support_not_covered = [], []
    sim_in, margin_in = [], []
    for case in cases:
        question, expected = case.inputs.question, case.outputs
        if expected.abstain_reason == "out_of_scope":
            continue
        sim, margin = exclusion_similarity(question)
        sim_in.append(sim)
        margin_in.append(margin)
        best_support = max((s.support for s in hybrid_search(index, question, pool=ctx.candidate_pool)), default=0.0)
        (support_answerable if expected.decision == "answer" else support_not_covered).append(best_support)
    margin = strict_threshold(margin_in, margin_oos)
    return {
        "support_threshold": best_threshold(support_not_covered, support_answerable),
        "support_answerable_min": round(min(support_answerable), 4) if support_answerable else None,
        "support_not_covered_max": round(max(support_not_covered), 4) if support_not_covered else None,
        "scope_margin": margin,
        "scope_margin_in_scope_max": round(max(margin_in), 4) if margin_in else None,
        "scope_margin_out_of_scope_min": round(min(margin_oos), 4) if margin_oos else None,
        "scope_similarity_threshold": strict_threshold(
            [s for s, m in zip(sim_in, margin_in) if m >= margin],
            [s for s, m in zip(sim_oos, margin_oos) if m >= margin],
        ),
        "scope_similarity_out_of_scope_min": round(min(sim_oos), 4) if sim_oos else None,
        "scope_examples_caught": f"{sum(m >= margin for m in margin_oos)}/{len(margin_oos)}",
        "n_cases": len(cases),
    }
