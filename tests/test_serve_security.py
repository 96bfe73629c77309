"""Access control of ``clinrag serve`` (``clinrag.server.security``): the access token, the refusal to bind a
non-loopback address without one, no CORS, the body limit, the rate limit, and the MCP ``corpus`` input over HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from starlette.testclient import TestClient
from test_serve import LUNG, assert_json_error, running_serve, uvicorn_thread

from clinrag.cli.main import main
from clinrag.server.app import create_app
from clinrag.server.mcp_server import TOOL_NAME
from clinrag.server.security import MAX_BODY_BYTES, AccessSettings, RateLimiter, is_loopback

TOKEN = "correct-horse-battery-staple"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ELSEWHERE = "https://elsewhere.example"


@pytest.fixture(scope="module")
def guarded(guideline_index, tmp_path_factory) -> Iterator[TestClient]:
    """The app with an access token and no rate limit."""
    app = create_app(chat_db=tmp_path_factory.mktemp("guarded") / "threads.sqlite",
                     access=AccessSettings(token=TOKEN, rate_limit=0))
    with TestClient(app, base_url="http://127.0.0.1:8000") as test_client:  # a loopback Host, as /mcp wants
        yield test_client


# ---------------------------------------------------------------------------------- binding and settings

@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True),
                                                ("::1", True), ("[::1]", True), ("0.0.0.0", False), ("::", False),
                                                ("192.168.1.20", False), ("example.org", False)])
def test_is_loopback(host, loopback):
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_serve_refuses_a_non_loopback_address_without_a_token(host, monkeypatch, capsys):
    monkeypatch.delenv("CLINRAG_API_TOKEN", raising=False)
    assert main(["serve", "--host", host, "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "CLINRAG_API_TOKEN" in err and host in err
    assert err.startswith("clinrag: refusing to serve on")


@pytest.mark.integration
def test_clinrag_serve_with_a_token_wants_it(guideline_index, tmp_path):
    with running_serve(tmp_path, env={"CLINRAG_API_TOKEN": TOKEN, "CLINRAG_RATE_LIMIT": "5"}) as url:
        assert_json_error(httpx.get(f"{url}/api/corpus", timeout=10), 401, "unauthorized")
        assert httpx.get(f"{url}/api/corpus", headers=AUTH, timeout=10).status_code == 200
        assert httpx.get(f"{url}/", timeout=10).status_code == 200
        statuses = [httpx.get(f"{url}/api/corpus", headers=AUTH, timeout=10).status_code for _ in range(5)]
        assert statuses == [200, 200, 200, 200, 429]  # 5 a minute, one of them used above
    log = (tmp_path / "serve.log").read_text()
    assert "API and MCP calls need the access token" in log and TOKEN not in log


def test_serve_refuses_a_malformed_rate_limit(monkeypatch, capsys):
    monkeypatch.setenv("CLINRAG_RATE_LIMIT", "lots")
    assert main(["serve", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "CLINRAG_RATE_LIMIT" in err


def test_settings_from_the_environment():
    assert AccessSettings.from_env({}) == AccessSettings(token=None, rate_limit=60, allow_corpus_paths=False)
    assert AccessSettings.from_env({"CLINRAG_API_TOKEN": "  t  ", "CLINRAG_RATE_LIMIT": "0",
                                    "CLINRAG_ALLOW_CORPUS_PATHS": "1"}) == AccessSettings("t", 0, True)
    assert AccessSettings.from_env({"CLINRAG_API_TOKEN": "", "CLINRAG_ALLOW_CORPUS_PATHS": "yes"}).token is None
    with pytest.raises(ValueError, match="CLINRAG_RATE_LIMIT"):
        AccessSettings.from_env({"CLINRAG_RATE_LIMIT": "-5"})


# ---------------------------------------------------------------------------------- the access token

@pytest.mark.parametrize(("method", "path"), [("POST", "/api/ask"), ("POST", "/api/ask/stream"),
                                              ("POST", "/api/threads"), ("POST", "/api/threads/t-1/ask"),
                                              ("POST", "/api/threads/t-1/ask/stream"), ("GET", "/api/threads/t-1"),
                                              ("GET", "/api/corpus"), ("GET", "/api/nothing"), ("POST", "/mcp")])
@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", f"Basic {TOKEN}", "Bearer", f"bearer {TOKEN}x"])
def test_every_api_and_mcp_call_needs_the_token(guarded, method, path, authorization):
    headers = {"Authorization": authorization} if authorization else {}
    response = guarded.request(method, path, json={"question": LUNG}, headers=headers)
    assert_json_error(response, 401, "unauthorized")
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert response.headers["x-content-type-options"] == "nosniff"  # the security headers are on 401s too
    assert TOKEN not in response.text


def test_with_the_token_the_api_and_mcp_answer(guarded):
    assert guarded.post("/api/ask", json={"question": LUNG}, headers=AUTH).json()["decision"] == "answer"
    assert guarded.post("/api/ask", json={"question": LUNG},
                        headers={"Authorization": f"bearer  {TOKEN}"}).status_code == 200  # scheme is case-blind
    assert len(guarded.get("/api/corpus", headers=AUTH).json()["documents"]) == 33
    thread = guarded.post("/api/threads", headers=AUTH).json()["thread_id"]
    stream = guarded.post(f"/api/threads/{thread}/ask/stream", json={"question": LUNG}, headers=AUTH)
    assert "event: result" in stream.text and stream.text.rstrip().endswith("data: {}")
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "test", "version": "0"}}}
    mcp = guarded.post("/mcp", json=initialize, headers={**AUTH, "Accept": "application/json, text/event-stream"})
    assert mcp.status_code == 200, mcp.text


def test_the_page_and_healthz_stay_open(guarded):
    assert guarded.get("/healthz").json()["status"] == "ok"
    assert guarded.get("/").status_code == 200
    assert guarded.get("/static/app.js").status_code == 200


def test_no_cors_headers_for_other_origins(guarded):
    for response in (
        guarded.post("/api/ask", json={"question": LUNG}, headers={**AUTH, "Origin": ELSEWHERE}),
        guarded.get("/api/corpus", headers={**AUTH, "Origin": ELSEWHERE}),
        guarded.get("/healthz", headers={"Origin": ELSEWHERE}),
        guarded.options("/api/ask", headers={**AUTH, "Origin": ELSEWHERE, "Access-Control-Request-Method": "POST",
                                             "Access-Control-Request-Headers": "authorization, content-type"}),
    ):
        assert not any(name.startswith("access-control-") for name in response.headers), response.headers


# ---------------------------------------------------------------------------------- body limit

def padded(size: int) -> bytes:
    """A valid question body of exactly ``size`` bytes."""
    body = json.dumps({"question": LUNG, "pad": ""}).encode()
    return body[:-2] + b"x" * (size - len(body)) + body[-2:]


def test_bodies_up_to_64_kib_are_read_and_longer_ones_refused(guarded):
    assert len(padded(MAX_BODY_BYTES)) == MAX_BODY_BYTES == 64 * 1024
    json_headers = {**AUTH, "Content-Type": "application/json"}
    assert guarded.post("/api/ask", content=padded(MAX_BODY_BYTES), headers=json_headers).status_code == 200
    assert_json_error(guarded.post("/api/ask", content=padded(MAX_BODY_BYTES + 1), headers=json_headers), 413,
                      "body_too_large")

    def chunks():  # no Content-Length: the limit holds while the body is read
        for _ in range(20):
            yield b" " * 8192

    assert_json_error(guarded.post("/api/ask/stream", content=chunks(), headers=json_headers), 413, "body_too_large")
    assert_json_error(guarded.post("/mcp", content=chunks(), headers={**json_headers, "Accept": "application/json"}),
                      413, "body_too_large")


# ---------------------------------------------------------------------------------- rate limit

def test_rate_limiter_refills_over_time():
    now = [0.0]
    limiter = RateLimiter(3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("a") == pytest.approx(20.0)  # 3 a minute: one every 20 s
    assert limiter.take("b") == 0.0  # callers are counted apart
    now[0] = 10.0
    assert limiter.take("a") == pytest.approx(10.0)
    now[0] = 20.0
    assert limiter.take("a") == 0.0 and limiter.take("a") > 0


def test_rate_limit_answers_429_with_retry_after(guideline_index, tmp_path):
    app = create_app(chat_db=tmp_path / "threads.sqlite", warm=False, access=AccessSettings(rate_limit=3))
    with TestClient(app) as client:
        assert [client.get("/api/corpus").status_code for _ in range(3)] == [200, 200, 200]
        response = client.get("/api/corpus")
        assert_json_error(response, 429, "rate_limited")
        assert 1 <= int(response.headers["retry-after"]) <= 20
        assert_json_error(client.post("/api/ask", json={"question": LUNG}), 429, "rate_limited")
        assert client.get("/healthz").status_code == 200 and client.get("/").status_code == 200  # not counted


def test_rate_limit_counts_the_token_apart_from_failed_guesses(guideline_index, tmp_path):
    app = create_app(chat_db=tmp_path / "threads.sqlite", warm=False,
                     access=AccessSettings(token=TOKEN, rate_limit=2))
    with TestClient(app) as client:
        guesses = [client.get("/api/corpus", headers={"Authorization": f"Bearer guess-{i}"}) for i in range(3)]
        assert [r.status_code for r in guesses] == [401, 401, 429]  # guessing the token is rate limited
        assert [client.get("/api/corpus", headers=AUTH).status_code for _ in range(3)] == [200, 200, 429]


# ---------------------------------------------------------------------------------- MCP corpus paths over HTTP

async def call_tool(url: str, arguments: dict, headers: dict | None = None):
    async with create_mcp_http_client(headers=headers) as http, \
            Client(streamable_http_client(url, http_client=http), read_timeout_seconds=120) as client:
        return await client.call_tool(TOOL_NAME, arguments)


def test_mcp_over_http_refuses_corpus_paths_unless_allowed(guideline_index, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_id": "x"}\n')
    refusing = create_app(chat_db=tmp_path / "a.sqlite", access=AccessSettings(token=TOKEN, rate_limit=0))
    with uvicorn_thread(refusing) as url:
        refused = anyio.run(call_tool, f"{url}/mcp", {"question": LUNG, "corpus": str(bad)}, AUTH)
        answered = anyio.run(call_tool, f"{url}/mcp", {"question": LUNG}, AUTH)
        assert httpx.post(f"{url}/mcp", json={}, timeout=10).status_code == 401
    assert refused.is_error and "CLINRAG_ALLOW_CORPUS_PATHS=1" in refused.content[0].text
    assert "bad.jsonl" not in refused.content[0].text  # refused before the file is touched
    assert not answered.is_error and answered.structured_content["decision"] == "answer"

    allowing = create_app(chat_db=tmp_path / "b.sqlite", access=AccessSettings(rate_limit=0, allow_corpus_paths=True))
    with uvicorn_thread(allowing) as url:
        read = anyio.run(call_tool, f"{url}/mcp", {"question": LUNG, "corpus": str(bad)})
    assert read.is_error and "bad.jsonl:1" in read.content[0].text
