"""Contradiction check: sentence-pair NLI between the retrieved documents."""

from __future__ import annotations

from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.graph.events import contradiction_entry, emit
from clinrag.graph.runtime import context_of, index_of
from clinrag.graph.state import State, to_json
from clinrag.tools.nli.contradiction import contradiction_graph
from clinrag.tools.nli.pair_scores import primed_backend


def contradiction_check(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    texts: dict[str, str] = {}
    for item in state.evidence:  # several passages of one document count as one document
        texts[item.doc_id] = f"{texts[item.doc_id]} {item.text}" if item.doc_id in texts else item.text
    backend = primed_backend(index_of(ctx), ctx.nli_backend)  # index-time pair scores loaded once per process
    edges, salience = contradiction_graph(texts, backend, ctx.pair_similarity_threshold)
    flagged = [contradiction_entry(e) for e in edges if e.score >= ctx.contradiction_threshold]
    emit(runtime, "contradictions", threshold=ctx.contradiction_threshold, document_pairs=len(edges), flagged=flagged)
    evidence = [e.model_copy(update={"contradiction_salience": round(salience.get(e.doc_id, 0.0), 4)}) for e in state.evidence]
    return {"contradictions": to_json(edges), "evidence": to_json(evidence)}
