"""clinrag.graph: the state machine (``from clinrag.graph import graph``).

Imported lazily so that ``clinrag.graph.state`` can be imported by the nodes without building the graph.
"""

import importlib


def __getattr__(name: str):
    if name in {"graph", "build_graph"}:
        return getattr(importlib.import_module("clinrag.graph.builder"), name)
    raise AttributeError(name)
