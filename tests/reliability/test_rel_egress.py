"""Egress (issue 16, suite 5): by default clinrag opens no outbound connection except loopback.

In-process, ``socket.socket.connect`` and ``socket.create_connection`` are replaced by a guard that fails on any
non-loopback address while ask, the agent tool and a chat turn run. Subprocesses (``clinrag ask``, ``ask --json -``,
``chat``, ``eval guideline-drift`` on a few cases, the agent tool) run with ``egress_guard/sitecustomize.py`` on
``PYTHONPATH``, which records every refused connect in a log that must stay empty. ``strace`` (when installed)
shows the same at the system-call level: native libraries, which the Python guard cannot see, included (ONNX
Runtime's telemetry upload was caught that way).
"""

from __future__ import annotations

import ipaddress
import json
import shutil
import socket
import subprocess
import sys

import pytest
from conftest import CLINRAG, HERE, REPO_ROOT, subprocess_env

QUESTION = "When should average-risk women start mammography?"


def _loopback(address) -> bool:
    if not isinstance(address, tuple):
        return True  # a Unix socket path
    try:
        return ipaddress.ip_address(str(address[0]).split("%")[0]).is_loopback
    except ValueError:
        return address[0] == "localhost"


@pytest.fixture
def no_egress(monkeypatch):
    attempts = []
    real_connect = socket.socket.connect

    def connect(self, address):
        if not _loopback(address):
            attempts.append(address)
            raise ConnectionRefusedError(f"egress guard: {address!r}")
        return real_connect(self, address)

    real_create = socket.create_connection

    def create_connection(address, *a, **k):
        if not _loopback(address):
            attempts.append(address)
            raise ConnectionRefusedError(f"egress guard: {address!r}")
        return real_create(address, *a, **k)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    yield attempts
    assert attempts == [], f"outbound connections attempted: {attempts}"


def test_in_process_ask_tool_and_chat_open_no_outbound_connection(no_egress, guideline_index, tmp_path):
    from clinrag.run import ask
    from clinrag.threads import chat_graph, chat_turn
    from clinrag.tools import evidence_tool

    assert ask(QUESTION).decision == "answer"
    assert json.loads(evidence_tool.invoke({"question": QUESTION}))["decision"] == "answer"
    with chat_graph(tmp_path / "threads.sqlite") as graph:
        assert chat_turn(graph, "t", QUESTION)["decision"] == "answer"


def _guarded(tmp_path) -> tuple[dict, object]:
    log = tmp_path / "egress.log"
    log.write_text("")
    env = subprocess_env(PYTHONPATH=str(HERE / "egress_guard"), CLINRAG_EGRESS_LOG=str(log),
                         CLINRAG_CHAT_DB=str(tmp_path / "threads.sqlite"))
    return env, log


def test_subprocesses_open_no_outbound_connection(tmp_path, guideline_index, figures):
    from clinrag.evals.guideline_drift import load_cases

    env, log = _guarded(tmp_path)
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(c.model_dump_json() + "\n" for c in load_cases(split="canonical")[:3]))
    tool = ("import json; from clinrag.tools import evidence_tool; "
            f"print(json.loads(evidence_tool.invoke({{'question': {QUESTION!r}}}))['decision'])")
    runs = {
        "ask": ([str(CLINRAG), "ask", QUESTION], None),
        "ask --json -": ([str(CLINRAG), "ask", "--json", "-"], f"{QUESTION}\nhow do I dose metformin?\n"),
        "chat": ([str(CLINRAG), "chat", "--thread", "egress"], f"{QUESTION}\n/exit\n"),
        "eval": ([str(CLINRAG), "eval", "guideline-drift", "--cases", str(cases), "--json-out",
                  str(tmp_path / "eval.json")], None),
        "agent tool": ([sys.executable, "-c", tool], None),
    }
    for name, (argv, stdin) in runs.items():
        proc = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=600, env=env, cwd=REPO_ROOT)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, (name, proc.stderr[-3000:])
    assert log.read_text() == "", log.read_text()
    figures(entry_points=len(runs), outbound_connections=0)


def test_the_guard_itself_catches_an_outbound_connection(tmp_path):
    env, log = _guarded(tmp_path)
    code = ("import socket\ntry:\n    socket.create_connection(('192.0.2.1', 80), timeout=1)\n"
            "except OSError as e:\n    print(e)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, env=env)
    assert "egress guard" in proc.stdout and "192.0.2.1" in log.read_text()


def test_importing_clinrag_turns_onnx_runtime_telemetry_off_and_keeps_a_users_choice():
    """ONNX Runtime >= 1.29 uploads telemetry from Linux unless ORT_DISABLE_TELEMETRY=1 is set before it starts;
    clinrag sets it on import (its ONNX sessions all start later), and leaves a value the user set alone."""
    code = "import os, clinrag; print(os.environ.get('ORT_DISABLE_TELEMETRY'))"
    env = {k: v for k, v in subprocess_env().items() if k != "ORT_DISABLE_TELEMETRY"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.stdout.strip() == "1", out.stderr[-2000:]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**env, "ORT_DISABLE_TELEMETRY": "0"})
    assert out.stdout.strip() == "0", out.stderr[-2000:]


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_strace_sees_no_outbound_connect(guideline_index):
    """docs/reliability.md's one-liner: every connect() clinrag ask makes, minus loopback and Unix sockets. Three
    runs: a background upload (ONNX Runtime's telemetry did this) may start only in some runs."""
    env = {k: v for k, v in subprocess_env().items() if k != "ORT_DISABLE_TELEMETRY"}  # as a user's shell has it
    for _ in range(3):
        proc = subprocess.run(["strace", "-f", "-e", "trace=connect", str(CLINRAG), "ask", QUESTION],
                              capture_output=True, text=True, timeout=300, env=env, cwd=REPO_ROOT)
        if "Operation not permitted" in proc.stderr and "ptrace" in proc.stderr:
            pytest.skip("ptrace is not permitted here")
        connects = [line for line in proc.stderr.splitlines() if "connect(" in line]
        outbound = [line for line in connects
                    if "127.0.0.1" not in line and "AF_UNIX" not in line and "::1" not in line]
        assert outbound == [], outbound
