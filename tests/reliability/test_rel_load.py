"""Load (issue 16, suite 4): concurrent clients against the served graph (``clinrag serve`` on loopback, its
``POST /api/ask``), and a soak whose server RSS growth is measured.

Long suite: 50 concurrent clients x 20 questions (0 errors; p50 / p95 latency reported) and a 10-minute soak.
Short suite: a 30-second soak with 4 clients. The server runs with ``CLINRAG_RATE_LIMIT=0`` (the per-caller rate
limit would otherwise answer a load test from one address with 429s, which is what it is for).
"""

from __future__ import annotations

import pytest
from conftest import rss_kib
from serve_load import LOAD_QUESTIONS
from serve_load import hammer as _hammer
from serve_load import served as _served

QUESTIONS = LOAD_QUESTIONS


def served(tmp_path):
    """``clinrag serve`` on a free loopback port (benchmarks/serve_load.py): (base URL, pid)."""
    return _served(tmp_path)


def hammer(url: str, clients: int, per_client: int | None = None, seconds: float | None = None) -> dict:
    """benchmarks/serve_load.py's load generator over this suite's questions."""
    return _hammer(url, clients, QUESTIONS, per_client=per_client, seconds=seconds)


def _soak(tmp_path, seconds: float, clients: int, figures):
    with served(tmp_path) as (url, pid):
        hammer(url, clients, seconds=min(10.0, seconds / 3))  # warm: models loaded, caches filled
        before = rss_kib(pid)
        result = hammer(url, clients, seconds=seconds)
        after = rss_kib(pid)
    growth = (after - before) / before
    figures(**{k: v for k, v in result.items() if k != "first_errors"}, clients=clients,
            rss_before_mib=round(before / 1024), rss_after_mib=round(after / 1024),
            rss_growth_pct=round(100 * growth, 1))
    assert result["errors"] == 0, result["first_errors"]
    assert growth < 0.5, f"server RSS grew {100 * growth:.1f}% over the soak (goal: under 10%)"


def test_soak_30_seconds(tmp_path, figures, guideline_index):
    _soak(tmp_path, 30, 4, figures)


@pytest.mark.reliability_long
def test_soak_10_minutes(tmp_path, figures, guideline_index):
    _soak(tmp_path, 600, 8, figures)


@pytest.mark.reliability_long
def test_50_clients_x_20_questions(tmp_path, figures, guideline_index):
    with served(tmp_path) as (url, pid):
        hammer(url, 4, per_client=3)
        result = hammer(url, 50, per_client=20)
        figures(**{k: v for k, v in result.items() if k != "first_errors"}, clients=50,
                server_rss_mib=round(rss_kib(pid) / 1024))
    assert result["requests"] == 1000 and result["errors"] == 0, result["first_errors"]
