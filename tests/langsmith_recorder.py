"""A stand-in LangSmith API on a free loopback port that records every request and answers with plausible JSON.

It keeps datasets, examples, experiments (sessions), runs and feedback in memory, so a second upload sees what
the first one created. Only the endpoints the langsmith client calls for a dataset upload and an experiment are
answered; anything else is recorded and answered 404 (the tests assert there is none).
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

TENANT_ID = "00000000-0000-4000-8000-000000000001"
API_KEY = "lsv2-test-key"


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class Recorder:
    def __init__(self):
        self.requests: list[dict] = []
        self.datasets: dict[str, dict] = {}
        self.examples: dict[str, dict] = {}
        self.sessions: dict[str, dict] = {}
        self.runs: dict[str, dict] = {}
        self.feedback: list[dict] = []
        self.unanswered: list[str] = []
        self.lock = threading.Lock()
        self.url = ""

    def calls(self, method: str, path_prefix: str) -> list[dict]:
        return [r for r in self.requests if r["method"] == method and r["path"].startswith(path_prefix)]

    # ------------------------------------------------------------------ routing
    def handle(self, method: str, path: str, query: dict, body) -> tuple[int, object]:
        path = path.removeprefix("/api/v1")
        parts = [p for p in path.split("/") if p]
        if path == "/info":
            return 200, {"version": "0.10.0", "instance_flags": {},
                         "batch_ingest_config": {"use_multipart_endpoint": False, "scale_up_qsize_trigger": 1000,
                                                 "scale_up_nthreads_limit": 1, "scale_down_nempty_trigger": 4,
                                                 "size_limit": 100, "size_limit_bytes": 20_971_520}}
        if parts[:1] == ["datasets"]:
            return self._datasets(method, parts[1:], query, body)
        if parts[:1] == ["examples"]:
            return self._examples(method, parts[1:], query, body)
        if parts[:1] == ["sessions"]:
            return self._sessions(method, parts[1:], query, body)
        if path == "/runs/batch" and method == "POST":
            for run in body.get("post") or []:
                self.runs[str(run["id"])] = run
            for run in body.get("patch") or []:
                self.runs.setdefault(str(run["id"]), {}).update(run)
            return 202, {}
        if parts[:1] == ["runs"] and method == "POST" and len(parts) == 1:
            self.runs[str(body["id"])] = body
            return 202, {}
        if parts[:1] == ["runs"] and method == "PATCH" and len(parts) == 2:
            self.runs.setdefault(parts[1], {}).update(body)
            return 202, {}
        if path == "/feedback" and method == "POST":
            self.feedback.append(body)
            return 200, {**body, "id": str(body.get("id") or uuid.uuid4())}
        self.unanswered.append(f"{method} {path}")
        return 404, {"detail": "not found"}

    def _dataset_json(self, ds: dict) -> dict:
        examples = [e for e in self.examples.values() if e["dataset_id"] == ds["id"]]
        return {**ds, "example_count": len(examples), "session_count": 0, "tenant_id": TENANT_ID,
                "modified_at": ds["created_at"], "last_session_start_time": None}

    def _datasets(self, method, rest, query, body):
        if method == "GET" and not rest:
            found = [d for d in self.datasets.values() if "name" not in query or d["name"] == query["name"][0]]
            return 200, [self._dataset_json(d) for d in found]
        if method == "POST" and not rest:
            if any(d["name"] == body["name"] for d in self.datasets.values()):
                return 409, {"detail": "Dataset already exists"}
            ds = {"id": str(uuid.uuid4()), "name": body["name"], "description": body.get("description"),
                  "data_type": body.get("data_type", "kv"), "created_at": _now(),
                  "inputs_schema_definition": body.get("inputs_schema_definition"),
                  "outputs_schema_definition": body.get("outputs_schema_definition")}
            self.datasets[ds["id"]] = ds
            return 200, self._dataset_json(ds)
        ds = self.datasets.get(rest[0]) if rest else None
        if ds is None:
            return 404, {"detail": "Dataset not found"}
        if method == "GET" and len(rest) == 1:
            return 200, self._dataset_json(ds)
        if method == "PATCH" and len(rest) == 1:
            ds.update({k: v for k, v in body.items() if k in {"name", "description", "inputs_schema_definition",
                                                              "outputs_schema_definition"}})
            return 200, self._dataset_json(ds)
        if method == "GET" and rest[1:] == ["version"]:
            return 200, {"as_of": _now(), "tags": []}
        if method == "GET" and rest[1:] == ["splits"]:
            return 200, sorted({s for e in self.examples.values() for s in (e.get("split") or [])})
        return 404, {"detail": "not found"}

    def _example_json(self, ex: dict) -> dict:
        return {"created_at": _now(), "modified_at": _now(), "attachment_urls": None, "source_run_id": None, **ex}

    def _examples(self, method, rest, query, body):
        if method == "GET" and not rest:
            found = [e for e in self.examples.values() if "dataset" not in query or e["dataset_id"] in query["dataset"]]
            if "id" in query:
                found = [e for e in found if e["id"] in query["id"]]
            offset, limit = int(query.get("offset", ["0"])[0]), int(query.get("limit", ["100"])[0])
            return 200, [self._example_json(e) for e in found[offset:offset + limit]]
        if method == "POST" and rest == ["bulk"]:
            created = []
            for ex in body:
                ex = {**ex, "id": str(ex.get("id") or uuid.uuid4())}
                split = ex.pop("split", None)
                splits = {"dataset_split": [split] if isinstance(split, str) else split} if split else {}
                ex["metadata"] = {**(ex.get("metadata") or {}), **splits}
                self.examples[ex["id"]] = ex
                created.append(self._example_json(ex))
            return 200, created
        if method == "PATCH" and rest == ["bulk"]:
            for update in body:
                ex = self.examples[str(update["id"])]
                split = update.pop("split", None)
                ex.update({k: v for k, v in update.items() if k in {"inputs", "outputs", "metadata"}})
                if split:
                    ex["metadata"] = {**(ex.get("metadata") or {}),
                                      "dataset_split": [split] if isinstance(split, str) else split}
            return 200, {"message": f"{len(body)} examples updated", "count": len(body)}
        return 404, {"detail": "not found"}

    def _sessions(self, method, rest, query, body):
        if method == "POST" and not rest:
            session = {"id": str(body.get("id") or uuid.uuid4()), "start_time": _now(), "tenant_id": TENANT_ID, **body}
            session["id"] = str(session["id"])
            self.sessions[session["id"]] = session
            return 200, session
        if method == "GET" and not rest:
            found = [s for s in self.sessions.values() if "name" not in query or s.get("name") == query["name"][0]]
            return 200, found
        session = self.sessions.get(rest[0]) if rest else None
        if session is None:
            return 404, {"detail": "Session not found"}
        if method == "PATCH":
            session.update({k: v for k, v in body.items() if v is not None})
        return 200, session


class _Handler(BaseHTTPRequestHandler):
    recorder: Recorder

    def log_message(self, *args):  # keep the test output clean
        pass

    def _serve(self):
        split = urlsplit(self.path)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.headers.get("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        query = parse_qs(split.query)
        with self.recorder.lock:
            self.recorder.requests.append({"method": self.command, "path": split.path, "query": query, "body": body,
                                           "api_key": self.headers.get("x-api-key")})
            status, payload = self.recorder.handle(self.command, split.path, query, body)
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _serve


@contextmanager
def recording_langsmith() -> Iterator[Recorder]:
    recorder = Recorder()
    handler = type("Handler", (_Handler,), {"recorder": recorder})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    recorder.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield recorder
    finally:
        server.shutdown()
        server.server_close()
