"""LangGraph Studio's dev server, offline: start ``langgraph dev`` on the repo's langgraph.json and run questions
through it with the langgraph-sdk client, streaming node updates.

The server runs with the test session's environment (conftest: CLINRAG_INDEX_ROOT in a temp dir, HF offline, no
LangSmith tracing), so nothing is downloaded and the user's index cache is untouched.
"""

from __future__ import annotations

import re

import pytest
from studio_server import ASSISTANT, StudioServer  # the server itself: conftest.py's ``studio`` fixture

pytestmark = pytest.mark.integration

IN_SCOPE_QUESTION = (
    "Should average-risk adults start colorectal cancer screening at 45 or 50, and do the guidelines agree?"
)
OUT_OF_SCOPE_QUESTION = "I carry a BRCA1 mutation. When should I start mammograms?"
ANSWER_PATH = ["scope_guard", "hypotheses", "retrieve", "contradiction_check", "support_gate", "answer"]
CRC_DOC_IDS = {"uspstf-crc-2021", "acs-crc-2018", "acp-crc-2023"}

# Checkpoint serde complaints (langgraph.checkpoint.serde.jsonplus) about types stored in the graph state.
SERDE_WARNING = re.compile(
    r"unregistered type|deserialization allowlist|Failed to revive|Blocked deserialization", re.IGNORECASE
)


@pytest.fixture(scope="module")
def client(studio_client):
    return studio_client


def _run(client, studio: StudioServer, thread_id: str, question: str) -> tuple[list[str], dict]:
    """Stream one run in ``updates`` mode; return the nodes in the order their updates arrived, and the final state."""
    nodes: list[str] = []
    for part in client.runs.stream(thread_id, ASSISTANT, input={"question": question}, stream_mode="updates"):
        if part.event == "error":
            pytest.fail(f"run failed: {part.data}\n--- server log ---\n{studio.log_tail()}")
        if part.event == "updates" and isinstance(part.data, dict):
            nodes.extend(part.data.keys())
    state = client.threads.get_state(thread_id)
    return nodes, state["values"]


def test_in_scope_question_streams_every_node_and_answers(client, studio):
    thread = client.threads.create()
    nodes, values = _run(client, studio, thread["thread_id"], IN_SCOPE_QUESTION)

    assert nodes == ANSWER_PATH, studio.log_tail()
    assert values["decision"] == "answer", values.get("reason")
    doc_ids = {item["doc_id"] for item in values["evidence"]}
    assert CRC_DOC_IDS <= doc_ids, doc_ids
    assert "Not medical advice" in values["answer"]


def test_out_of_scope_question_abstains_at_scope_guard(client, studio):
    thread = client.threads.create()
    nodes, values = _run(client, studio, thread["thread_id"], OUT_OF_SCOPE_QUESTION)

    assert nodes == ["scope_guard", "abstain"], studio.log_tail()
    assert values["decision"] == "abstain"
    assert values["abstain_reason"] == "out_of_scope"


def test_follow_up_on_same_thread_reloads_checkpoint(client, studio):
    """A second run on a thread makes the server deserialize the stored state (as Studio does on every new turn).

    The stored state must reload without the checkpoint serializer meeting any clinrag class (those
    warnings announce that such state will be blocked, i.e. lost, in future versions).
    """
    thread = client.threads.create()
    _run(client, studio, thread["thread_id"], IN_SCOPE_QUESTION)
    nodes, values = _run(client, studio, thread["thread_id"], IN_SCOPE_QUESTION)

    assert nodes == ANSWER_PATH, studio.log_tail()
    assert values["decision"] == "answer"
    assert CRC_DOC_IDS <= {item["doc_id"] for item in values["evidence"]}

    serde_lines = [line.strip() for line in studio.log().splitlines() if SERDE_WARNING.search(line)]
    assert serde_lines == []
