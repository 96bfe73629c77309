"""PostgreSQL + pgvector side of benchmarks/scale.py: a pgserver PostgreSQL 16 (or ``--database-url``), binary
COPY, the HNSW build (m 16, ef_construction 200, as FAISS), on-disk sizes, single-query latency/recall at several
``hnsw.ef_search``, and filtered-search strategies."""

from __future__ import annotations

import contextlib
import logging
import struct
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from scale_data import Progress, latency, recall_at_k

from clinrag.tools.index.store import HNSW_EF_CONSTRUCTION, HNSW_M

_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)


@contextlib.contextmanager
def postgres(url: str | None, shared_buffers: str):
    """A database URL: ``url`` as given (settings only per session), else a throwaway pgserver PostgreSQL with
    ``shared_buffers`` and jit off (ALTER SYSTEM + restart), deleted afterwards. Yields (url, settings)."""
    import psycopg

    if url:
        yield url, {"server": "given --database-url"}
        return
    import pgserver
    from pgserver._commands import pg_ctl

    folder = Path(tempfile.mkdtemp(prefix="clinrag-scale-pg-"))
    server = pgserver.get_server(folder, cleanup_mode="delete")
    try:
        url = server.get_uri()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"ALTER SYSTEM SET shared_buffers = '{shared_buffers}'")
            conn.execute("ALTER SYSTEM SET jit = off")  # JIT adds ~100 ms to the costly (exact) plans
        pg_ctl(["-w", "restart"], pgdata=server.pgdata, user=server.system_user, timeout=120)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            info = {"server": conn.execute("SHOW server_version").fetchone()[0],
                    "pgvector": conn.execute("SELECT extversion FROM pg_extension "
                                             "WHERE extname = 'vector'").fetchone()[0],
                    "shared_buffers": conn.execute("SHOW shared_buffers").fetchone()[0]}
        yield url, info
    finally:
        # the restart above gave the server a postmaster pgserver does not track: stop it here, then let pgserver
        # delete the folder (cleanup alone left it running, its data folder gone)
        quiet = logging.getLogger("pgserver")
        quiet.disabled = True  # pgserver's own stop then finds no server and says so at length
        try:
            with contextlib.suppress(Exception):
                pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user, timeout=120)
            server.cleanup()
        finally:
            quiet.disabled = False


def _rows(ids, years, orgs, vecs, texts=None):
    """Binary COPY tuples: id int8, year int2, org int4, embedding vector (int16 dim, int16 0, float4s)[, text]."""
    big = np.asarray(vecs, dtype=">f4")
    dim = big.shape[1]
    head_vec = struct.pack(">ihh", 4 + 4 * dim, dim, 0)
    nf = 5 if texts is not None else 4
    out = []
    for i in range(len(big)):
        parts = [struct.pack(">hiqihii", nf, 8, int(ids[i]), 2, int(years[i]), 4, int(orgs[i])), head_vec,
                 big[i].tobytes()]
        if texts is not None:
            b = texts[i].encode("utf-8")
            parts += [struct.pack(">i", len(b)), b]
        out.append(b"".join(parts))
    return b"".join(out)


def load(url: str, table: str, vecs: np.ndarray, years, orgs, texts=None, chunk: int = 20_000) -> dict:
    """CREATE TABLE and binary COPY (timed), then the primary key and btree indexes on year and org (timed)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute(f"CREATE TABLE {table} (id bigint, year smallint, org int, embedding vector({vecs.shape[1]})"
                     + (", text text)" if texts is not None else ")"))
        prog = Progress(f"COPY {table}")
        t0 = time.perf_counter()
        with conn.cursor() as cur, cur.copy(f"COPY {table} FROM STDIN (FORMAT BINARY)") as cp:
            cp.write(_COPY_HEADER)
            for s in range(0, len(vecs), chunk):
                e = min(len(vecs), s + chunk)
                cp.write(_rows(range(s, e), years[s:e], orgs[s:e], vecs[s:e], texts[s:e] if texts else None))
                prog.tick(f"{e:,}/{len(vecs):,} rows")
            cp.write(_COPY_TRAILER)
        copy_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        conn.execute(f"ALTER TABLE {table} ADD PRIMARY KEY (id)")
        conn.execute(f"CREATE INDEX {table}_year ON {table} (year)")
        conn.execute(f"CREATE INDEX {table}_org ON {table} (org)")
        conn.execute(f"VACUUM ANALYZE {table}")
        return {"rows": len(vecs), "copy_s": round(copy_s, 2), "copy_rows_per_s": round(len(vecs) / copy_s),
                "btree_and_analyze_s": round(time.perf_counter() - t0, 2)}


def _watch_progress(url: str, label: str, stop: threading.Event, every: float = 30.0):
    import psycopg

    prog = Progress(label, every=0)
    with psycopg.connect(url, autocommit=True) as conn:
        while not stop.wait(every):
            row = conn.execute("SELECT phase, tuples_done, tuples_total, blocks_done, blocks_total "
                               "FROM pg_stat_progress_create_index").fetchone()
            if row:
                prog.tick(f"phase {row[0]!r}, tuples {row[1]:,}/{row[2]:,}, blocks {row[3]:,}/{row[4]:,}")


def build_hnsw(url: str, table: str, maintenance_work_mem: str, workers: int, where: str | None = None,
               name: str | None = None) -> dict:
    """CREATE INDEX ... USING hnsw (embedding vector_ip_ops) WITH (m, ef_construction) [WHERE ...], timed, with
    a progress line from pg_stat_progress_create_index; returns build time, size and the server's notices."""
    import psycopg

    name = name or f"{table}_hnsw"
    notices: list[str] = []
    stop = threading.Event()
    watcher = threading.Thread(target=_watch_progress, args=(url, f"pgvector HNSW {name}", stop), daemon=True)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.add_notice_handler(lambda d: notices.append(d.message_primary))
        conn.execute(f"SET maintenance_work_mem = '{maintenance_work_mem}'")
        conn.execute(f"SET max_parallel_maintenance_workers = {workers}")
        watcher.start()
        t0 = time.perf_counter()
        try:
            conn.execute(f"CREATE INDEX {name} ON {table} USING hnsw (embedding vector_ip_ops) "
                         f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION})"
                         + (f" WHERE {where}" if where else ""))
        finally:
            stop.set()
        build_s = time.perf_counter() - t0
        rows = conn.execute(f"SELECT count(*) FROM {table}" + (f" WHERE {where}" if where else "")).fetchone()[0]
        size = conn.execute("SELECT pg_relation_size(%s)", (name,)).fetchone()[0]
    watcher.join(timeout=5)
    return {"index": name, "where": where, "vectors": rows, "build_s": round(build_s, 2),
            "maintenance_work_mem": maintenance_work_mem, "parallel_maintenance_workers": workers,
            "size_bytes": size, "bytes_per_vector": round(size / max(rows, 1), 1),
            "build_s_per_100k": round(build_s / max(rows, 1) * 1e5, 2), "notices": notices}


def sizes(url: str, table: str) -> dict:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        n = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        table_b = conn.execute("SELECT pg_table_size(%s)", (table,)).fetchone()[0]  # heap + TOAST + FSM/VM
        idx = dict(conn.execute("SELECT indexrelid::regclass::text, pg_relation_size(indexrelid) FROM pg_index "
                                "WHERE indrelid = %s::regclass", (table,)).fetchall())
        vec_b = conn.execute(f"SELECT avg(pg_column_size(embedding)) FROM {table}").fetchone()[0]
        text_b = None
        if conn.execute("SELECT 1 FROM information_schema.columns WHERE table_name=%s AND column_name='text'",
                        (table,)).fetchone():
            text_b = conn.execute(f"SELECT avg(pg_column_size(text)), avg(length(text)) FROM {table}").fetchone()
    out = {"rows": n, "table_bytes": table_b, "table_bytes_per_row": round(table_b / max(n, 1), 1),
           "vector_column_bytes": round(float(vec_b), 1), "indexes_bytes": idx,
           "total_bytes": table_b + sum(idx.values())}
    if text_b:
        out["text_column_bytes"], out["text_chars"] = round(float(text_b[0]), 1), round(float(text_b[1]), 1)
    return out


def _vec_literal(q: np.ndarray) -> str:
    return "[" + ",".join(f"{v:.7g}" for v in q) + "]"


class Searcher:
    """One connection (as one API worker would hold), prepared statements, queries one at a time."""

    def __init__(self, url: str, table: str):
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True, prepare_threshold=0)
        self.table = table

    def close(self):
        self.conn.close()

    def run(self, sql: str, queries: np.ndarray, k: int, settings: dict, warm: int = 20) -> tuple[list, list, str]:
        """(found ids per query, seconds per query, the plan's node lines) for ``sql`` with %s = the query vector
        and %s = k, under ``settings`` (SET name = value); ``warm`` untimed queries first."""
        for name, value in settings.items():
            self.conn.execute(f"SET {name} = {value}")
        lits = [_vec_literal(q) for q in queries]
        plan = self.conn.execute("EXPLAIN " + sql, (lits[0], k)).fetchall()
        plan = " / ".join(r[0].strip().split("  (cost")[0] for r in plan if "->" in r[0] or not r[0].startswith(" "))
        for lit in lits[:warm]:
            self.conn.execute(sql, (lit, k)).fetchall()
        found, times = [], []
        for lit in lits:
            t = time.perf_counter()
            rows = self.conn.execute(sql, (lit, k)).fetchall()
            times.append(time.perf_counter() - t)
            found.append([r[0] for r in rows])
        for name in settings:
            self.conn.execute(f"RESET {name}")
        return found, times, plan

    def _row(self, base: dict, sql: str, queries, truth, settings: dict) -> dict:
        found, times, plan = self.run(sql, queries, truth.shape[1], settings)
        return {"engine": "pgvector", **base, "queries": len(queries), "recall": round(recall_at_k(found, truth), 4),
                "mean_results": round(float(np.mean([len(f) for f in found])), 2), **latency(times),
                "scan": "+".join(n.split(" on ")[0].replace("->", "").strip()
                                 for n in plan.split(" / ") if "Scan" in n),
                "plan": plan}

    def sweep(self, queries, truth, efs: list[int], exact_queries: int = 20) -> list[dict]:
        """The HNSW index at each ef_search, and the exact scan (index scans off) on ``exact_queries`` queries."""
        sql = f"SELECT id FROM {self.table} ORDER BY embedding <#> %s::vector LIMIT %s"
        rows = [self._row({"index": "hnsw", "ef": ef}, sql, queries, truth, {"hnsw.ef_search": ef}) for ef in efs]
        rows.append(self._row({"index": "none (exact scan)", "ef": None}, sql, queries[:exact_queries],
                              truth[:exact_queries], {"enable_indexscan": "off"}))
        return rows

    def filtered(self, queries, truth, where: str, efs: list[int]) -> list[dict]:
        """Filtered top-k: the HNSW scan + WHERE at each ef_search (pgvector 0.6 filters the ef_search
        candidates it found, so fewer than k may come back), over-fetch 1,000 then filter, and the exact scan of
        the allowed rows (btree/bitmap or seq scan + top-N sort; index scans off so HNSW is not used)."""
        t = self.table
        where_sql = f"SELECT id FROM {t} WHERE {where} ORDER BY embedding <#> %s::vector LIMIT %s"
        rows = [self._row({"strategy": "hnsw+WHERE", "ef": ef}, where_sql, queries, truth, {"hnsw.ef_search": ef})
                for ef in efs]
        over = (f"SELECT id FROM (SELECT id, year, org, embedding <#> %s::vector AS d FROM {t} ORDER BY d "
                f"LIMIT 1000) c WHERE {where} ORDER BY d LIMIT %s")
        rows.append(self._row({"strategy": "hnsw over-fetch 1000, then WHERE", "ef": 1000}, over, queries, truth,
                              {"hnsw.ef_search": 1000}))
        rows.append(self._row({"strategy": "exact: filter, then sort by distance", "ef": None}, where_sql, queries,
                              truth, {"enable_indexscan": "off"}))
        return rows

    def partial(self, queries, truth, where: str, efs: list[int]) -> list[dict]:
        """The same query once a partial HNSW index ``WHERE <where>`` exists (the planner picks it)."""
        sql = f"SELECT id FROM {self.table} WHERE {where} ORDER BY embedding <#> %s::vector LIMIT %s"
        return [self._row({"strategy": "partial HNSW index on the filter", "ef": ef}, sql, queries, truth,
                          {"hnsw.ef_search": ef}) for ef in efs]

    def drop_index(self, name: str):
        self.conn.execute(f"DROP INDEX IF EXISTS {name}")
