"""The graph end to end: routes, abstentions with reasons, CHR with a scripted chat model, grounded answers."""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableLambda

from clinrag import NOT_MEDICAL_ADVICE
from clinrag.context import Context
from clinrag.schema import Hypotheses


def run(graph, question, **ctx):
    return graph.invoke({"question": question}, context=Context(**ctx))


def test_answer_keeps_organizations_apart_and_cites(graph):
    out = run(graph, "Should average-risk adults start colorectal cancer screening at 45 or 50?")
    assert out["decision"] == "answer" and out.get("abstain_reason") is None
    ids = {e["doc_id"] for e in out["evidence"]}
    assert {"uspstf-crc-2021", "acs-crc-2018", "acp-crc-2023"} <= ids
    answer = out["answer"]
    for doc_id in ids:
        assert f"[{doc_id}]" in answer
    assert "not merged" in answer and NOT_MEDICAL_ADVICE in answer
    assert "agree" not in answer.lower()
    assert out["messages"][-1].content == answer
    assert out["hypotheses"] is None  # no chat model configured


def test_superseded_version_is_labelled_in_evidence_and_answer(graph):
    out = run(graph, "What did the USPSTF recommend for prostate cancer screening in 2012?")
    old = next(e for e in out["evidence"] if e["doc_id"] == "uspstf-prostate-2012")
    assert old["status"] == "superseded"
    line = next(l for l in out["answer"].splitlines() if "[uspstf-prostate-2012]" in l and l.startswith("- USPSTF"))
    assert "SUPERSEDED by uspstf-prostate-2018" in line


def test_grade_i_stays_insufficient_evidence(graph):
    out = run(graph, "Does the USPSTF recommend screening mammography for women aged 75 and older?")
    assert "insufficient" in out["answer"] and "not advice to avoid" in out["answer"]


def test_contradictions_are_flagged_with_the_sentence_pair(graph):
    out = run(graph, "When should average-risk women start mammography, and do the organizations agree?")
    assert out["contradictions"], "disagreeing organizations must produce contradiction edges"
    top = out["contradictions"][0]
    evidence = {e["doc_id"]: e for e in out["evidence"]}
    assert top["doc_a"] in evidence and top["doc_b"] in evidence and top["doc_a"] != top["doc_b"]
    assert top["sentence_a"] in evidence[top["doc_a"]]["text"] and top["sentence_b"] in evidence[top["doc_b"]]["text"]
    assert max(e["contradiction_salience"] for e in out["evidence"]) > 0


def test_out_of_scope_by_rule_and_emergency_message(graph):
    out = run(graph, "I have crushing chest pain right now. Should I take an aspirin?")
    assert out["decision"] == "abstain" and out["abstain_reason"] == "out_of_scope"
    assert "emergency" in out["answer"].lower() and NOT_MEDICAL_ADVICE in out["answer"]
    assert not out.get("evidence")


def test_out_of_scope_by_embedding_without_rule(graph, guideline_index):
    question = "Fourteen weeks along with my second baby, and my BP was 138/88. Which target should I aim for?"
    import re

    assert not any(re.search(p, question, re.I) for c in guideline_index.scope.out_of_scope for p in c.patterns)
    out = run(graph, question)
    assert out["abstain_reason"] == "out_of_scope" and "resembles" in out["reason"]


def test_unsupported_question_abstains_with_reason(graph):
    out = run(graph, "How often should I replace my toothbrush?")
    assert out["decision"] == "abstain" and out["abstain_reason"] == "insufficient_support"
    assert "below the threshold" in out["reason"] and NOT_MEDICAL_ADVICE in out["answer"]


def test_support_threshold_comes_from_context(graph):
    out = run(graph, "Should average-risk adults start colorectal cancer screening at 45 or 50?",
              support_threshold=0.99)
    assert out["abstain_reason"] == "insufficient_support"


def test_chat_messages_input(graph):
    out = graph.invoke({"messages": [HumanMessage("Who is eligible for lung cancer screening under the USPSTF?")]})
    assert out["decision"] == "answer" and out["question"].startswith("Who is eligible")
    assert isinstance(out["messages"][-1], AIMessage)


def test_a_new_run_on_a_thread_does_not_inherit_the_previous_run(guideline_index):
    from langgraph.checkpoint.memory import InMemorySaver

    from clinrag.graph import build_graph

    g = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    first = g.invoke({"question": "Who is eligible for lung cancer screening under the USPSTF?"}, config)
    assert first["decision"] == "answer" and first["evidence"]
    second = g.invoke({"messages": [HumanMessage("I carry a BRCA1 mutation. When should I start mammograms?")]}, config)
    assert second["abstain_reason"] == "out_of_scope"
    assert second["evidence"] == [] and second["contradictions"] == [] and second["question"].startswith("I carry")
    assert [m.type for m in second["messages"]] == ["human", "ai", "human", "ai"]


def test_empty_question_is_a_clear_error(graph):
    import pytest

    with pytest.raises(ValueError, match="No question"):
        graph.invoke({"question": "  "})


class ScriptedChatModel(GenericFakeChatModel):
    """Answers from a script; structured output returns fixed hypotheses (or garbage, to test fallbacks)."""

    hypotheses: object = None

    def with_structured_output(self, schema, **kwargs):
        return RunnableLambda(lambda _: self.hypotheses)


def scripted(monkeypatch, hypotheses, answers):
    model = ScriptedChatModel(messages=iter([AIMessage(a) for a in answers]), hypotheses=hypotheses)
    monkeypatch.setattr("clinrag.nodes.hypotheses.load_chat_model", lambda spec: model)
    monkeypatch.setattr("clinrag.nodes.answer.load_chat_model", lambda spec: model)
    return model


def test_chr_with_chat_model_hypotheses_and_grounded_answer(graph, monkeypatch):
    hyp = Hypotheses(
        target="Annual low-dose CT screening for lung cancer in adults aged 50 to 80 with a 20 pack-year history.",
        mimic="Screening mammography for breast cancer in women aged 40 and older.",
    )
    scripted(monkeypatch, hyp, ["The USPSTF recommends annual low-dose CT from 50 to 80 [uspstf-lung-2021]."])
    out = run(graph, "Who should be screened with low-dose CT?", chat_model="fake:scripted")
    assert out["hypotheses"] == hyp.model_dump()
    assert all(e["topic"] == "lung-cancer-screening" for e in out["evidence"])
    assert out["answer"].startswith("The USPSTF recommends annual low-dose CT") and NOT_MEDICAL_ADVICE in out["answer"]


def test_malformed_hypotheses_fall_back_to_query_only(graph, monkeypatch):
    scripted(monkeypatch, {"target": ""}, ["Insufficient evidence: the passages do not cover this."])
    out = run(graph, "Who should be screened for lung cancer?", chat_model="fake:scripted")
    assert out["hypotheses"] is None and out["decision"] == "answer"
    assert out["answer"].startswith("Insufficient evidence")


def test_answer_citing_unknown_documents_falls_back_to_deterministic(graph, monkeypatch):
    scripted(monkeypatch, None, ["Everyone should be screened from 18 [made-up-2030]."])
    out = run(graph, "Who should be screened for lung cancer?", chat_model="fake:scripted")
    assert "made-up-2030" not in out["answer"] and "[uspstf-lung-2021]" in out["answer"]
