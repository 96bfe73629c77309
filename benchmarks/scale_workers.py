"""API workers for benchmarks/scale.py: the RSS of one ``clinrag serve --workers 1`` worker per corpus store on a
full-size corpus, and 50 concurrent clients through ``clinrag serve --workers 1|2`` on the PostgreSQL store.

Everything lives in one folder (``--workers-dir``) kept between runs, so that the 400k-passage build and load
(tens of minutes on 2 cores) happen once: the synthetic corpus, an index root (``CLINRAG_INDEX_ROOT``: the
synthetic index, the built-in corpus's index and the ONNX exports) and a pgserver PostgreSQL 16 + pgvector data
folder with two databases, ``synthetic`` (the synthetic corpus) and ``guidelines`` (the built-in corpus).
The synthetic build and each database load run in a child process (their memory is returned before any worker
is measured; the synthetic encoder is patched into that child only).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import time
from pathlib import Path

import httpx
from serve_load import LOAD_QUESTIONS, hammer, rss_kib, served, worker_pids

RSS_QUESTIONS = [  # words of the synthetic vocabulary (BM25 finds postings); the vectors are the real encoder's
    "Does aspirin reduce colorectal cancer incidence in older adults?",
    "What is the mortality benefit of mammography screening for women?",
    "Do statins lower the risk of stroke in patients with diabetes?",
    "Is metformin safe during pregnancy?",
    "How effective is the influenza vaccine in elderly patients?",
    "Does smoking cessation improve survival after myocardial infarction?",
]
SYNTHETIC_NAME = "pubmed_synthetic"  # the corpus name (file stem) the database holds


def _mib(kib: int | None) -> int | None:
    return None if kib is None else round(kib / 1024)


def _in_child(target, *args) -> dict:
    """``target(*args)`` in a spawned process (its memory goes back when it exits); returns its JSON result."""
    ctx = multiprocessing.get_context("spawn")
    out = Path(args[0]) / f".{target.__name__}.json"
    proc = ctx.Process(target=_run_to_file, args=(target, out, *args))
    proc.start()
    proc.join()
    if proc.exitcode != 0:
        raise RuntimeError(f"{target.__name__} failed (exit {proc.exitcode})")
    return json.loads(out.read_text())


def _run_to_file(target, out: Path, *args) -> None:
    out.write_text(json.dumps(target(*args), default=str))


def _build(folder: str, n: int, seed: int) -> dict:
    import scale_corpus

    os.environ["CLINRAG_INDEX_ROOT"] = str(Path(folder) / "index")
    corpus = Path(folder) / f"{SYNTHETIC_NAME}.jsonl"
    written = scale_corpus.write_corpus(corpus, n, seed)
    print(f"  corpus: {written}", flush=True)
    return {"corpus": written, "index": scale_corpus.build_synthetic_index(corpus, seed)}


def _load(folder: str, url: str, corpus: str, maintenance_work_mem: str) -> dict:
    import scale_corpus

    os.environ["CLINRAG_INDEX_ROOT"] = str(Path(folder) / "index")
    return {**scale_corpus.load_postgres(url, Path(corpus), maintenance_work_mem),
            "database": scale_corpus.database_sizes(url)}


class WorkerSetup:
    """The folder, its PostgreSQL server and what was built there (``state.json``)."""

    def __init__(self, folder: Path, n: int, seed: int = 0, maintenance_work_mem: str = "4GB"):
        self.folder, self.n, self.seed, self.mwm = folder.resolve(), n, seed, maintenance_work_mem
        self.index_root = self.folder / "index"
        self.corpus = self.folder / f"{SYNTHETIC_NAME}.jsonl"
        self.state_path = self.folder / "state.json"
        self.state = json.loads(self.state_path.read_text()) if self.state_path.is_file() else {}
        self.server = None

    def _save(self) -> None:
        self.state_path.write_text(json.dumps(self.state, indent=1, default=str))

    def start(self) -> None:
        import pgserver
        import psycopg
        from psycopg.conninfo import make_conninfo

        self.folder.mkdir(parents=True, exist_ok=True)
        self.index_root.mkdir(exist_ok=True)
        cached = Path.home() / ".cache" / "clinrag" / "index" / "onnx"  # the export, when a full install made one
        if cached.is_dir() and not (self.index_root / "onnx").exists():
            shutil.copytree(cached, self.index_root / "onnx")
        self.server = pgserver.get_server(self.folder / "pgdata", cleanup_mode="stop")
        base = self.server.get_uri()
        with psycopg.connect(base, autocommit=True) as conn:
            have = {r[0] for r in conn.execute("SELECT datname FROM pg_database")}
            for name in ("synthetic", "guidelines"):
                if name not in have:
                    conn.execute(f"CREATE DATABASE {name}")
            self.postgres_info = {"server": conn.execute("SHOW server_version").fetchone()[0],
                                  "shared_buffers": conn.execute("SHOW shared_buffers").fetchone()[0]}
        self.synthetic_url = make_conninfo(base, dbname="synthetic")
        self.guidelines_url = make_conninfo(base, dbname="guidelines")

    def stop(self) -> None:
        if self.server is not None:
            self.server.cleanup()

    def env(self, **extra: str) -> dict[str, str]:
        return {"CLINRAG_INDEX_ROOT": str(self.index_root), **extra}

    def synthetic(self) -> dict:
        """The synthetic corpus built and loaded (once per folder and size)."""
        if self.state.get("synthetic", {}).get("n") != self.n:
            print(f"  building the synthetic {self.n:,}-passage corpus and index ...", flush=True)
            self.state["synthetic"] = {"n": self.n, **_in_child(_build, str(self.folder), self.n, self.seed)}
            self.state.pop("synthetic_pg", None)
            self._save()
        if "synthetic_pg" not in self.state:
            print(f"  loading it into PostgreSQL (maintenance_work_mem {self.mwm}) ...", flush=True)
            self.state["synthetic_pg"] = _in_child(_load, str(self.folder), self.synthetic_url, str(self.corpus),
                                                   self.mwm)
            self._save()
        return {"build": self.state["synthetic"], "postgres_load": self.state["synthetic_pg"]}

    def guidelines(self) -> dict:
        """The built-in corpus loaded into the ``guidelines`` database (its index built with the real encoder)."""
        if "guidelines_pg" not in self.state:
            from clinrag.paths import BUILTIN_CORPUS

            self.state["guidelines_pg"] = _in_child(_load, str(self.folder), self.guidelines_url,
                                                    str(BUILTIN_CORPUS), "256MB")
            self._save()
        return self.state["guidelines_pg"]


def measure_worker_rss(setup: WorkerSetup, backend: str, questions=RSS_QUESTIONS) -> dict:
    """One ``clinrag serve --workers 1`` on the synthetic corpus with the ``faiss`` (embedded) or ``postgres``
    store: seconds to /healthz, RSS when ready, then each question asked once (decisions, seconds) and the RSS
    after them (VmRSS) and its peak (VmHWM)."""
    store = {"faiss": "embedded", "postgres": "postgres"}[backend]
    env = setup.env(CLINRAG_CORPUS_STORE=store)
    if backend == "postgres":
        env["CLINRAG_DATABASE_URL"] = setup.synthetic_url
    else:
        os.environ.pop("CLINRAG_DATABASE_URL", None)
    t0 = time.monotonic()
    try:
        with served(setup.folder / f"serve-{backend}", env, ["--workers", "1", "--corpus", str(setup.corpus)],
                    startup_s=3600) as (url, pid):
            ready_s, rss_ready = time.monotonic() - t0, rss_kib(pid)
            seconds, decisions = [], []
            with httpx.Client(timeout=1800) as http:
                for q in questions:
                    t = time.monotonic()
                    r = http.post(f"{url}/api/ask", json={"question": q})
                    seconds.append(round(time.monotonic() - t, 2))
                    body = r.json() if r.status_code == 200 else {}
                    decisions.append(f"{body.get('decision')}/{body.get('abstain_reason')}/{len(body['evidence'])} "
                                     "passages" if body else f"HTTP {r.status_code}")
            rss_after, peak = rss_kib(pid), rss_kib(pid, "VmHWM")
    except (AssertionError, httpx.HTTPError) as e:  # e.g. the worker killed for memory: say so, measure the other
        return {"backend": backend, "corpus_store": store, "error": f"{type(e).__name__}: {str(e)[-600:]}"}
    return {"backend": backend, "corpus_store": store, "ready_s": round(ready_s, 1), "rss_ready_mib": _mib(rss_ready),
            "rss_after_questions_mib": _mib(rss_after), "peak_rss_mib": _mib(peak), "questions": len(questions),
            "question_seconds": seconds, "decisions": decisions}


def measure_concurrency(setup: WorkerSetup, workers: int, clients: int = 50, per_client: int = 20) -> dict:
    """``clients`` concurrent clients x ``per_client`` questions through ``clinrag serve --workers N`` on the
    built-in corpus in PostgreSQL (threads there too); a short warm-up first (every worker loads its models)."""
    env = setup.env(CLINRAG_CORPUS_STORE="postgres", CLINRAG_DATABASE_URL=setup.guidelines_url)
    with served(setup.folder / f"serve-workers{workers}", env, ["--workers", str(workers)]) as (url, pid):
        hammer(url, 2 * workers, LOAD_QUESTIONS, per_client=3)
        result = hammer(url, clients, LOAD_QUESTIONS, per_client=per_client)
        worker_rss = [_mib(rss_kib(w)) for w in worker_pids(pid)]
    return {"workers": workers, "clients": clients, "per_client": per_client, **result, "worker_rss_mib": worker_rss}
