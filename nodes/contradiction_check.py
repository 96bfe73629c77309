"""Contradiction check: typed disagreements between the recommendation frames of the retrieved documents, and
sentence-pair NLI for the sentences that state no frame.

Frames (stored with the index) say what each guideline recommends, for whom, how often and at which numbers;
two documents that differ on a facet of one intervention for overlapping populations disagree (different
organizations) or record a change (versions of one organization); a question that names ages ("women aged 75 and
older") is answered on action for those ages (and on intervals, when it asks how often for them), one about a person
("my 72 year old dad") on every facet for that age.
Sentences that carry frames are compared only as frames, so NLI cannot blend different age bands or flag a grade
sentence against an unrelated one; NLI edges remain for the other sentences (background, labels, leaflets),
labelled as NLI-based. Two abstracts are compared by
their stance toward the question (``tools/nli/stance.py``: one study supports what is asked, the other refutes it),
using only sentences that report a result (``is_result_sentence``: an effect measure, a p value, a change or
no-effect cue): inclusion criteria, aims and methods of two studies state no finding that could disagree.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.graph.events import contradiction_entry, disagreement_entry, emit
from clinrag.graph.runtime import context_of, index_of
from clinrag.graph.state import State, to_json
from clinrag.question.understanding import asked_average_risk, asked_most_people, asked_tests, narrowed_facets
from clinrag.tools.frames.conflicts import find_conflicts
from clinrag.tools.index.text import split_sentences
from clinrag.tools.nli.backends import get_stance_backend
from clinrag.tools.nli.contradiction import contradiction_graph, salience_of
from clinrag.tools.nli.pair_scores import primed_backend


def _key(sentence: str) -> str:
    return " ".join(sentence.split())


def sentences_for_nli(sentences: dict[str, list[str]], framed: set[str], abstracts: set[str]) -> dict[str, list[str]]:
    """Per document, the sentences NLI compares: none that states a frame, and of an abstract (a doc_id in
    ``abstracts``) only result sentences."""
    if not abstracts:  # the finding rules are imported (and their patterns compiled) only for abstracts
        return {doc_id: [s for s in sents if _key(s) not in framed] for doc_id, sents in sentences.items()}
    from clinrag.tools.frames.findings_rules import is_result_sentence

    return {doc_id: [s for s in sents if _key(s) not in framed and (doc_id not in abstracts or is_result_sentence(s))]
            for doc_id, sents in sentences.items()}


def _stance_edges(studies: dict[str, list[str]], question: str, nli_backend: str) -> list:
    """Stance edges between abstracts: imported and loaded only when abstracts were retrieved, so a guideline
    question never pays for the stance model."""
    from clinrag.tools.nli.stance import stance_graph

    return stance_graph(studies, question, get_stance_backend(nli_backend))[0]


def contradiction_check(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    index = index_of(ctx)
    # The stored pair scores, sentence splits and sentence vectors of these documents (the whole index, once, for the
    # embedded store; these documents' rows for PostgreSQL), before anything is split or embedded.
    backend = primed_backend(index, ctx.nli_backend, list(dict.fromkeys(e.doc_id for e in state.evidence)))
    sentences: dict[str, list[str]] = {}
    for item in state.evidence:  # several passages of one document count as one document
        sentences.setdefault(item.doc_id, []).extend(split_sentences(item.text))  # as split at index build
    frames = {doc_id: index.frames_for(doc_id) for doc_id in sentences}
    replaced_on = index.replaced_on(list(frames))  # frames only ever name these documents
    # the ages a question asks about ("women aged 75 and older"), or one person's ("my 72 year old dad"), and the
    # facets narrowed to them
    understood = state.understood
    ages = understood.ages if understood else None
    narrowed = narrowed_facets(understood.asked, ages, understood.age) if understood else frozenset()
    # the tests it names ("how often to repeat primary HPV testing"): schedules of two different tests are compared
    # only where it names both
    tests = asked_tests(understood.asked) if understood else frozenset()
    # a question about most people ("the A1C target for most adults") does not ask about the goals of groups named by
    # a condition
    most_people = asked_most_people(understood.asked) if understood else False
    # one about people at average risk does not ask what higher-risk groups are advised
    average_risk = asked_average_risk(understood.asked) if understood else False
    disagreements = find_conflicts([f for fs in frames.values() for f in fs], replaced_on, ages, narrowed, tests,
                                   most_people, average_risk)
    framed = {_key(f.sentence) for fs in frames.values() for f in fs}
    abstracts = {e.doc_id for e in state.evidence if e.source_type == "abstract"}
    nli_sentences = sentences_for_nli(sentences, framed, abstracts)
    nli_edges, _ = contradiction_graph({d: s for d, s in nli_sentences.items() if d not in abstracts}, backend,
                                       ctx.pair_similarity_threshold)
    studies = {d: s for d, s in nli_sentences.items() if d in abstracts}
    stance_edges = _stance_edges(studies, state.question, ctx.nli_backend) if studies else []
    edges = sorted(nli_edges + stance_edges, key=lambda e: -e.score)
    salience = salience_of(edges, list(sentences))
    flagged = [contradiction_entry(e) for e in edges if e.score >= ctx.contradiction_threshold]
    emit(runtime, "contradictions", threshold=ctx.contradiction_threshold, document_pairs=len(edges), flagged=flagged,
         disagreements=[disagreement_entry(d) for d in disagreements])
    evidence = [e.model_copy(update={"contradiction_salience": round(salience.get(e.doc_id, 0.0), 4)})
                for e in state.evidence]
    return {"contradictions": to_json(edges), "disagreements": to_json(disagreements), "evidence": to_json(evidence)}
