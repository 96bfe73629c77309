"""Polite HTTP for NCBI services: one request at a time under a rate limit, retried with backoff.

NCBI allows 3 requests per second without an API key and 10 with one (``NCBI_API_KEY``); going faster gets
HTTP 429 and, if it persists, a blocked address. Transient failures (429, 5xx, timeouts, refused
connections) are retried with exponential backoff, honouring ``Retry-After`` when the server sends it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

RETRY_STATUS = {429, 500, 502, 503, 504}
USER_AGENT = "clinrag-evidence-retrieval"


class NCBIError(RuntimeError):
    """An NCBI service answered with an error that retrying does not fix (or retries ran out)."""


def api_key_from_env() -> str | None:
    return os.environ.get("NCBI_API_KEY") or None


def requests_per_second(api_key: str | None) -> float:
    """NCBI's published limits: 10/s with an API key, 3/s without."""
    return 10.0 if api_key else 3.0


@dataclass
class RateLimiter:
    """At most ``rate`` request starts per second, shared by every thread that holds this limiter."""

    rate: float
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    _next_start: float = field(default=0.0, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def wait(self) -> None:
        with self._lock:
            now = self.clock()
            if now < self._next_start:
                self.sleep(self._next_start - now)
                now = self._next_start
            self._next_start = now + 1.0 / self.rate


@dataclass
class HttpClient:
    """GET/POST with a rate limit and retries; ``timeout`` seconds per attempt."""

    limiter: RateLimiter
    max_attempts: int = 4
    backoff_base: float = 1.0
    timeout: float = 30.0
    sleep: Callable[[float], None] = time.sleep

    def request(self, url: str, params: dict[str, str], method: str = "GET") -> bytes:
        body = urllib.parse.urlencode(params).encode()
        if method == "GET":
            req = urllib.request.Request(f"{url}?{body.decode()}", headers={"User-Agent": USER_AGENT})
        else:
            req = urllib.request.Request(url, data=body, headers={
                "User-Agent": USER_AGENT, "Content-Type": "application/x-www-form-urlencoded"})
        last_error = ""
        for attempt in range(1, self.max_attempts + 1):
            self.limiter.wait()
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return resp.read()
            except urllib.error.HTTPError as e:
                last_error = f"HTTP {e.code} {e.reason}"
                if e.code not in RETRY_STATUS:
                    raise NCBIError(f"{url}: {last_error}: {e.read()[:300].decode(errors='replace')}") from None
                delay = _retry_after(e.headers.get("Retry-After")) or self.backoff_base * 2 ** (attempt - 1)
            except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
                last_error = f"{type(e).__name__}: {getattr(e, 'reason', e)}"
                delay = self.backoff_base * 2 ** (attempt - 1)
            if attempt < self.max_attempts:
                log.warning("%s failed (%s); retry %d/%d in %.1f s", url, last_error, attempt, self.max_attempts - 1, delay)
                self.sleep(delay)
        raise NCBIError(f"{url}: giving up after {self.max_attempts} attempts ({last_error})")


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
