"""The hypotheses node: chat-model hypotheses (scripted), retries and fallbacks, option hypotheses, baselines."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from chr_fixtures import MIMIC, OPTIONS, QUESTION, TARGET, ScriptedChatModel, write_corpus
from langchain_core.messages import AIMessage

from clinrag.context import Context
from clinrag.graph.state import State
from clinrag.nodes.hypotheses import hypotheses
from clinrag.prompts.hypotheses import HYPOTHESES_SYSTEM
from clinrag.tools.retrieval.query_expansion import MAX_ATTEMPTS


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory):
    return str(write_corpus(tmp_path_factory.mktemp("chr-node")))


def run_node(corpus, options=None, question=QUESTION, **ctx):
    state = State(question=question, options=options)
    return hypotheses(state, SimpleNamespace(context=Context(corpus_path=corpus, k=5, **ctx)))


def scripted(monkeypatch, **structured) -> ScriptedChatModel:
    model = ScriptedChatModel(messages=iter([AIMessage("unused")]), structured=structured, calls=[])
    monkeypatch.setattr("clinrag.nodes.hypotheses.load_chat_model", lambda spec: model)
    return model


def test_chat_model_hypotheses_in_one_structured_call_with_the_options(tiny_corpus, monkeypatch):
    model = scripted(monkeypatch, Hypotheses={"target": TARGET, "mimic": MIMIC})
    out = run_node(tiny_corpus, OPTIONS, chat_model="fake:scripted")
    assert out["hypotheses"] == {"target": TARGET, "mimic": MIMIC} and out["chr_lambda"] == 1.0
    assert len(model.calls) == 1
    (system_role, system), (_, human) = model.calls[0][1]
    assert system == HYPOTHESES_SYSTEM and "differential diagnosis" in system and "textbook-style" in system
    assert QUESTION in human and "B. Myasthenia gravis" in human  # the options travel with the question


def test_malformed_output_is_retried_then_falls_back_to_option_hypotheses(tiny_corpus, monkeypatch):
    model = scripted(monkeypatch, Hypotheses={"target": "only a target"})
    out = run_node(tiny_corpus, OPTIONS, chat_model="fake:scripted")
    assert len(model.calls) == MAX_ATTEMPTS
    assert set(out["hypotheses"].values()) <= set(OPTIONS.values()) and out["chr_lambda"] == 1.0
    assert "failed after 2 attempts" in out["hypotheses_note"] and "from the options" in out["hypotheses_note"]


def test_malformed_output_on_an_open_question_falls_back_to_query_only(tiny_corpus, monkeypatch):
    scripted(monkeypatch, Hypotheses=None)
    out = run_node(tiny_corpus, None, chat_model="fake:scripted")
    assert out["hypotheses"] is None and out["chr_lambda"] == 0.0 and "query-only" in out["hypotheses_note"]


def test_without_chat_model_options_give_best_and_runner_up(tiny_corpus):
    from clinrag.tools.index.store import get_index
    from clinrag.tools.retrieval.option_support import option_hypotheses

    out = run_node(tiny_corpus, OPTIONS)
    expected = option_hypotheses(get_index(tiny_corpus), QUESTION, OPTIONS, pool=50, k=5)
    assert expected.scores[expected.target_label] >= expected.scores[expected.mimic_label] >= max(
        v for label, v in expected.scores.items() if label not in (expected.target_label, expected.mimic_label))
    assert out["hypotheses"] == expected.hypotheses.model_dump()
    assert out["chr_lambda"] == 1.0 and "No chat model configured" in out["hypotheses_note"]
    assert f"H+ = {expected.target_label}" in out["hypotheses_note"]


def test_without_chat_model_open_and_yes_no_questions_are_query_only(tiny_corpus):
    for options in (None, {"A": "yes", "B": "no", "C": "maybe"}):
        out = run_node(tiny_corpus, options)
        assert out["hypotheses"] is None and out["chr_lambda"] == 0.0
        assert out["hypotheses_note"] == ("No chat model configured: hypotheses unavailable; "
                                          "query-only retrieval (lambda = 0).")


def test_baselines_get_their_generated_text(tiny_corpus, monkeypatch):
    model = scripted(monkeypatch, Passages={"passages": ["p1", "p2", "p3"]}, Queries={"queries": ["q1", "q2", "q3"]})
    hyde = run_node(tiny_corpus, OPTIONS, chat_model="fake:scripted", retriever="hyde", hyde_generations=2)
    assert hyde["expansions"] == ["p1", "p2"] and hyde["hypotheses"] is None
    assert "2 generated" in hyde["hypotheses_note"]
    assert "Write 2 different" in model.calls[-1][1][0][1]
    assert run_node(tiny_corpus, None, chat_model="fake:scripted", retriever="query2doc")["expansions"] == ["p1"]
    rrf = run_node(tiny_corpus, None, chat_model="fake:scripted", retriever="rrf", multi_queries=2)
    assert rrf["expansions"] == ["q1", "q2"]
    dense = run_node(tiny_corpus, OPTIONS, chat_model="fake:scripted", retriever="dense")
    assert dense["expansions"] == [] and dense["hypotheses"] is None
    # without a chat model an expansion baseline uses H+ from the options
    no_llm = run_node(tiny_corpus, OPTIONS, retriever="hyde")
    assert no_llm["expansions"] == [no_llm["hypotheses"]["target"]]


def test_graph_takes_options_and_a_named_retriever(tiny_corpus):
    from clinrag.graph import graph
    from clinrag.tools.index.store import get_index
    from clinrag.tools.retrieval.retrievers import dense_search

    ctx = Context(corpus_path=tiny_corpus, k=5, retriever="dense", support_threshold=0.0)
    out = graph.invoke({"question": QUESTION, "options": OPTIONS}, context=ctx)
    index = get_index(tiny_corpus)
    assert [e["doc_id"] for e in out["evidence"]] == dense_search(index, QUESTION, 5).doc_ids(index)
    chr_out = graph.invoke({"question": QUESTION, "options": OPTIONS}, context=Context(corpus_path=tiny_corpus, k=5,
                                                                                    support_threshold=0.0))
    assert chr_out["hypotheses"]["target"] in OPTIONS.values()  # option hypotheses reached the default CHR path
