"""Graph state: a narrow input (a question or chat messages), a narrow output, and the working state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph import add_messages

from clinrag.schema import ContradictionEdge, EvidenceItem, Hypotheses, ScopeDecision


@dataclass(kw_only=True)
class InputState:
    """What a caller sends: a ``question``, or chat ``messages`` whose last human message is the question."""

    question: str = ""
    messages: Annotated[list[AnyMessage], add_messages] = field(default_factory=list)


@dataclass(kw_only=True)
class OutputState:
    """What a caller gets back."""

    question: str = ""
    decision: Literal["answer", "abstain"] | None = None
    abstain_reason: Literal["out_of_scope", "insufficient_support"] | None = None
    reason: str | None = None
    answer: str = ""
    evidence: list[EvidenceItem] = field(default_factory=list)
    contradictions: list[ContradictionEdge] = field(default_factory=list)
    hypotheses: Hypotheses | None = None
    messages: Annotated[list[AnyMessage], add_messages] = field(default_factory=list)


@dataclass(kw_only=True)
class State(InputState, OutputState):
    """Working state shared by the nodes."""

    scope: ScopeDecision | None = None
    chr_lambda: float = 0.0
    hypotheses_note: str | None = None
    support: float | None = None
