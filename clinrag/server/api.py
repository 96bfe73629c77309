"""The HTTP API of ``clinrag serve``: routes, request parsing and JSON errors. The page at ``/`` calls these.

Endpoints (shapes are stable; the page and the tests rely on them):

``POST /api/ask``
    Body ``{"question": str, "k"?: int (1-20), "as_of"?: "YYYY-MM-DD"}``. Returns the ``clinrag ask --json`` object
    (``clinrag.schema.AskResult``): question, decision ("answer" | "abstain"), abstain_reason, reason, evidence,
    contradictions, disagreements, hypotheses, answer. ``as_of`` is validated and passed to the graph when it
    takes one; until then it is ignored and the response carries ``"notes": [...]`` saying so (``notes`` is present
    only when there is something to note).
``POST /api/ask/stream``
    Same body. Server-sent events, sent as the graph runs: one ``event: clinrag.<what>`` per custom stream event
    (``clinrag.scope``, ``clinrag.evidence``, ``clinrag.contradictions``, ``clinrag.support``; see
    ``graph/events.py``) with the event's JSON as ``data``, then ``event: result`` (the AskResult JSON), then
    ``event: end`` (``data: {}``). A failure while running sends ``event: error`` (``{"error": {...}}``) then ``end``.
``POST /api/threads``
    Returns ``{"thread_id": str}``, a new thread name (nothing is stored until the first question).
``POST /api/threads/{thread_id}/ask``
    Body as ``/api/ask``. One chat turn on the thread, stored in the store of ``clinrag chat`` (SQLite,
    ``CLINRAG_CHAT_DB``; PostgreSQL when ``CLINRAG_DATABASE_URL`` is set, shared by every worker); a follow-up
    ("and what about ACS?") is resolved against the earlier turns. Returns the
    AskResult of the turn (``question`` = the resolved question) plus ``thread_id`` and ``follow_up``
    ({asked, previous, resolved, method} or null).
``POST /api/threads/{thread_id}/ask/stream``
    The same turn streamed as ``/api/ask/stream`` streams it (a follow-up first sends ``clinrag.follow_up``), then
    ``event: result`` with what ``/api/threads/{thread_id}/ask`` returns, then ``end``. The page asks every question
    this way. A turn runs to its end (and is stored) even if the client goes away.
``GET /api/threads/{thread_id}``
    ``{"thread_id", "turns": int, "messages": [{"role": "human" | "ai", "content": str}]}``.
``GET /api/corpus``
    ``{"documents": [{doc_id, org, title, topic, issued, year, status, supersedes, superseded_by, source_type}]}``.
``GET /healthz``
    ``{"status": "ok", "corpus_documents": int, "index": "ready"}``.

Errors are JSON, never a traceback: ``{"error": {"code": str, "message": str}}`` with status 400 (``invalid_json``),
401 (``unauthorized``), 404 (``not_found``), 405 (``method_not_allowed``), 413 (``body_too_large``, over
``MAX_BODY_BYTES`` = 64 KiB), 422 (``invalid_request``, ``empty_question``, ``question_too_long`` over
``MAX_QUESTION_CHARS`` = 2000 characters, ``invalid_thread_id``), 429 (``rate_limited``, with ``Retry-After``) or
500 (``internal_error``; the traceback goes to the server log only). 401 and 429 come from
``clinrag.server.security`` (access token and rate limit).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Iterator

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from clinrag.server.security import MAX_BODY_BYTES
from clinrag.server.service import ClinragService, RequestError, check_thread_id, new_thread_id, parse_question

log = logging.getLogger("clinrag.server")

HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def error_response(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def internal_error(exc: BaseException) -> JSONResponse:
    log.error("internal error", exc_info=exc)
    return error_response("internal_error", "internal server error (details are in the server log)", 500)


async def http_exception_handler(_request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    if status >= 500:
        return internal_error(exc)
    message = getattr(exc, "detail", None) or HTTP_CODES.get(status, "bad request").replace("_", " ")
    return error_response(HTTP_CODES.get(status, "bad_request"), str(message), status)


async def unhandled_exception_handler(_request: Request, exc: Exception) -> Response:
    return internal_error(exc)


def json_errors(endpoint: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Turn RequestError into its 4xx JSON and anything unexpected into a logged JSON 500 (no traceback sent)."""

    @functools.wraps(endpoint)
    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except RequestError as e:
            return error_response(e.code, e.message, e.status)
        except HTTPException:
            raise
        except Exception as e:  # noqa: BLE001 - the catch-all that keeps tracebacks off the wire
            return internal_error(e)

    return wrapped


async def read_json(request: Request) -> object:
    """The request body as JSON; RequestError 413 when over MAX_BODY_BYTES, 400 when it is not JSON."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise RequestError("body_too_large", f"the request body is over {MAX_BODY_BYTES} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise RequestError("body_too_large", f"the request body is over {MAX_BODY_BYTES} bytes", 413)
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise RequestError("invalid_json", "the request body is not valid JSON", 400) from None


def service_of(request: Request) -> ClinragService:
    return request.app.state.service


def with_notes(result: dict, notes: list[str]) -> dict:
    return {**result, "notes": notes} if notes else result


@json_errors
async def ask(request: Request) -> Response:
    q = parse_question(await read_json(request))
    result, notes = await run_in_threadpool(service_of(request).ask, q)
    return JSONResponse(with_notes(result, notes))


def sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def event_stream(items: Callable[[threading.Event], Iterator[tuple[str, dict]]]) -> StreamingResponse:
    """Server-sent events of ``items(cancelled)`` (run in a worker thread; each event is sent the moment it is made),
    then ``end``; a failure sends ``error`` then ``end``. ``cancelled`` is set once the client has gone away."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    cancelled = threading.Event()

    def put(item) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the loop is gone (server shutting down)
            cancelled.set()

    def produce() -> None:
        try:
            for item in items(cancelled):
                put(item)
        except RequestError as e:
            put(("error", {"error": {"code": e.code, "message": e.message}}))
        except Exception as e:  # noqa: BLE001
            log.error("streamed run failed", exc_info=e)
            put(("error", {"error": {"code": "internal_error", "message": "the run failed (see the server log)"}}))
        finally:
            put(None)

    async def events():
        loop.run_in_executor(None, produce)  # runs to the end of the graph, or until cancelled
        try:
            while (item := await queue.get()) is not None:
                yield sse(*item)
            yield sse("end", {})
        finally:
            cancelled.set()  # the client went away: a thread-less graph stops at its next event

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


@json_errors
async def ask_stream(request: Request) -> Response:
    q = parse_question(await read_json(request))  # a bad request is a JSON 4xx, before any event is sent
    service = service_of(request)
    return event_stream(lambda cancelled: service.stream(q, cancelled))


@json_errors
async def new_thread(_request: Request) -> Response:
    return JSONResponse({"thread_id": new_thread_id()})


@json_errors
async def thread_ask(request: Request) -> Response:
    q = parse_question(await read_json(request))
    thread_id = request.path_params["thread_id"]
    return JSONResponse(await run_in_threadpool(service_of(request).thread_ask, thread_id, q))


@json_errors
async def thread_ask_stream(request: Request) -> Response:
    q = parse_question(await read_json(request))
    thread_id = check_thread_id(request.path_params["thread_id"])  # 422 before any event is sent
    service = service_of(request)
    return event_stream(lambda _cancelled: service.thread_stream(thread_id, q))  # a turn is never cut short


@json_errors
async def thread_transcript(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(service_of(request).transcript, request.path_params["thread_id"]))


@json_errors
async def corpus(request: Request) -> Response:
    return JSONResponse({"documents": await run_in_threadpool(service_of(request).corpus)})


@json_errors
async def healthz(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(service_of(request).health))


ROUTES = [
    Route("/healthz", healthz, methods=["GET"]),
    Route("/api/ask", ask, methods=["POST"]),
    Route("/api/ask/stream", ask_stream, methods=["POST"]),
    Route("/api/threads", new_thread, methods=["POST"]),
    Route("/api/threads/{thread_id}/ask", thread_ask, methods=["POST"]),
    Route("/api/threads/{thread_id}/ask/stream", thread_ask_stream, methods=["POST"]),
    Route("/api/threads/{thread_id}", thread_transcript, methods=["GET"]),
    Route("/api/corpus", corpus, methods=["GET"]),
]
