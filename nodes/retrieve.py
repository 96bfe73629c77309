"""Retrieval: the ``chr`` retriever (organization-diverse hybrid search, contrastive when hypotheses exist,
superseded versions included and labelled when the question asks about change over time or a past date), the
same function the CHR harness runs; or a named baseline, or a TGA-PubMed retrieval condition.

With question understanding, the ``chr`` retriever searches ``understood.searched_as`` (the question in the
corpus's terms, with the person's age) and takes the named organizations, the as-of date and the change intent
from it; without, it searches the question and reads change intent from its wording."""

from __future__ import annotations

from functools import partial

from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.graph.events import emit, evidence_entry
from clinrag.graph.runtime import context_of, index_of
from clinrag.graph.state import State, to_json
from clinrag.tools.retrieval.org_diverse import org_diverse_search_passages
from clinrag.tools.retrieval.retrievers import evidence_items
from clinrag.tools.retrieval.retrievers import retrieve as retrieve_named


def retrieve(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    hyp = state.hypotheses
    if ctx.retrieval_condition:  # a TGA-PubMed retrieval condition over abstracts
        from clinrag.tools.retrieval.retrieval_conditions import condition_search  # loaded only for a condition

        evidence = condition_search(
            index_of(ctx), state.question, ctx.retrieval_condition, k=ctx.k, lam=ctx.mmr_lambda,
            alpha=ctx.temporal_alpha, pool=ctx.contradiction_pool, nli_backend=ctx.nli_backend,
            pair_threshold=ctx.pair_similarity_threshold,
        ).evidence
    elif ctx.retriever != "chr":  # a named baseline: plain top-k, no organization diversity
        index = index_of(ctx)
        found = retrieve_named(
            index, ctx.retriever, state.question, target=hyp.target if hyp else None, expansions=state.expansions,
            pool=ctx.candidate_pool, k=ctx.k, rrf_k=ctx.rrf_k,
        )
        evidence = evidence_items(index, state.question, found)
    else:
        u = state.understood
        understood_args = {}  # only what understanding found: without it, the call is the CHR harness's own
        if u is not None:
            understood_args = {k: v for k, v in (("named_orgs", u.organizations), ("as_of", u.as_of)) if v}
            if u.change_intent or u.year or u.before:
                understood_args["include_superseded"] = True
        search = partial(
            org_diverse_search_passages, index_of(ctx), u.searched_as if u else state.question, k=ctx.k,
            target=hyp.target if hyp else None, mimic=hyp.mimic if hyp else None, lam=state.chr_lambda,
            pool=ctx.candidate_pool, **{"include_superseded": None, **understood_args},
        )
        evidence = search(**({"comparison": True} if u and u.comparison else {}))
        if u and u.organizations and not u.comparison and not ctx.supported(evidence):
            # The named organization's passages alone do not support the question well enough to pass the gate:
            # show them first, then the other organizations', rather than abstain on what the corpus answers.
            evidence = search(comparison=True)
    emit(runtime, "evidence", question=state.question, items=[evidence_entry(e) for e in evidence])
    return {"evidence": to_json(evidence)}
