"""Access control of ``clinrag serve``: an access token, a rate limit and a body limit for ``/mcp``.

``/api/*`` and ``/mcp`` are the *protected* paths; the page (``/``, ``/static/...``) and ``/healthz`` stay open.

- **Access token** (``CLINRAG_API_TOKEN``): when set, every protected call must carry
  ``Authorization: Bearer <token>``; otherwise it is answered 401 ``unauthorized`` (JSON, with
  ``WWW-Authenticate: Bearer``). The comparison takes constant time (``hmac.compare_digest``). ``clinrag serve``
  refuses to bind a non-loopback address without one.
- **Rate limit** (``CLINRAG_RATE_LIMIT``, requests per minute, default 60, ``0`` = off): a token bucket per caller
  (the token when one is set and presented, else the client's IP address) that holds a minute's worth of requests
  and refills continuously. An empty bucket is answered 429 ``rate_limited`` with ``Retry-After`` (seconds). Calls
  with a wrong or missing token count against their IP address, so guessing the token is rate limited too. The
  buckets live in each worker process: ``--workers N`` allows up to N times the limit.
- **Body limit**: ``/mcp`` request bodies over ``MAX_BODY_BYTES`` (64 KiB, the API's limit) are answered 413
  ``body_too_large`` before the MCP server reads them (the API routes check their own bodies).

No CORS headers are ever added: other origins cannot read the answers in a browser.
"""

from __future__ import annotations

import dataclasses
import hmac
import ipaddress
import math
import os
import time
from collections.abc import Callable, Mapping

from starlette.responses import JSONResponse

TOKEN_VARIABLE = "CLINRAG_API_TOKEN"
RATE_VARIABLE = "CLINRAG_RATE_LIMIT"
CORPUS_PATHS_VARIABLE = "CLINRAG_ALLOW_CORPUS_PATHS"
"""Set to ``1`` to let the MCP tool at ``/mcp`` take its ``corpus`` input (a path on the server's machine)."""
DEFAULT_RATE_LIMIT = 60
"""Requests per minute per caller when ``CLINRAG_RATE_LIMIT`` is not set."""
MAX_BODY_BYTES = 64 * 1024
"""Largest request body accepted (bytes), by the API and by ``/mcp``."""
MAX_TRACKED_CALLERS = 10_000
"""Callers whose buckets are kept; past it, the buckets that have refilled completely are forgotten."""


@dataclasses.dataclass(frozen=True)
class AccessSettings:
    """Who may call the protected paths, and how often.

    ``token``: the access token every protected call must present (None: no token asked for).
    ``rate_limit``: requests per minute per caller (0: no limit).
    ``allow_corpus_paths``: whether the MCP tool over HTTP takes its ``corpus`` input (a path on the server)."""

    token: str | None = None
    rate_limit: int = DEFAULT_RATE_LIMIT
    allow_corpus_paths: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> AccessSettings:
        """The settings of ``CLINRAG_API_TOKEN``, ``CLINRAG_RATE_LIMIT`` and ``CLINRAG_ALLOW_CORPUS_PATHS``
        (ValueError, one line, for a rate limit that is not a whole number of at least 0)."""
        environ = os.environ if environ is None else environ
        raw = environ.get(RATE_VARIABLE, "").strip()
        if raw and not raw.isdigit():
            raise ValueError(f"{RATE_VARIABLE} must be a whole number of requests per minute (0 = no limit), "
                             f"not {raw!r}")
        return cls(token=environ.get(TOKEN_VARIABLE, "").strip() or None,
                   rate_limit=int(raw) if raw else DEFAULT_RATE_LIMIT,
                   allow_corpus_paths=environ.get(CORPUS_PATHS_VARIABLE, "").strip() == "1")


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server reachable from this machine only."""
    host = host.strip().strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def is_protected(path: str) -> bool:
    """The API and the MCP endpoint; not the page, its assets or ``/healthz``."""
    return path == "/api" or path.startswith("/api/") or path == "/mcp" or path.startswith("/mcp/")


class RateLimiter:
    """Token buckets: each caller may make ``per_minute`` requests at once, and one more every 60/per_minute s."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic):
        self.capacity = float(per_minute)
        self.per_second = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # caller -> (requests left, when counted)

    def take(self, caller: str) -> float:
        """Count one request of ``caller``: 0 when allowed, else the seconds until one would be."""
        now = self.clock()
        left, then = self._buckets.get(caller, (self.capacity, now))
        left = min(self.capacity, left + (now - then) * self.per_second)
        if left >= 1:
            self._buckets[caller] = (left - 1, now)
            if len(self._buckets) > MAX_TRACKED_CALLERS:
                self._forget_full(now)
            return 0.0
        self._buckets[caller] = (left, now)
        return (1 - left) / self.per_second

    def _forget_full(self, now: float) -> None:
        full = [c for c, (left, then) in self._buckets.items()
                if left + (now - then) * self.per_second >= self.capacity]
        for caller in full or list(self._buckets):  # none full: a flood of callers, start afresh
            del self._buckets[caller]


def bearer_token(headers: list[tuple[bytes, bytes]]) -> bytes | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.strip().partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return token.strip()
    return None


def error(code: str, message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


class AccessControl:
    """ASGI middleware enforcing ``AccessSettings`` on the protected paths (pure ASGI: streams stay streamed)."""

    def __init__(self, app, settings: AccessSettings, clock: Callable[[], float] = time.monotonic):
        self.app = app
        self.token = settings.token.encode() if settings.token else None
        self.limiter = RateLimiter(settings.rate_limit, clock) if settings.rate_limit > 0 else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not is_protected(scope["path"]):
            return await self.app(scope, receive, send)
        presented = bearer_token(scope.get("headers") or [])
        allowed = self.token is None or (presented is not None and hmac.compare_digest(presented, self.token))
        client = scope.get("client")
        caller = "token" if allowed and self.token else f"ip:{client[0] if client else 'unknown'}"
        wait = self.limiter.take(caller) if self.limiter else 0.0
        if wait:
            response = error("rate_limited", "too many requests; try again in a moment", 429,
                             {"Retry-After": str(max(1, math.ceil(wait)))})
        elif not allowed:
            response = error("unauthorized", "this server needs its access token: send 'Authorization: Bearer "
                             "<token>'", 401, {"WWW-Authenticate": 'Bearer realm="clinrag"'})
        elif scope["path"].startswith("/mcp") and scope["method"] == "POST":
            return await self.mcp_with_body_limit(scope, receive, send)
        else:
            return await self.app(scope, receive, send)
        await response(scope, receive, send)

    async def mcp_with_body_limit(self, scope, receive, send):
        """Read the whole ``/mcp`` request body (413 past MAX_BODY_BYTES), then hand it on to the MCP server."""
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY_BYTES:
                return await error("body_too_large", f"the request body is over {MAX_BODY_BYTES} bytes",
                                   413)(scope, receive, send)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
