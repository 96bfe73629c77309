"""clinrag as a tool inside a larger LangChain agent (create_agent with a scripted tool-calling chat model)."""

from __future__ import annotations

import dataclasses
import json

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from clinrag.context import Context
from clinrag.tools import evidence_tool
from clinrag.tools.agent_tool import clinrag_context

LUNG_QUESTION = "Who is eligible for lung cancer screening, and do the organizations agree?"
BREAST_QUESTION = "When should average-risk women start mammography, and do the organizations agree?"
EVENT_ORDER = ["clinrag.scope", "clinrag.evidence", "clinrag.contradictions", "clinrag.support"]


class ToolCallingFake(GenericFakeChatModel):
    """Replies from a script and records what it was shown; bind_tools keeps the script."""

    seen: list = []

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.seen.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def scripted_agent(question: str, context_schema=Context):
    model = ToolCallingFake(seen=[], messages=iter([
        AIMessage("", tool_calls=[{"name": "clinrag_evidence", "args": {"question": question}, "id": "call-1"}]),
        AIMessage("USPSTF and ACS differ; see the evidence map."),
    ]))  # fmt: skip
    return model, create_agent(model, tools=[evidence_tool], context_schema=context_schema)


def test_tool_has_a_precise_name_description_and_schema():
    assert evidence_tool.name == "clinrag_evidence"
    schema = evidence_tool.tool_call_schema.model_json_schema()
    assert schema["required"] == ["question"] and set(schema["properties"]) == {"question", "k"}
    assert "runtime" not in json.dumps(schema)  # injected, never shown to the model
    for phrase in ("superseded", "abstain", "disagreements", "Not medical advice"):
        assert phrase in evidence_tool.description


def test_agent_calls_the_tool_gets_the_evidence_and_streams_clinrag_events(guideline_index):
    model, agent = scripted_agent(BREAST_QUESTION)
    events, tool_messages = [], []
    for mode, chunk in agent.stream(
        {"messages": [HumanMessage("Mammograms: when to start?")]}, context=Context(k=3),
        stream_mode=["custom", "updates"],
    ):
        if mode == "custom":
            events.append(chunk)
        elif "tools" in chunk:
            tool_messages += chunk["tools"]["messages"]

    assert [e["type"] for e in events] == EVENT_ORDER
    assert len(events[1]["items"]) == 3  # k from the parent's context
    (message,) = tool_messages
    assert isinstance(message, ToolMessage) and message.tool_call_id == "call-1"
    evidence_map = json.loads(message.content)
    assert evidence_map["decision"] == "answer" and evidence_map["abstain_reason"] is None
    assert len(evidence_map["evidence"]) == 3 and all("breast" in d["doc_id"] for d in evidence_map["evidence"])
    assert all(d["key_sentences"] and d["status"] == "current" for d in evidence_map["evidence"])
    assert evidence_map["disagreements"] and "Not medical advice" in evidence_map["notice"]
    assert [e["doc_id"] for e in message.artifact["evidence"]] == [d["doc_id"] for d in evidence_map["evidence"]]
    # The model's second turn was shown the tool's evidence map.
    assert model.seen[1][-1].content == message.content


@dataclasses.dataclass
class AppContext:
    user_id: str
    clinrag: Context


def test_parent_context_configures_clinrag(guideline_index):
    _, agent = scripted_agent(LUNG_QUESTION, context_schema=AppContext)
    out = agent.invoke({"messages": [HumanMessage("lung?")]}, context=AppContext("u1", Context(support_threshold=0.99)))
    evidence_map = json.loads(next(m for m in out["messages"] if isinstance(m, ToolMessage)).content)
    assert evidence_map["decision"] == "abstain" and evidence_map["abstain_reason"] == "insufficient_support"
    assert "0.99" in evidence_map["reason"]


def test_abstention_carries_the_message_without_an_agent(guideline_index):
    content = evidence_tool.invoke({"question": "I have crushing chest pain right now. Should I take an aspirin?"})
    evidence_map = json.loads(content)
    assert evidence_map["decision"] == "abstain" and evidence_map["abstain_reason"] == "out_of_scope"
    assert evidence_map["evidence"] == [] and "emergency" in evidence_map["message"].lower()


def test_context_from_parent_shapes():
    assert clinrag_context(None) == Context()
    assert clinrag_context({"user_id": "u1", "k": 4}).k == 4  # unrelated keys are ignored
    assert clinrag_context({"clinrag": {"support_threshold": 0.7}}).support_threshold == 0.7
    assert clinrag_context(Context(k=2), k=5).k == 5
