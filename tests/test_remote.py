"""The graph served by ``langgraph dev`` used remotely: as a RemoteGraph node of another graph, as an MCP tool at
``/mcp`` (streamable HTTP, official ``mcp`` client), and as a chat thread (what Studio's chat panel and the Agent
Chat UI send). One server per test session (conftest ``studio``), on a free loopback port, offline."""

from __future__ import annotations

import ast
from typing import TypedDict

import anyio
import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.pregel.remote import RemoteGraph
from studio_server import ASSISTANT

pytestmark = pytest.mark.integration

LUNG = "Who is eligible for lung cancer screening?"
PROSTATE = "What does the USPSTF recommend for prostate cancer screening?"


class ReviewState(TypedDict, total=False):
    question: str
    decision: str
    abstain_reason: str | None
    evidence: list[dict]
    report: str


def report(state: ReviewState) -> dict:
    """A parent-graph step that uses clinrag's output."""
    docs = ", ".join(f"{e['org']} {e['doc_id']} ({e['status']})" for e in state["evidence"])
    return {"report": f"{state['decision']}: {docs}" if docs else f"{state['decision']} ({state['abstain_reason']})"}


def review_graph(studio_client):
    remote = RemoteGraph(ASSISTANT, sync_client=studio_client, name="clinrag")
    builder = StateGraph(ReviewState)
    builder.add_node("clinrag", remote)
    builder.add_node(report)
    builder.add_edge(START, "clinrag")
    builder.add_edge("clinrag", "report")
    builder.add_edge("report", END)
    return builder.compile()


def test_remote_graph_as_a_node_streams_clinrag_events_to_the_parent(studio_client, studio):
    parent = review_graph(studio_client)
    events, updates = [], {}
    for namespace, mode, chunk in parent.stream({"question": LUNG}, stream_mode=["custom", "updates"], subgraphs=True):
        if mode == "custom":
            events.append((namespace, chunk["type"]))
        elif namespace == ():
            updates.update(chunk)
    assert [kind for _, kind in events] == ["clinrag.scope", "clinrag.evidence", "clinrag.contradictions",
                                            "clinrag.support"], studio.log_tail()
    assert all(ns[0].startswith("clinrag:") for ns, _ in events)  # from inside the remote node
    assert updates["clinrag"]["decision"] == "answer"
    assert updates["report"]["report"].startswith("answer: USPSTF uspstf-lung-2021 (current)")


def test_remote_graph_node_abstains_with_the_reason(studio_client):
    out = review_graph(studio_client).invoke({"question": "I carry a BRCA1 mutation. When should I start mammograms?"})
    assert out["report"] == "abstain (out_of_scope)" and out["evidence"] == []


async def _mcp_session(url: str, calls):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(f"{url}/mcp") as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [await call(session) for call in calls]


def test_mcp_lists_clinrag_as_a_described_tool_and_calls_it(studio):
    async def list_tools(session):
        return (await session.list_tools()).tools

    async def ask_lung(session):
        return await session.call_tool(ASSISTANT, {"question": LUNG})

    async def chat_message(session):  # the schema MCP clients see offers ``messages`` as one string
        return await session.call_tool(
            ASSISTANT, {"messages": "I have crushing chest pain right now. Should I take an aspirin?"})

    tools, result, chat = anyio.run(_mcp_session, studio.url, [list_tools, ask_lung, chat_message])
    (tool,) = [t for t in tools if t.name == ASSISTANT]
    assert "without flattening the evidence" in tool.description and "abstain" in tool.description
    question = tool.input_schema["properties"]["question"]
    assert question["type"] == "string" and "published clinical guidance" in question["description"]

    assert not result.is_error, result.content
    values = ast.literal_eval(result.content[0].text)  # the server returns the output state's repr
    assert values["decision"] == "answer" and "Not medical advice" in values["answer"]
    assert {"uspstf-lung-2021", "acs-lung-2023"} <= {e["doc_id"] for e in values["evidence"]}
    assert tool.input_schema["properties"]["messages"]["type"] == "string"
    chat_values = ast.literal_eval(chat.content[0].text)
    assert chat_values["abstain_reason"] == "out_of_scope" and "emergency" in chat_values["answer"].lower()


def test_chat_thread_on_the_server_resolves_follow_ups(studio_client, studio):
    """What Studio's chat panel and the Agent Chat UI send: one human message per run on a thread."""
    thread = studio_client.threads.create()["thread_id"]
    for text in (PROSTATE, "and in 2012?"):
        studio_client.runs.wait(thread, ASSISTANT, input={"messages": [{"type": "human", "content": text}]})
    values = studio_client.threads.get_state(thread)["values"]
    assert [m["type"] for m in values["messages"]] == ["human", "ai", "human", "ai"], studio.log_tail()
    assert values["follow_up"]["previous"] == PROSTATE and values["question"] == f"{PROSTATE} In 2012?"
    assert "uspstf-prostate-2012" in {e["doc_id"] for e in values["evidence"]}
