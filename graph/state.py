"""Graph state: a narrow input (a question or chat messages), a narrow output, and the working state.

The state is a pydantic model: nodes read typed evidence items, hypotheses and contradiction edges. Nodes
*write* them as plain JSON data (``to_json``; the ``as_json`` reducer enforces it for the stored values), so
any checkpointer, the LangGraph API server's included, can reload a thread and its pending writes without
deserializing clinrag classes; pydantic turns them back into models when a node reads the state.
"""

from typing import Annotated, Any, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph import add_messages
from pydantic import BaseModel, Field

from clinrag.question.schema import Understood
from clinrag.schema import ContradictionEdge, EvidenceItem, FollowUp, Hypotheses, ScopeDecision
from clinrag.tools.frames.schema import Disagreement


def to_json(value: Any) -> Any:
    """Pydantic models (also inside lists) as JSON-native data: what nodes write into the state."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [to_json(v) for v in value]
    return value


def as_json(_old: Any, new: Any) -> Any:
    """Reducer: the new value replaces the old one, stored as JSON-native data."""
    return to_json(new)


class InputState(BaseModel):
    """What a caller sends: a ``question``, or chat ``messages`` whose last human message is the question."""

    question: str = Field(
        default="",
        description="A question about published clinical guidance, e.g. 'When should average-risk women start "
        "mammography?'.",
    )
    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)
    # Multiple-choice options (label -> text), optional: without a chat model CHR takes its hypotheses from them.
    options: dict[str, str] | None = None


class OutputState(BaseModel):
    """What a caller gets back."""

    question: str = ""
    decision: Literal["answer", "abstain"] | None = None
    abstain_reason: Literal["out_of_scope", "insufficient_support"] | None = None
    reason: str | None = None
    answer: str = ""
    evidence: Annotated[list[EvidenceItem], as_json] = Field(default_factory=list)
    contradictions: Annotated[list[ContradictionEdge], as_json] = Field(default_factory=list)
    disagreements: Annotated[list[Disagreement], as_json] = Field(default_factory=list)
    hypotheses: Annotated[Hypotheses | None, as_json] = None
    # How this run retrieved: chat-model or option hypotheses, a baseline's generated texts, or query only, and why.
    hypotheses_note: str | None = None
    # Set when this turn was a follow-up ("and what about ACS?"): ``question`` then holds the resolved question.
    follow_up: Annotated[FollowUp | None, as_json] = None
    # What question understanding read: organizations, dates, change intent, the person, language, searched text.
    understood: Annotated[Understood | None, as_json] = None
    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)


class State(InputState, OutputState):
    """Working state shared by the nodes."""

    scope: Annotated[ScopeDecision | None, as_json] = None
    chr_lambda: float = 0.0
    expansions: list[str] = Field(default_factory=list)  # generated text for the hyde / query2doc / rrf baselines
    support: float | None = None


def per_run_reset(state: type[BaseModel] = State, inputs: type[BaseModel] = InputState) -> dict[str, Any]:
    """Every field of the working ``state`` that a caller does not send (not in ``inputs``: not the question, the
    options or the message history), at its default: what a new run on an existing thread must not inherit from
    the previous run. Derived, so a field added to State or OutputState is reset without being listed here."""
    return {name: f.get_default(call_default_factory=True) for name, f in state.model_fields.items()
            if name not in inputs.model_fields}


# The scope guard (first node of every run) writes these before anything else.
PER_RUN_RESET: dict[str, Any] = per_run_reset()
