"""Where clinrag finds its data, its built-in corpus and its on-disk index."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
BUILTIN_CORPUS = PACKAGE_DIR / "corpus" / "guidelines.jsonl"


def scope_path_for(corpus: Path) -> Path:
    """The scope declaration that travels with a corpus: ``NAME.scope.yaml`` beside ``NAME.jsonl``."""
    return corpus.with_name(corpus.name.removesuffix(".jsonl") + ".scope.yaml")


def data_dir() -> Path:
    """Public datasets: ``CLINRAG_DATA_DIR``, else ``../shared/datasets`` next to the working directory or the repo."""
    env = os.environ.get("CLINRAG_DATA_DIR")
    if env:
        return Path(env).expanduser()
    for base in (Path.cwd(), PACKAGE_DIR.parent):
        candidate = base.parent / "shared" / "datasets"
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "No data directory: set CLINRAG_DATA_DIR to the folder holding the public datasets "
        "(e.g. ../shared/datasets)."
    )


def index_root() -> Path:
    """Indexes live under ``CLINRAG_INDEX_ROOT`` (default: ``$XDG_CACHE_HOME/clinrag/index``)."""
    env = os.environ.get("CLINRAG_INDEX_ROOT")
    if env:
        return Path(env).expanduser()
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "clinrag" / "index"


def database_url() -> str | None:
    """``CLINRAG_DATABASE_URL``: the PostgreSQL database of the chat threads and of a PostgreSQL corpus store, or None
    (SQLite threads, the embedded corpus). Read from the environment only, so a password never enters a Context."""
    return os.environ.get("CLINRAG_DATABASE_URL") or None
