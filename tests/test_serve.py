"""``clinrag serve``: the HTTP API in-process (Starlette TestClient), streaming through a real uvicorn, and the
``clinrag serve`` command itself as a subprocess on a free loopback port (with the test session's index)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from clinrag.options import MAX_QUESTION_CHARS
from clinrag.schema import AskResult
from clinrag.server.app import create_app
from clinrag.server.security import AccessSettings
from clinrag.server.service import ClinragService

CLINRAG = Path(sys.executable).parent / "clinrag"
LUNG = "Who is eligible for lung cancer screening?"
PROSTATE = "What does the USPSTF recommend for prostate cancer screening?"
EVENT_ORDER = ["clinrag.scope", "clinrag.evidence", "clinrag.contradictions", "clinrag.support", "result", "end"]


@pytest.fixture(scope="module")
def client(guideline_index, tmp_path_factory) -> Iterator[TestClient]:
    """The app over the test session's index, with its own thread store; lifespan run (index loaded once). No rate
    limit here (tests/test_serve_security.py tests it): these tests make more than a minute's worth of calls."""
    app = create_app(chat_db=tmp_path_factory.mktemp("serve") / "threads.sqlite", access=AccessSettings(rate_limit=0))
    with TestClient(app) as test_client:
        yield test_client


def parse_sse(text: str) -> list[tuple[str, dict]]:
    """(event, data) of every server-sent event in ``text``."""
    events = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        events.append((fields["event"], json.loads(fields["data"])))
    return events


def assert_json_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert "Traceback" not in response.text and 'File "' not in response.text


def test_ask_returns_the_evidence_map(client):
    response = client.post("/api/ask", json={"question": LUNG})
    assert response.status_code == 200, response.text
    result = AskResult.model_validate(response.json())
    assert result.decision == "answer" and result.abstain_reason is None
    assert {"uspstf-lung-2021", "acs-lung-2023"} <= {e["doc_id"] for e in result.evidence}
    assert any(d.facet == "eligibility" for d in result.disagreements)
    assert "notes" not in response.json()  # present only when something was accepted but not used
    assert len(client.post("/api/ask", json={"question": LUNG, "k": 1}).json()["evidence"]) == 1


def test_ask_abstains_with_the_reason(client):
    result = client.post("/api/ask", json={"question": "I have crushing chest pain right now. Should I take an "
                                                        "aspirin?"}).json()
    assert result["decision"] == "abstain" and result["abstain_reason"] == "out_of_scope"
    assert "emergency" in result["answer"].lower()


def test_as_of_keeps_the_guidance_in_force_then(client):
    result = client.post("/api/ask", json={"question": LUNG, "as_of": "2015-06-01"}).json()
    assert result["decision"] == "answer"
    assert {e["doc_id"]: e["status"] for e in result["evidence"]} == {"uspstf-lung-2013": "current"}
    assert result["understood"]["as_of"] == "2015-06-01"


def test_stream_sends_the_events_in_order_then_the_result(client):
    response = client.post("/api/ask/stream", json={"question": LUNG})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    events = parse_sse(response.text)
    assert [name for name, _ in events] == EVENT_ORDER
    assert all(data["type"] == name for name, data in events[:4])
    assert events[2][1]["flagged"] is not None and events[3][1]["decision"] == "answer"
    result = AskResult.model_validate(events[4][1])
    assert result == AskResult.model_validate(client.post("/api/ask", json={"question": LUNG}).json())


class GatedGraph:
    """A stand-in graph that emits one event, then waits until the test has received it before finishing."""

    def __init__(self):
        self.gate = threading.Event()

    def stream(self, inputs, config=None, *, context=None, stream_mode=None):
        yield "custom", {"type": "clinrag.scope", "question": inputs["question"], "in_scope": True}
        self.gate.wait(timeout=20)
        yield "values", {"question": inputs["question"], "decision": "abstain",
                         "abstain_reason": "insufficient_support", "answer": "gated"}


@contextmanager
def uvicorn_thread(app) -> Iterator[str]:
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive(), "uvicorn did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_stream_forwards_each_event_as_it_happens(guideline_index):
    """The first event arrives while the graph is still running (it waits for the test), not batched at the end."""
    app = create_app(warm=False)
    graph = GatedGraph()
    app.state.service = ClinragService(graph=graph)
    with uvicorn_thread(app) as url, httpx.stream("POST", f"{url}/api/ask/stream", json={"question": LUNG},
                                                  timeout=30) as response:
        lines = response.iter_lines()
        assert next(lines) == "event: clinrag.scope"
        assert not graph.gate.is_set()  # received before the graph was allowed to finish
        graph.gate.set()
        rest = "\n".join(lines)
    assert "event: result" in rest and rest.rstrip().endswith("data: {}")


def test_threads_resolve_follow_ups_and_keep_the_transcript(client):
    thread = client.post("/api/threads").json()["thread_id"]
    assert client.get(f"/api/threads/{thread}").json() == {"thread_id": thread, "turns": 0, "messages": []}
    first = client.post(f"/api/threads/{thread}/ask", json={"question": PROSTATE}).json()
    assert first["decision"] == "answer" and first["follow_up"] is None and first["thread_id"] == thread
    turn = client.post(f"/api/threads/{thread}/ask", json={"question": "and what about ACS?"}).json()
    assert turn["follow_up"]["asked"] == "and what about ACS?" and turn["follow_up"]["previous"] == PROSTATE
    assert turn["question"] == turn["follow_up"]["resolved"] and "ACS" in turn["question"]
    assert any(e["org"] == "ACS" for e in turn["evidence"])
    transcript = client.get(f"/api/threads/{thread}").json()
    assert transcript["turns"] == 2
    assert [m["role"] for m in transcript["messages"]] == ["human", "ai", "human", "ai"]
    assert transcript["messages"][2]["content"] == "and what about ACS?"
    assert client.post("/api/threads").json()["thread_id"] != thread


def test_thread_stream_sends_the_events_then_the_turn_and_resolves_follow_ups(client):
    thread = client.post("/api/threads").json()["thread_id"]
    response = client.post(f"/api/threads/{thread}/ask/stream", json={"question": PROSTATE})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    first = parse_sse(response.text)
    assert [name for name, _ in first] == EVENT_ORDER
    assert first[4][1]["thread_id"] == thread and first[4][1]["follow_up"] is None
    assert first[4][1]["decision"] == "answer" and first[4][1]["question"] == PROSTATE

    events = parse_sse(client.post(f"/api/threads/{thread}/ask/stream", json={"question": "and what about ACS?"}).text)
    assert [name for name, _ in events] == ["clinrag.follow_up", *EVENT_ORDER]
    follow_up = events[0][1]
    assert follow_up["asked"] == "and what about ACS?" and follow_up["previous"] == PROSTATE
    assert "ACS" in follow_up["resolved"] and "prostate" in follow_up["resolved"].lower()
    turn = events[5][1]
    assert turn["thread_id"] == thread and turn["question"] == follow_up["resolved"]
    assert turn["follow_up"] == {k: follow_up[k] for k in turn["follow_up"]}
    assert any(e["org"] == "ACS" for e in turn["evidence"])
    AskResult.model_validate({k: v for k, v in turn.items() if k not in ("thread_id", "follow_up")})
    transcript = client.get(f"/api/threads/{thread}").json()
    assert transcript["turns"] == 2 and transcript["messages"][2]["content"] == "and what about ACS?"
    assert_json_error(client.post("/api/threads/not%20a%20name!/ask/stream", json={"question": LUNG}), 422,
                      "invalid_thread_id")


def test_corpus_lists_every_document_with_its_metadata(client):
    documents = client.get("/api/corpus").json()["documents"]
    assert len(documents) == 33
    assert set(documents[0]) == {"doc_id", "org", "title", "topic", "issued", "year", "status", "supersedes",
                                 "superseded_by", "source_type"}
    old = next(d for d in documents if d["doc_id"] == "uspstf-breast-2016")
    assert old["status"] == "superseded" and old["superseded_by"] == "uspstf-breast-2024" and old["year"] == 2016


def test_healthz(client):
    assert client.get("/healthz").json() == {"status": "ok", "corpus_documents": 33, "index": "ready"}


@pytest.mark.parametrize(("body", "status", "code"), [
    (b'{"question": ""}', 422, "empty_question"),
    (b'{"question": "   "}', 422, "empty_question"),
    (b"question=hello", 400, "invalid_json"),
    (b"", 400, "invalid_json"),
    (json.dumps({"question": "a" * (MAX_QUESTION_CHARS + 1)}).encode(), 422, "question_too_long"),
    (b'{"question": 42}', 422, "invalid_request"),
    (b'{"question": ["a"]}', 422, "invalid_request"),
    (b'{"question": "Who should be screened?", "k": "6"}', 422, "invalid_request"),
    (b'{"question": "Who should be screened?", "as_of": "June 2015"}', 422, "invalid_request"),
    (b'["Who should be screened?"]', 422, "invalid_request"),
    (b"{}", 422, "invalid_request"),
])
@pytest.mark.parametrize("path", ["/api/ask", "/api/ask/stream", "/api/threads/bad-requests/ask",
                                  "/api/threads/bad-requests/ask/stream"])
def test_bad_requests_get_a_json_4xx(client, path, body, status, code):
    assert_json_error(client.post(path, content=body, headers={"content-type": "application/json"}), status, code)


def test_other_errors_are_json_too(client):
    assert_json_error(client.post("/api/ask", content=b"x" * 70_000), 413, "body_too_large")
    assert_json_error(client.get("/api/nothing-here"), 404, "not_found")
    assert_json_error(client.get("/static/no-such-file.js"), 404, "not_found")
    assert_json_error(client.get("/api/ask"), 405, "method_not_allowed")
    assert_json_error(client.post("/api/threads/not%20a%20name!/ask", json={"question": LUNG}), 422,
                      "invalid_thread_id")


def test_an_internal_failure_is_a_json_500_without_a_traceback(guideline_index):
    class Broken:
        def invoke(self, *args, **kwargs):
            raise RuntimeError("secret internal detail")

    app = create_app(warm=False)
    app.state.service = ClinragService(graph=Broken())
    with TestClient(app, raise_server_exceptions=False) as broken:
        response = broken.post("/api/ask", json={"question": LUNG})
    assert_json_error(response, 500, "internal_error")
    assert "secret internal detail" not in response.text


def test_page_is_served_and_no_cors_is_offered(client):
    page = client.get("/", headers={"Origin": "https://elsewhere.example"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<html" in page.text.lower()
    assert "access-control-allow-origin" not in page.headers
    preflight = client.options("/api/ask", headers={"Origin": "https://elsewhere.example",
                                                    "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers
    assert page.headers["x-content-type-options"] == "nosniff"


# ---------------------------------------------------------------------------------- the real command

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


ACCESS_VARIABLES = ("CLINRAG_API_TOKEN", "CLINRAG_RATE_LIMIT", "CLINRAG_ALLOW_CORPUS_PATHS")


def serve_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The test session's environment (its index root: nothing is rebuilt) plus a private thread store, without
    access settings of the caller's shell (the default ones unless ``extra`` sets them)."""
    env = {k: v for k, v in os.environ.items() if k not in ACCESS_VARIABLES}
    return {**env, "CLINRAG_CHAT_DB": str(tmp_path / "threads.sqlite"), "PYTHONUNBUFFERED": "1", **extra}


@contextmanager
def running_serve(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``clinrag serve`` on a free loopback port (``env``: extra variables); yields its base URL once /healthz
    answers."""
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen([str(CLINRAG), "serve", "--port", str(port), *args], stdout=log,
                                stderr=subprocess.STDOUT, env=serve_env(tmp_path, **(env or {})),
                                start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, f"clinrag serve exited: {log_path.read_text()}"
            assert time.monotonic() < deadline, f"clinrag serve did not start: {log_path.read_text()}"
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    assert "Traceback" not in log_path.read_text(), log_path.read_text()
    assert f"clinrag serving on {url} (page at /, API at /api, MCP at /mcp)" in log_path.read_text()


@pytest.mark.integration
def test_clinrag_serve_command_answers_on_loopback(guideline_index, tmp_path):
    with running_serve(tmp_path) as url:
        assert httpx.get(f"{url}/healthz", timeout=10).json()["index"] == "ready"
        response = httpx.post(f"{url}/api/ask", json={"question": LUNG}, timeout=60)
        assert response.status_code == 200 and response.json()["decision"] == "answer"
        assert_json_error(httpx.post(f"{url}/api/ask", content=b"{", timeout=10), 400, "invalid_json")
