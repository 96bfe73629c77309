"""Lexical action cues: which words state which action of a recommendation (recommend, suggest or consider,
individual decision, insufficient evidence, recommend against, discourage), checked in order, first match wins.
:func:`rules.action` applies them after a grade or class, which decides when present."""

from __future__ import annotations

from clinrag.tools.frames.cues_against import AGAINST_CUES
from clinrag.tools.frames.cues_decision import DECISION_CUE, MAY_CHOOSE
from clinrag.tools.frames.cues_for import FOR_CUES

# Lexical action cues, checked in this order (first match wins): against and no stance (:mod:`cues_against`), an
# individual decision (:mod:`cues_decision`), for (:mod:`cues_for`), and last a choice offered on its own.
ACTION_CUES: tuple[tuple[str, str], ...] = (*AGAINST_CUES, DECISION_CUE, *FOR_CUES, MAY_CHOOSE)
