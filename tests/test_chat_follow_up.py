"""Chat input: follow-up turns resolved against the earlier ones (rule, and chat model), recorded in the state."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from clinrag.follow_up import combine, is_follow_up, resolve_follow_up, standalone_by_rule

PROSTATE = "What does the USPSTF recommend for prostate cancer screening?"
CRC = "When should average-risk adults start colorectal cancer screening?"


@pytest.mark.parametrize("turn", ["and what about ACS?", "What about men?", "and in 2012?", "How about the AUA?",
                                  "Does it apply to smokers?", "Is that still current?", "Who is eligible?"])
def test_elliptical_turns_are_follow_ups(turn):
    assert is_follow_up(turn)


@pytest.mark.parametrize("turn", [PROSTATE, CRC, "I carry a BRCA1 mutation. When should I start mammograms?",
                                  "Is there a recommendation on aspirin for primary prevention of heart disease?"])
def test_standalone_questions_are_not_follow_ups(turn):
    assert not is_follow_up(turn)


def test_rule_keeps_the_earlier_topic_and_adds_the_change():
    assert combine(PROSTATE, "and in 2012?") == f"{PROSTATE} In 2012?"
    assert (combine("Statins for adults over 40", "what about ACC/AHA")
            == "Statins for adults over 40. What about ACC/AHA")
    # A chain of follow-ups keeps the first question's topic.
    assert standalone_by_rule([CRC, "what about ACS?", "and in 2008?"]) == f"{CRC} What about ACS? In 2008?"
    # A new standalone question starts over.
    assert standalone_by_rule([CRC, "what about ACS?", PROSTATE]) == PROSTATE
    assert resolve_follow_up([], "and in 2012?") is None
    assert resolve_follow_up([CRC], PROSTATE) is None


def test_follow_up_in_a_thread_is_searched_as_the_resolved_question(guideline_index):
    from clinrag.graph import build_graph

    graph, config = build_graph(checkpointer=InMemorySaver()), {"configurable": {"thread_id": "t"}}
    first = graph.invoke({"messages": [HumanMessage(PROSTATE)]}, config)
    assert first["follow_up"] is None and "uspstf-prostate-2012" not in {e["doc_id"] for e in first["evidence"]}

    second = graph.invoke({"messages": [HumanMessage("and in 2012?")]}, config)
    assert second["follow_up"] == {"asked": "and in 2012?", "previous": PROSTATE, "resolved": f"{PROSTATE} In 2012?",
                                   "method": "rule"}
    assert second["question"] == f"{PROSTATE} In 2012?" and second["decision"] == "answer"
    old = next(e for e in second["evidence"] if e["doc_id"] == "uspstf-prostate-2012")  # the past version, asked for
    assert old["status"] == "superseded"
    # The transcript keeps what the user typed, not the rewrite.
    assert [m.content for m in second["messages"] if m.type == "human"] == [PROSTATE, "and in 2012?"]

    third = graph.invoke({"question": "How often should I replace my toothbrush?"}, config)  # question input too
    assert third["follow_up"] is None and third["abstain_reason"] == "insufficient_support"


def test_follow_up_with_full_history_and_no_checkpointer(graph):
    """Stateless clients (Agent Chat UI without threads, RemoteGraph) send the whole transcript each time."""
    history = [HumanMessage(CRC), AIMessage("..."), HumanMessage("and what about ACS?")]
    out = graph.invoke({"messages": history})
    assert out["follow_up"]["previous"] == CRC and out["question"].startswith(CRC)
    assert "acs-crc-2018" in {e["doc_id"] for e in out["evidence"]}


class CondensingModel(GenericFakeChatModel):
    prompts: list = []

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.prompts.append(messages)
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def test_chat_model_condenses_the_follow_up(monkeypatch):
    model = CondensingModel(
        prompts=[], messages=iter([AIMessage("What does the ACS recommend for colorectal cancer screening?\n")]))
    monkeypatch.setattr("clinrag.follow_up.load_chat_model", lambda spec: model)
    follow_up = resolve_follow_up([CRC], "and what about ACS?", chat_model="fake:condense")
    assert follow_up.method == "chat_model"
    assert follow_up.resolved == "What does the ACS recommend for colorectal cancer screening?"
    assert CRC in model.prompts[0][-1].content and "and what about ACS?" in model.prompts[0][-1].content


def test_chat_model_failure_falls_back_to_the_rule(monkeypatch):
    class Broken:
        def invoke(self, _):
            raise RuntimeError("provider down")

    monkeypatch.setattr("clinrag.follow_up.load_chat_model", lambda spec: Broken())
    follow_up = resolve_follow_up([CRC], "and what about ACS?", chat_model="fake:broken")
    assert follow_up.method == "rule" and follow_up.resolved == f"{CRC} What about ACS?"
