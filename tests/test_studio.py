"""LangGraph Studio's dev server, offline: start ``langgraph dev`` on the repo's langgraph.json and run questions
through it with the langgraph-sdk client, streaming node updates.

The server runs with the test session's environment (conftest: CLINRAG_INDEX_ROOT in a temp dir, HF offline, no
LangSmith tracing), so nothing is downloaded and the user's index cache is untouched.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.integration

REPO_ROOT = Path(__file__).resolve().parents[1]
LANGGRAPH = Path(sys.executable).parent / "langgraph"
ASSISTANT = "clinrag"  # the graph id in langgraph.json

STARTUP_TIMEOUT_S = 120
# The first run loads the sentence-transformers / NLI models and builds the index: give reads plenty of time.
CLIENT_TIMEOUT = httpx.Timeout(connect=10.0, read=300.0, write=30.0, pool=30.0)

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
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _read_log(path: Path) -> str:
    try:
        return ANSI.sub("", path.read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return ""


def _tail(text: str, limit: int = 8000) -> str:
    return text if len(text) <= limit else "...\n" + text[-limit:]


def _stop(proc: subprocess.Popen) -> None:
    """Terminate the server's whole process group: SIGTERM, then SIGKILL if it lingers."""
    if proc.poll() is not None:
        return
    for sig, wait_s in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


class StudioServer:
    def __init__(self, url: str, log_path: Path):
        self.url = url
        self.log_path = log_path

    def log(self) -> str:
        return _read_log(self.log_path)

    def log_tail(self) -> str:
        return _tail(self.log())


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    """``langgraph dev`` on a free port, cwd = repo root; always torn down (process group), even on failure."""
    assert LANGGRAPH.exists(), f"langgraph CLI not found next to the interpreter: {LANGGRAPH}"
    assert (REPO_ROOT / "langgraph.json").is_file()

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = tmp_path_factory.mktemp("studio") / "langgraph-dev.log"
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "LANGSMITH_TRACING": "false",
        "PYTHONUNBUFFERED": "1",
    }
    # The in-memory runtime persists threads under ./.langgraph_api (relative to the cwd); remove it afterwards
    # unless a developer already had one there.
    persistence_dir = REPO_ROOT / ".langgraph_api"
    had_persistence_dir = persistence_dir.exists()

    cmd = [
        str(LANGGRAPH), "dev", "--no-browser", "--no-reload",
        "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so teardown reaches every child
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"langgraph dev exited with code {proc.returncode} before answering /ok:\n{_tail(_read_log(log_path))}"
                )
            try:
                if httpx.get(f"{url}/ok", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev did not answer {url}/ok within {STARTUP_TIMEOUT_S} s:\n{_tail(_read_log(log_path))}")
            time.sleep(0.5)
        yield StudioServer(url, log_path)
    finally:
        _stop(proc)
        if not had_persistence_dir:
            shutil.rmtree(persistence_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def client(studio):
    from langgraph_sdk import get_sync_client

    # api_key=None: don't forward a developer's LANGSMITH/LANGGRAPH API key to the local server.
    sync_client = get_sync_client(url=studio.url, api_key=None, timeout=CLIENT_TIMEOUT)
    yield sync_client
    sync_client.close()


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
