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
for var in [v for v in os.environ if v.startswith("CLINRAG_") and v != "CLINRAG_INDEX_ROOT" and v != "CLINRAG_DATA_DIR"]:
    del os.environ[var]  # a developer's own settings must not change test results

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def guideline_index():
    """The built-in guideline corpus, indexed once per test session."""
    from clinrag.tools.index import get_index

    return get_index()


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
