"""Test configuration: an isolated index folder, offline model loading, no LangSmith traffic."""

from __future__ import annotations

import os
import tempfile

# Set before clinrag is imported anywhere: indexes built by tests never touch the user's cache.
os.environ.setdefault("CLINRAG_INDEX_ROOT", tempfile.mkdtemp(prefix="clinrag-test-index-"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ["LANGSMITH_TRACING"] = "false"
os.environ["LANGCHAIN_TRACING_V2"] = "false"
os.environ.setdefault("LANGSMITH_TEST_TRACKING", "false")
for var in [v for v in os.environ
            if v.startswith("CLINRAG_") and v != "CLINRAG_INDEX_ROOT" and v != "CLINRAG_DATA_DIR"]:
    del os.environ[var]  # a developer's own settings must not change test results

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def guideline_index():
    """The built-in guideline corpus, indexed once per test session."""
    from clinrag.tools.index.store import get_index

    return get_index()


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory) -> str:
    """A PostgreSQL database URL for the session: CLINRAG_TEST_DATABASE_URL, else a pgserver in a temporary folder."""
    given = os.environ.get("CLINRAG_TEST_DATABASE_URL")
    if given:
        yield given
        return
    try:
        import pgserver

        server = pgserver.get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="stop")
        url = server.get_uri()
    except Exception as e:  # not a skip: the test needs a real PostgreSQL and says why there is none
        pytest.fail(f"pgserver could not start PostgreSQL (set CLINRAG_TEST_DATABASE_URL to use another server): "
                    f"{type(e).__name__}: {e}", pytrace=False)
    yield url
    server.cleanup()


@pytest.fixture
def postgres_db(postgres_url) -> str:
    """A fresh, empty database on the session's PostgreSQL server (with pgvector), for one test; dropped after."""
    import uuid

    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"clinrag_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = make_conninfo(postgres_url, dbname=name)
    yield url
    from clinrag.tools.index.pg_store import close_stores

    close_stores(url)  # their pools hold connections to the database about to be dropped
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def graph():
    from clinrag.graph import graph as compiled

    return compiled


@pytest.fixture(scope="session")
def studio(tmp_path_factory):
    """One ``langgraph dev`` server (free loopback port, offline) for every integration test that needs it."""
    from studio_server import running_studio

    with running_studio(tmp_path_factory.mktemp("studio")) as server:
        yield server


@pytest.fixture(scope="session")
def studio_client(studio):
    from langgraph_sdk import get_sync_client
    from studio_server import CLIENT_TIMEOUT

    # api_key=None: don't forward a developer's LANGSMITH/LANGGRAPH API key to the local server.
    sync_client = get_sync_client(url=studio.url, api_key=None, timeout=CLIENT_TIMEOUT)
    yield sync_client
    sync_client.close()


@pytest.fixture
def langsmith_api(monkeypatch):
    """A recording stand-in for the LangSmith API (tests/langsmith_recorder.py), with the environment pointed at
    it and no langsmith client cached from an earlier test (they read the environment once)."""
    import langchain_core.tracers.langchain as lc_tracer
    import langsmith.run_trees as run_trees
    import langsmith.utils as ls_utils
    from langsmith_recorder import API_KEY, recording_langsmith

    with recording_langsmith() as recorder:
        monkeypatch.setenv("LANGSMITH_API_KEY", API_KEY)
        monkeypatch.setenv("LANGSMITH_ENDPOINT", recorder.url)
        monkeypatch.setattr(run_trees, "_CLIENT", None, raising=False)
        monkeypatch.setattr(lc_tracer, "_CLIENT", None, raising=False)
        ls_utils.get_env_var.cache_clear()
        yield recorder
    ls_utils.get_env_var.cache_clear()
