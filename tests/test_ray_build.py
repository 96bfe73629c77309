"""``clinrag index build --ray``: a local Ray (2 CPUs) embeds passages and sentences on model-holding actors and
writes the index the single-process build writes: the same files, vectors equal within float error, and the same
answers from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from clinrag.paths import BUILTIN_CORPUS

pytestmark = pytest.mark.integration

TOPICS = {"colorectal-cancer-screening", "prostate-cancer-screening"}  # 8 documents whose links stay inside
QUESTIONS = ["Should average-risk adults start colorectal cancer screening at 45 or 50?",
             "What does the USPSTF recommend for prostate cancer screening?"]


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, Path, Path]:
    """(corpus, single-process index, Ray index) of a small corpus cut from the built-in one."""
    from clinrag.tools.index.store import build_index

    tmp = tmp_path_factory.mktemp("ray-build")
    corpus = tmp / "small.jsonl"
    lines = [line for line in BUILTIN_CORPUS.read_text().splitlines() if json.loads(line)["topic"] in TOPICS]
    corpus.write_text("\n".join(lines) + "\n")
    single = build_index(corpus, tmp / "single")
    result = subprocess.run([str(Path(sys.executable).parent / "clinrag"), "index", "build", "--ray", "--corpus",
                             str(corpus), "--index-dir", str(tmp / "ray")],
                            capture_output=True, text=True, timeout=600, env=dict(os.environ))  # fmt: skip
    assert result.returncode == 0, f"the Ray build failed (is ray installed? clinrag[scale]):\n{result.stderr}"
    assert "embedding passages on Ray" in result.stderr and "embedding sentences on Ray" in result.stderr
    return corpus, single, tmp / "ray"


def test_same_files_and_vectors(builds):
    _, single, ray = builds
    assert sorted(p.name for p in single.iterdir()) == sorted(p.name for p in ray.iterdir())
    for name in ("vectors.npy", "sentences.npy", "corpus_texts.npy"):
        a, b = np.load(single / name), np.load(ray / name)
        assert a.shape == b.shape and a.shape[0] > 0
        np.testing.assert_allclose(a, b, atol=1e-5, err_msg=name)
    for name in ("passages.jsonl", "sentences.json", "corpus_texts.json"):
        assert (single / name).read_text() == (ray / name).read_text(), name


def test_same_answers(builds):
    from clinrag.context import Context
    from clinrag.run import ask

    corpus, single, ray = builds
    for question in QUESTIONS:
        a = ask(question, Context(corpus_path=str(corpus), index_dir=str(single)))
        b = ask(question, Context(corpus_path=str(corpus), index_dir=str(ray)))
        assert a.decision == b.decision == "answer"
        assert [e["doc_id"] for e in a.evidence] == [e["doc_id"] for e in b.evidence]
        assert a.answer == b.answer


def test_ray_build_into_postgres_answers_like_the_single_process_build(builds, postgres_db, tmp_path, monkeypatch):
    """``clinrag index build --ray --store postgres``: embedded on Ray, loaded into PostgreSQL; same answers as the
    single-process embedded index."""
    from clinrag.context import Context
    from clinrag.run import ask

    corpus, single, _ = builds
    env = {**os.environ, "CLINRAG_DATABASE_URL": postgres_db, "CLINRAG_INDEX_ROOT": str(tmp_path / "indexes")}
    result = subprocess.run([str(Path(sys.executable).parent / "clinrag"), "index", "build", "--ray", "--store",
                             "postgres", "--corpus", str(corpus)], capture_output=True, text=True, timeout=600,
                            env=env)
    assert result.returncode == 0, result.stderr
    assert "embedding passages on Ray" in result.stderr and "8 documents" in result.stdout, result.stdout
    monkeypatch.setenv("CLINRAG_DATABASE_URL", postgres_db)
    for question in QUESTIONS:
        a = ask(question, Context(corpus_path=str(corpus), index_dir=str(single), corpus_store="embedded"))
        b = ask(question, Context(corpus_path=str(corpus), corpus_store="postgres"))
        assert a.decision == b.decision == "answer"
        assert [e["doc_id"] for e in a.evidence] == [e["doc_id"] for e in b.evidence]
        assert a.answer == b.answer
