"""Polite HTTP for NCBI services: one request at a time under a rate limit, retried with backoff.

NCBI allows 3 requests per second without an API key and 10 with one (``NCBI_API_KEY``); going faster gets
HTTP 429 and, if it persists, a blocked address. Transient failures (429, 5xx, timeouts, refused
connections) are retried (tenacity) with exponential backoff, honouring ``Retry-After`` when the server sends it.
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

from tenacity import RetryError, Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

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


class _Transient(Exception):
    """A failure worth retrying (429, 5xx, timeouts, refused connections); ``retry_after``: the server's wish."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class HttpClient:
    """GET/POST with a rate limit and retries (tenacity); ``timeout`` seconds per attempt."""

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

        def attempt() -> bytes:
            self.limiter.wait()
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return resp.read()
            except urllib.error.HTTPError as e:
                error = f"HTTP {e.code} {e.reason}"
                if e.code not in RETRY_STATUS:
                    raise NCBIError(f"{url}: {error}: {e.read()[:300].decode(errors='replace')}") from None
                raise _Transient(error, _retry_after(e.headers.get("Retry-After"))) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
                raise _Transient(f"{type(e).__name__}: {getattr(e, 'reason', e)}") from None

        backoff = wait_exponential(multiplier=self.backoff_base)  # backoff_base * 2 ** (attempt - 1)

        def wait(state) -> float:  # Retry-After when the server sends one
            return state.outcome.exception().retry_after or backoff(state)

        def before_sleep(state) -> None:
            log.warning("%s failed (%s); retry %d/%d in %.1f s", url, state.outcome.exception(),
                        state.attempt_number, self.max_attempts - 1, state.next_action.sleep)

        retrying = Retrying(retry=retry_if_exception_type(_Transient), stop=stop_after_attempt(self.max_attempts),
                            wait=wait, sleep=self.sleep, before_sleep=before_sleep)
        try:
            return retrying(attempt)
        except RetryError as e:
            last_error = e.last_attempt.exception()
            raise NCBIError(f"{url}: giving up after {self.max_attempts} attempts ({last_error})") from None


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
