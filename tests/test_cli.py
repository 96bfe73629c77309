"""The clinrag command line: ask (rich and JSON, stdin), index build, eval."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from clinrag.cli.main import main
from clinrag.evals.guideline_drift import case_id, load_cases

JSON_KEYS = {"question", "decision", "abstain_reason", "reason", "evidence", "contradictions", "hypotheses", "answer"}
EVIDENCE_KEYS = {"doc_id", "org", "title", "issued", "year", "status", "source_type", "score", "support_score", "text"}


def test_ask_json(capsys, guideline_index):
    assert main(["ask", "--json", "Should average-risk adults start colorectal cancer screening at 45 or 50?"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert JSON_KEYS <= set(out) and out["decision"] == "answer" and out["abstain_reason"] is None
    assert out["evidence"] and all(EVIDENCE_KEYS <= set(e) for e in out["evidence"])
    assert all({"doc_a", "doc_b", "score", "sentence_a", "sentence_b"} <= set(c) for c in out["contradictions"])
    assert out["hypotheses"] is None


def test_ask_rich_output_shows_map_and_citations(capsys, guideline_index):
    assert main(["ask", "How did the USPSTF colorectal cancer screening recommendation change?"]) == 0
    out = capsys.readouterr().out
    assert "Evidence map" in out and "superseded" in out and "[uspstf-crc-2016]" in out
    assert "Not medical advice" in out


def test_ask_stdin_one_json_per_line(capsys, monkeypatch, guideline_index):
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        "I am pregnant. Should I get a mammogram?\n\nHow often should I replace my toothbrush?\n"))
    assert main(["ask", "--json", "-"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [json.loads(l).get("abstain_reason") for l in lines if "error" not in json.loads(l)] == [
        "out_of_scope", "insufficient_support"]


def test_index_build_bad_corpus_exits_2_with_location(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_id": "x", "source_type": "guideline", "org": "O", "title": "T"}\n')
    assert main(["index", "build", "--corpus", str(bad), "--index-dir", str(tmp_path / "idx")]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1" in err and "field 'text'" in err
    assert not (tmp_path / "idx").exists()


def test_eval_on_custom_cases_writes_json(tmp_path, guideline_index):
    cases = [c for c in load_cases(split="canonical") if c.metadata["kind"] in {"out-of-scope", "change-over-time"}][:3]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(c.model_dump_json() + "\n" for c in cases))
    out = tmp_path / "result.json"
    assert main(["eval", "guideline-drift", "--cases", str(path), "--json-out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert set(result["cases"]) == {str(c.id) for c in cases}
    assert result["metrics"]["canonical"]["cases_passed"] == 3
    assert result["metrics"]["canonical"]["superseded_as_current_errors"] == 0


def test_offline_eval_opens_no_network_connection(tmp_path, monkeypatch, guideline_index):
    import socket

    attempts = []
    real_connect = socket.socket.connect

    def guarded_connect(sock, address):
        attempts.append(address)
        raise OSError("network disabled by test")

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    case = load_cases(split="canonical")[0]
    path = tmp_path / "cases.jsonl"
    path.write_text(case.model_dump_json() + "\n")
    assert main(["eval", "guideline-drift", "--cases", str(path)]) == 0
    import time

    time.sleep(0.5)  # give any background sender a chance to try
    assert attempts == []
    monkeypatch.setattr(socket.socket, "connect", real_connect)


def test_upload_without_key_is_refused_before_anything_runs(tmp_path, monkeypatch, capsys):
    import socket

    attempts = []
    monkeypatch.setattr(socket.socket, "connect", lambda sock, address: attempts.append(address))
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    monkeypatch.setenv("LANGSMITH_ENDPOINT", "http://127.0.0.1:9")  # even a configured endpoint is not contacted
    assert main(["eval", "guideline-drift", "--upload"]) == 2
    assert "LANGSMITH_API_KEY" in capsys.readouterr().err
    assert attempts == []


def test_eval_counts_a_failing_case(tmp_path, guideline_index):
    case = load_cases(split="canonical")[0].model_copy(deep=True)
    case.outputs.required_doc_ids = ["nice-bp-2019"]  # wrong on purpose: a breast-screening question
    path = tmp_path / "cases.jsonl"
    path.write_text(case.model_dump_json() + "\n")
    out = tmp_path / "result.json"
    assert main(["eval", "guideline-drift", "--cases", str(path), "--json-out", str(out)]) == 1
    metrics = json.loads(out.read_text())["metrics"]["canonical"]
    assert metrics["evidence_recall"] == 0.0 and metrics["cases_passed"] == 0


def test_benchmark_cases_are_well_formed(guideline_index):
    cases = load_cases()
    assert sum(c.metadata["split"] == "canonical" for c in cases) >= 30
    assert sum(c.metadata["split"] == "holdout" for c in cases) >= 12
    topics = {d.topic for d in guideline_index.docs.values()}
    for split in ("canonical", "holdout"):
        covered = {c.metadata["topic"] for c in cases if c.metadata["split"] == split}
        assert topics <= covered, f"{split} misses {topics - covered}"
    for c in cases:
        assert c.id == case_id(c.inputs.question)
        assert set(c.outputs.required_doc_ids) <= set(guideline_index.docs)


def test_console_script_stdin_loads_models_once(guideline_index):
    exe = Path(sys.executable).parent / "clinrag"
    proc = subprocess.run(
        [str(exe), "ask", "--json", "-"],
        input="Who is eligible for lung cancer screening?\nWhat A1C target does the ADA suggest?\n",
        capture_output=True, text=True, timeout=300, env=os.environ.copy(),
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(l) for l in proc.stdout.splitlines()]
    assert [r["decision"] for r in rows] == ["answer", "answer"]


def test_console_script_answers_and_keeps_the_collector_running(guideline_index):
    """The installed ``clinrag`` entry (``clinrag.cli.entry:run``): the same answer as :func:`main`, the exit code
    passed through, the cycle collector on with the raised first-generation threshold, everything frozen at the end
    (so exit skips the last scan)."""
    code = (
        "import gc, sys\n"
        "from clinrag.cli.entry import GEN0_THRESHOLD, run\n"
        "sys.argv = ['clinrag', 'ask', '--json', sys.argv[1]]\n"
        "rc = run()\n"
        "print('@@', rc, gc.isenabled(), gc.get_threshold()[0] == GEN0_THRESHOLD, gc.get_freeze_count() > 100_000)\n"
    )
    question = "Should average-risk adults start colorectal cancer screening at 45 or 50?"
    out = subprocess.run([sys.executable, "-c", code, question], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.strip().splitlines()
    assert json.loads("\n".join(lines[:-1]))["decision"] == "answer"
    assert lines[-1] == "@@ 0 True True True"
    bad = subprocess.run([sys.executable, "-c", "import sys\nfrom clinrag.cli.entry import run\n"
                          "sys.argv = ['clinrag', 'ask', '--top-k', '0', 'x']\nsys.exit(run())"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "clinrag:" in bad.stderr


def test_an_eval_split_with_no_cases_exits_2_and_says_so(tmp_path, capsys):
    from clinrag.evals import disagreements, guideline_drift, realistic

    for command, module in (("guideline-drift", guideline_drift), ("realistic", realistic),
                            ("disagreements", disagreements)):
        path = tmp_path / f"{command}.jsonl"
        path.write_text("".join(c.model_dump_json() + "\n" for c in module.load_cases(split="canonical")[:2]))
        assert main(["eval", command, "--cases", str(path), "--split", "holdout"]) == 2
        assert "no cases for split 'holdout'" in capsys.readouterr().err
    # another benchmark's file is refused with the line and the field it lacks
    assert main(["eval", "disagreements", "--cases", str(tmp_path / "guideline-drift.jsonl")]) == 2
    assert "guideline-drift.jsonl:1: ('outputs', 'docs'): Field required" in capsys.readouterr().err


def test_a_benchmark_file_reads_its_own_cases_and_ids_are_stable():
    from clinrag.evals import disagreements, guideline_drift, realistic

    for module in (guideline_drift, realistic, disagreements):
        cases = module.load_cases()
        assert cases and all(isinstance(c, module.Case) for c in cases)
        assert module.default_cases_path().name == module.CASE_FILE.name
        assert module.load_cases(split="holdout") == [c for c in cases if c.metadata["split"] == "holdout"]
    question = "Should I start colorectal screening at 45?"
    assert case_id(question) == guideline_drift.case_id(question) != realistic.case_id(question)
