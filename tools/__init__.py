"""clinrag.tools: indexing, retrieval and contradiction tools.

``from clinrag.tools import org_diverse_search, temporal_search, evidence_tool`` gives the LangChain tools
(imported lazily).
"""

import importlib

_TOOLS = {"org_diverse_search", "temporal_search"}


def __getattr__(name: str):
    if name in _TOOLS:
        return getattr(importlib.import_module("clinrag.tools.retrieval_tools"), name)
    if name == "evidence_tool":  # the whole graph as one tool for larger agents
        return importlib.import_module("clinrag.tools.agent_tool").evidence_tool
    raise AttributeError(name)
