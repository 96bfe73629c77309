"""The ASGI app of ``clinrag serve``: the page at ``/``, the API at ``/api`` (see ``clinrag.server.api``), the MCP
tool at ``/mcp`` (see ``clinrag.server.mcp_server``) and ``/healthz``.

``create_app()`` is also the uvicorn factory (``clinrag.server.app:create_app``, ``factory=True``) that every
``--workers`` process calls: without arguments it takes its Context from the ``CLINRAG_*`` variables that
``clinrag serve`` sets from its options, and ``CLINRAG_SERVE_HOST`` (the bound host) for the MCP endpoint's
DNS-rebinding protection (on for loopback hosts). At startup each worker loads the index once (building it when
missing or stale); the graph and the encoders are loaded once per process and cached.

Access control (``clinrag.server.security``): with ``CLINRAG_API_TOKEN`` set, ``/api/*`` and ``/mcp`` need
``Authorization: Bearer <token>``; a rate limit per caller (``CLINRAG_RATE_LIMIT`` requests per minute, default 60);
the MCP tool's ``corpus`` input (a path on this machine) only with ``CLINRAG_ALLOW_CORPUS_PATHS=1``. The page and
``/healthz`` stay open. No CORS headers are sent: the page is served from the same origin, and other origins are
not allowed.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from clinrag.context import Context
from clinrag.server import api
from clinrag.server.mcp_server import build_mcp
from clinrag.server.security import AccessControl, AccessSettings
from clinrag.server.service import ClinragService

log = logging.getLogger("clinrag.server")

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The page (index.html, app.js, style.css), served at ``/`` and ``/static/...``."""
HOST_VARIABLE = "CLINRAG_SERVE_HOST"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>clinrag</title></head>
<body><h1>clinrag</h1>
<p>The page is not installed. The API: <code>POST /api/ask</code>, <code>POST /api/ask/stream</code>,
<code>POST /api/threads</code>, <code>POST /api/threads/{id}/ask/stream</code>, <code>GET /api/corpus</code>,
<code>GET /healthz</code>; MCP at <code>/mcp</code>.</p>
<p>Published-guideline evidence, not medical advice.</p></body></html>
"""

SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY")]


async def index_page(_request: Request) -> Response:
    """``static/index.html``, or a placeholder naming the API while no page is installed."""
    page = STATIC_DIR / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse(PLACEHOLDER)


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every HTTP response (pure ASGI: streamed responses stay streamed)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(context: Context | None = None, *, chat_db: Path | None = None, host: str | None = None,
               warm: bool = True, access: AccessSettings | None = None) -> Starlette:
    """The app over ``context`` (default: ``Context()``, i.e. the ``CLINRAG_*`` variables, then the defaults).

    ``chat_db``: SQLite store of the threads (default: ``CLINRAG_CHAT_DB``, else the user data directory).
    ``host``: the host the server is bound to (default: ``CLINRAG_SERVE_HOST``, else 127.0.0.1); for a loopback
    host ``/mcp`` refuses requests whose Host or Origin header is not loopback (DNS-rebinding protection).
    ``warm``: load the index at startup rather than on the first request.
    ``access``: access token, rate limit and MCP corpus paths (default: ``AccessSettings.from_env()``)."""
    access = access or AccessSettings.from_env()
    service = ClinragService(context, chat_db=chat_db)
    mcp = build_mcp(service, allow_corpus_paths=access.allow_corpus_paths)
    mcp_app = mcp.streamable_http_app(streamable_http_path="/mcp", stateless_http=True,
                                      host=host or os.environ.get(HOST_VARIABLE, "127.0.0.1"))

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette):
        from starlette.concurrency import run_in_threadpool

        if warm:
            documents = await run_in_threadpool(service.warm)
            log.info("index ready: %d documents", documents)
        try:
            async with mcp.session_manager.run():
                yield
        finally:
            service.close()

    routes = [
        *api.ROUTES,
        *mcp_app.routes,  # /mcp (its session manager runs in the lifespan above)
        Route("/", index_page, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static"),
    ]
    app = Starlette(
        debug=False, routes=routes, lifespan=lifespan,
        exception_handlers={HTTPException: api.http_exception_handler, Exception: api.unhandled_exception_handler},
    )
    app.state.service = service
    app.state.access = access
    app.add_middleware(AccessControl, settings=access)
    app.add_middleware(SecurityHeaders)  # outermost: on the 401 and 429 answers too
    return app
