"""clinrag.tools: indexing, retrieval and contradiction tools.

``from clinrag.tools import org_diverse_search, temporal_search`` gives the LangChain tools (imported lazily).
"""

import importlib

_TOOLS = {"org_diverse_search", "temporal_search"}


def __getattr__(name: str):
    if name in _TOOLS:
        return getattr(importlib.import_module("clinrag.tools.retrieval_tools"), name)
    raise AttributeError(name)
