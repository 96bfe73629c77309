"""The ``clinrag`` console script: the command line of :mod:`clinrag.cli.main`, with less work for Python's cycle
collector at start and at exit.

A one-question ``clinrag ask`` is mostly start-up and shut-down. Importing LangGraph, LangChain, LangSmith and
pydantic allocates ~180,000 objects the cycle collector tracks; with its default first-generation threshold (700
allocations) it runs some 250 times while they are built and rescans them as they age (~0.15-0.2 s here). At exit the
interpreter tears those ~1,400 modules down and the collector scans everything once more (~0.3-0.4 s on a 2-core
machine). So the first-generation threshold is raised to GEN0_THRESHOLD (the older generations keep their default
ratios: the collector still runs, about 140 times less often), and after the command everything is frozen
(``gc.freeze``: left out of the exit scan). Exit handlers still run and output is flushed as usual. Only the process
entry does this: a caller of :func:`clinrag.cli.main.main` (tests, other programs) keeps its own settings.
"""

from __future__ import annotations

import gc

GEN0_THRESHOLD = 100_000
"""Allocations between first-generation collections (Python's default: 700): about half of what the imports
allocate, so start-up sees two collections instead of ~250, and a long command (``serve``, ``chat``, an index
build) still collects its cycles within every 100,000 allocations."""


def run() -> int:
    gc.set_threshold(GEN0_THRESHOLD, *gc.get_threshold()[1:])
    from clinrag.cli.main import main

    rc = main()
    gc.freeze()
    return rc
