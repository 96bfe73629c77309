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
