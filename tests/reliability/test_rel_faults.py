"""Faults (issue 16, suite 3): a damaged index is rebuilt (or refused in one line), never used for a wrong answer
and never a traceback; ``kill -9`` during ``index build`` leaves the old index intact and usable; ``kill -9``
during a chat turn leaves the thread at its last checkpoint; a full disk during a build leaves the old index; a
corrupted corpus line is named (file, line, field) and nothing indexed is lost.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import CLINRAG, REPO_ROOT, subprocess_env
from corpora import SMALL_QUESTION, small_corpus

from clinrag.documents import CorpusError
from clinrag.run import ask
from clinrag.tools.index import store
from clinrag.tools.index.store import CorpusIndex, StaleIndexError, build_index, stale_reason


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A small corpus with a pristine flat and a pristine HNSW index (copied before each fault)."""
    root = tmp_path_factory.mktemp("faults")
    corpus = small_corpus(root / "corpus")
    build_index(corpus, root / "flat")
    build_index(corpus, root / "hnsw", faiss_index_kind="hnsw")
    return {"root": root, "corpus": corpus, "flat": root / "flat", "hnsw": root / "hnsw"}


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(path.relative_to(folder).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def truncate(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def _edit_manifest(key, value):
    def apply(d: Path):
        m = json.loads((d / "manifest.json").read_text())
        m[key] = value
        (d / "manifest.json").write_text(json.dumps(m))
    return apply


def _drop_last_passage(d: Path):
    lines = (d / "passages.jsonl").read_text().splitlines(keepends=True)
    (d / "passages.jsonl").write_text("".join(lines[:-1]))


def _fewer_vectors(d: Path):
    np.save(d / "vectors.npy", np.load(d / "vectors.npy")[:-1])


def _break_passage_line(d: Path):
    lines = (d / "passages.jsonl").read_text().splitlines(keepends=True)
    lines[1] = lines[1][: len(lines[1]) // 2] + "\n"  # a half-written line
    (d / "passages.jsonl").write_text("".join(lines))


def _wrong_passage_field(d: Path):
    lines = (d / "passages.jsonl").read_text().splitlines(keepends=True)
    record = json.loads(lines[0])
    record["chunk"] = "first"
    lines[0] = json.dumps(record) + "\n"
    (d / "passages.jsonl").write_text("".join(lines))


FAULTS = {
    # name: (index kind, damage)
    "manifest-missing": ("flat", lambda d: (d / "manifest.json").unlink()),
    "manifest-garbage": ("flat", lambda d: (d / "manifest.json").write_bytes(b"\xff\x00{not json")),
    "manifest-a-list": ("flat", lambda d: (d / "manifest.json").write_text("[]")),
    "foreign-embedding-model": ("flat", _edit_manifest("embedding_model", "someone-else/encoder-v9")),
    "foreign-dimension": ("flat", _edit_manifest("dimension", 768)),
    "vectors-npy-truncated": ("flat", lambda d: truncate(d / "vectors.npy")),
    "vectors-npy-header-only": ("flat", lambda d: truncate(d / "vectors.npy", 0.01)),
    "vectors-fewer-than-passages": ("flat", _fewer_vectors),
    "passage-missing": ("flat", _drop_last_passage),
    "passages-jsonl-half-line": ("flat", _break_passage_line),
    "passages-jsonl-wrong-field": ("flat", _wrong_passage_field),
    "passages-jsonl-binary": ("flat", lambda d: (d / "passages.jsonl").write_bytes(b"\x00\xff" * 100)),
    "sentence-vectors-truncated": ("flat", lambda d: truncate(d / "sentences.npy")),
    "sentences-json-truncated": ("flat", lambda d: truncate(d / "sentences.json")),
    "corpus-texts-truncated": ("flat", lambda d: truncate(d / "corpus_texts.npy")),
    "bm25-truncated": ("flat", lambda d: truncate(d / "bm25.npz")),
    "bm25-vocab-missing": ("flat", lambda d: (d / "bm25_vocab.json").unlink()),
    "faiss-truncated-hnsw": ("hnsw", lambda d: truncate(d / "index.faiss")),
    "faiss-empty-hnsw": ("hnsw", lambda d: (d / "index.faiss").write_bytes(b"")),
    "faiss-missing-hnsw": ("hnsw", lambda d: (d / "index.faiss").unlink()),
}


def damaged_copy(built, name: str, tmp_path: Path) -> Path:
    kind, damage = FAULTS[name]
    target = tmp_path / f"index-{name}"
    shutil.copytree(built[kind], target)
    damage(target)
    return target


@pytest.mark.parametrize("name", list(FAULTS))
def test_damaged_index_is_rebuilt_and_answers_as_before(name, built, tmp_path, figures):
    target = damaged_copy(built, name, tmp_path)
    index = CorpusIndex.load(built["corpus"], target)
    pristine = CorpusIndex.load(built["corpus"], built[FAULTS[name][0]])
    assert stale_reason(target, list(pristine.docs.values())) is None
    assert [p.passage_id for p in index.passages] == [p.passage_id for p in pristine.passages]
    assert np.allclose(index.vectors, pristine.vectors, atol=1e-5)
    assert index.sentences == pristine.sentences and len(index.sentence_vectors) == len(pristine.sentence_vectors)
    ctx = {"corpus_path": str(built["corpus"])}
    before = ask(SMALL_QUESTION, {**ctx, "index_dir": str(built[FAULTS[name][0]])})
    after = ask(SMALL_QUESTION, {**ctx, "index_dir": str(target)})
    assert after.decision == before.decision == "answer"
    assert [e["doc_id"] for e in after.evidence] == [e["doc_id"] for e in before.evidence]


@pytest.mark.parametrize("name", ["faiss-truncated-hnsw", "vectors-npy-truncated", "sentence-vectors-truncated",
                                  "passages-jsonl-half-line", "manifest-missing", "foreign-embedding-model"])
def test_clinrag_ask_rebuilds_a_damaged_index_without_a_traceback(name, built, tmp_path):
    target = damaged_copy(built, name, tmp_path)
    proc = subprocess.run([str(CLINRAG), "ask", "--json", "--corpus", str(built["corpus"]), "--index-dir",
                           str(target), SMALL_QUESTION], capture_output=True, text=True, timeout=300,
                          env=subprocess_env(), cwd=REPO_ROOT)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert "rebuilding the index" in proc.stderr or "building the index" in proc.stderr, proc.stderr
    assert len([line for line in proc.stderr.splitlines() if line.strip()]) <= 3, proc.stderr
    assert json.loads(proc.stdout)["decision"] == "answer"


def test_an_index_that_stays_unreadable_is_one_line_error(built, tmp_path, monkeypatch):
    """When the rebuild cannot fix it either (here: every read of vectors.npy fails), one StaleIndexError line."""
    target = damaged_copy(built, "vectors-npy-truncated", tmp_path)
    real_load = np.load

    def failing_load(path, *a, **k):
        if str(path).endswith(store.VECTORS_FILE):
            raise ValueError("cannot reshape array of size 100 into shape (7,384)\nsecond line of numpy noise")
        return real_load(path, *a, **k)

    monkeypatch.setattr(store.np, "load", failing_load)
    with pytest.raises(StaleIndexError) as e:
        CorpusIndex.load(built["corpus"], target)
    message = str(e.value)
    assert "\n" not in message and str(target) in message and "cannot reshape" in message


def _index_build(corpus: Path, index_dir: Path) -> subprocess.Popen:
    return subprocess.Popen([str(CLINRAG), "index", "build", "--corpus", str(corpus), "--index-dir", str(index_dir)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=subprocess_env(), cwd=REPO_ROOT,
                            start_new_session=True)


def _temp_folder(index_dir: Path) -> bool:
    return any(p.name.startswith(f".{index_dir.name}.") for p in index_dir.parent.iterdir())


# when to kill: seconds after the start, or "temp" (as soon as the build's temporary folder appears)
KILL_POINTS = [0.5, 1.5, 3.0, "temp", "temp+0.2", "temp+0.5"]


@pytest.mark.parametrize("when", KILL_POINTS, ids=str)
def test_kill_9_during_index_build_leaves_the_old_index_usable(when, built, tmp_path, figures):
    """The old index is a complete index of the corpus after every kill: intact, or replaced by a complete new
    one; never half-written. ``index build`` without ``--if-stale`` always builds, so every kill meets real work."""
    index_dir = tmp_path / "index"
    shutil.copytree(built["flat"], index_dir)
    before = tree_digest(index_dir)
    proc = _index_build(built["corpus"], index_dir)
    start = time.monotonic()
    delay = 0.0
    if isinstance(when, str):
        delay = float(when.partition("+")[2] or 0)
        while not _temp_folder(index_dir) and proc.poll() is None and time.monotonic() - start < 120:
            time.sleep(0.005)
        time.sleep(delay)
    else:
        time.sleep(when)
    finished = proc.poll() is not None
    if not finished:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    intact = tree_digest(index_dir) == before if index_dir.exists() else False
    figures(killed=not finished, after_s=round(time.monotonic() - start, 2), old_index_intact=intact,
            leftover_temp_folder=_temp_folder(index_dir))
    docs = list(CorpusIndex.load(built["corpus"], built["flat"]).docs.values())
    # either the old index untouched, or (the kill came after the swap) the new, complete one
    assert intact or stale_reason(index_dir, docs) is None
    index = CorpusIndex.load(built["corpus"], index_dir)
    assert len(index.passages) == index.faiss_index.ntotal > 0
    result = ask(SMALL_QUESTION, {"corpus_path": str(built["corpus"]), "index_dir": str(index_dir)})
    assert result.decision == "answer"


def test_a_build_interrupted_between_the_two_renames_restores_the_old_index(built, tmp_path):
    index_dir = tmp_path / "index"
    shutil.copytree(built["flat"], index_dir)
    index_dir.rename(index_dir.with_name("index.old"))  # what a kill between the renames leaves
    index = CorpusIndex.load(built["corpus"], index_dir)
    assert index_dir.is_dir() and len(index.passages) > 0


def test_disk_full_during_build_keeps_the_old_index(built, tmp_path, monkeypatch):
    """ENOSPC on a write of the build (monkeypatched): a clear error, and the old index byte for byte."""
    index_dir = tmp_path / "index"
    shutil.copytree(built["flat"], index_dir)
    before = tree_digest(index_dir)
    real_save = np.save

    def full_disk(path, *a, **k):
        if "sentences" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_save(path, *a, **k)

    monkeypatch.setattr(store.np, "save", full_disk)
    with pytest.raises(OSError, match="No space left") as e:
        build_index(built["corpus"], index_dir)
    assert "cannot write the index" in str(e.value) and "unchanged" in str(e.value)
    assert tree_digest(index_dir) == before and not _temp_folder(index_dir)


def test_disk_full_on_a_real_small_filesystem(built, tmp_path):
    """A tmpfs just big enough for one index (mount needs root; skipped otherwise): ``clinrag index build`` fails
    in one line (no traceback) and the old index is intact."""
    mount_point = tmp_path / "small-disk"
    mount_point.mkdir()
    size_kib = sum(p.stat().st_size for p in built["flat"].rglob("*") if p.is_file()) // 1024 + 64
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(mount_point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        index_dir = mount_point / "index"
        shutil.copytree(built["flat"], index_dir)
        before = tree_digest(index_dir)
        proc = subprocess.run([str(CLINRAG), "index", "build", "--corpus", str(built["corpus"]), "--index-dir",
                               str(index_dir)], capture_output=True, text=True, timeout=300, env=subprocess_env(),
                              cwd=REPO_ROOT)
        assert proc.returncode != 0
        assert tree_digest(index_dir) == before and not _temp_folder(index_dir)
        assert "cannot write the index" in proc.stderr, proc.stderr[-3000:]
        assert "Traceback" not in proc.stderr, proc.stderr[-3000:]  # one line from clinrag.cli.main
        # progress bars go to stderr too; the error itself is one line
        assert len([line for line in proc.stderr.splitlines() if line.startswith("clinrag:")]) == 1, proc.stderr
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True)


CORRUPT_LINES = {
    "half-written": lambda line: line[: len(line) // 2],
    "wrong-type": lambda line: json.dumps({**json.loads(line), "issued": "last tuesday"}),
    "missing-text": lambda line: json.dumps({k: v for k, v in json.loads(line).items() if k != "text"}),
    "binary": lambda line: "\x00\x01garbage",
}


@pytest.mark.parametrize("kind", list(CORRUPT_LINES))
def test_corrupted_corpus_line_is_named_and_nothing_indexed_is_lost(kind, built, tmp_path):
    lines = built["corpus"].read_text().splitlines()
    lines[2] = CORRUPT_LINES[kind](lines[2])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    index_dir = tmp_path / "index"
    shutil.copytree(built["flat"], index_dir)
    before = tree_digest(index_dir)
    with pytest.raises(CorpusError, match=r"bad\.jsonl:3"):
        build_index(bad, index_dir)
    proc = subprocess.run([str(CLINRAG), "index", "build", "--corpus", str(bad), "--index-dir", str(index_dir)],
                          capture_output=True, text=True, timeout=120, env=subprocess_env(), cwd=REPO_ROOT)
    assert proc.returncode == 2 and "bad.jsonl:3" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    if kind in ("wrong-type", "missing-text"):
        assert "field '" in proc.stderr, proc.stderr
    assert tree_digest(index_dir) == before
    assert len(CorpusIndex.load(built["corpus"], index_dir).passages) > 0


CHAT_SCRIPT = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from clinrag.threads import chat_graph, chat_turn
    db, thread = Path(sys.argv[1]), sys.argv[2]

    def stall(event):
        if event.get("type") == "clinrag.evidence":
            print("mid-turn", flush=True)
            time.sleep(60)  # killed here

    with chat_graph(db) as graph:
        chat_turn(graph, thread, "When should average-risk women start mammography?")
        print("turn 1 done", flush=True)
        chat_turn(graph, thread, "and what about ACS?", on_event=stall)
""")


def test_kill_9_during_a_chat_turn_keeps_the_thread_at_its_last_checkpoint(tmp_path, guideline_index):
    from clinrag.threads import chat_graph, chat_turn, transcript

    db = tmp_path / "threads.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", CHAT_SCRIPT, str(db), "t"], stdout=subprocess.PIPE, text=True,
                            env=subprocess_env(), cwd=REPO_ROOT)
    seen = []
    for line in proc.stdout:
        seen.append(line.strip())
        if line.strip() == "mid-turn":
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert seen == ["turn 1 done", "mid-turn"] and proc.returncode == -signal.SIGKILL
    import sqlite3

    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with chat_graph(db) as graph:
        messages = transcript(graph, "t")
        humans = [m.content for m in messages if m.type == "human"]
        assert humans[0] == "When should average-risk women start mammography?" and len(messages) >= 2
        state = chat_turn(graph, "t", "and what about ACS?")
        assert state["decision"] == "answer" and "Not medical advice" in state["answer"]
        assert [m.content for m in transcript(graph, "t") if m.type == "human"][-1] == "and what about ACS?"


def test_stale_reason_never_raises_on_a_damaged_manifest(built, tmp_path):
    docs = list(CorpusIndex.load(built["corpus"], built["flat"]).docs.values())
    for content in (b"", b"\xff\xfe", b"[]", b"null", b'"text"', b"{\"format\": {}}"):
        target = tmp_path / f"m{len(content)}{content[:2].hex()}"
        shutil.copytree(built["flat"], target)
        (target / "manifest.json").write_bytes(content)
        assert stale_reason(target, docs)
