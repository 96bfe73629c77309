"""Pydantic models for recommendation frames and the conflicts found between them.

A :class:`Frame` is one recommendation as a guideline sentence states it: who (population), what
(intervention, optionally the specific test), what to do (action), how often (interval), at which numbers
(thresholds that define eligibility or a diagnosis; targets to aim for) and how strongly (strength, verbatim
grade/class/level). Ages are whole years and inclusive: "older than 75" is ``age_min=76``, "younger than 21"
is ``age_max=20``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Action = Literal[
    "recommend",
    "suggest_or_consider",
    "individual_decision",
    "insufficient_evidence",
    "recommend_against",
    "discourage",
]
# Comparators of a threshold or target; "range" is an interval (value "7.5-10"), "~" is "toward / about".
Op = Literal["<", "<=", ">", ">=", "=", "range", "~"]
Facet = Literal["start_age", "stop_age", "interval", "action", "threshold", "target", "eligibility"]
Kind = Literal["disagreement", "change"]

RECOMMEND_LIKE: frozenset[str] = frozenset({"recommend", "suggest_or_consider"})
# Stance classes used to decide whether two actions disagree: "recommend" vs "suggest" differ only in strength
# (both "for"), "discourage" vs "recommend against" likewise (both "against"); an individual decision
# ("conditional") and insufficient evidence ("uncertain") are different answers.
STANCE: dict[str, str] = {
    "recommend": "for",
    "suggest_or_consider": "for",
    "individual_decision": "conditional",
    "insufficient_evidence": "uncertain",
    "recommend_against": "against",
    "discourage": "against",
}


class Interval(BaseModel):
    """Screening/repeat interval in months; a single interval has ``min == max`` ("biennial" = 24-24)."""

    min: int = Field(ge=1)
    max: int = Field(ge=1)

    def text(self) -> str:
        return f"{self.min}" if self.min == self.max else f"{self.min}-{self.max}"


class Quantity(BaseModel):
    """A numeric threshold or target: ``name`` (what is measured or defined), comparator, value text, unit."""

    name: str
    op: Op = "="
    value: str
    unit: str | None = None

    def key(self) -> tuple[str, str, str]:
        """What evaluation and conflict detection compare: comparator, value and unit (not the name)."""
        return (self.op, self.value, self.unit or "")

    def text(self) -> str:
        op = "" if self.op in ("=", "range") else self.op
        return f"{op}{self.value} {self.unit or ''}".strip()


def quantities_text(qs: list[Quantity]) -> str:
    """Quantities as a conflict shows them: "LDL-C <100 mg/dL; LDL-C <2.6 mmol/L"."""
    return "; ".join(f"{q.name} {q.text()}" for q in qs)


class Population(BaseModel):
    """Who a recommendation is about. ``criteria`` are eligibility qualifiers ("pack-years >= 20"),
    ``conditions`` are subgroup qualifiers that make it a different population ("dense breasts")."""

    sex: Literal["female", "male"] | None = None
    age_min: int | None = None
    age_max: int | None = None
    risk: str | None = None  # "average", "high", "very high"; None = not stated (general population)
    criteria: list[str] = Field(default_factory=list)
    conditions: list[str] = Field(default_factory=list)


class Frame(BaseModel):
    """One recommendation of one sentence of one document (document fields are empty for bare sentences)."""

    intervention: str
    test: str | None = None
    population: Population = Field(default_factory=Population)
    action: Action
    interval_months: Interval | None = None
    thresholds: list[Quantity] = Field(default_factory=list)
    targets: list[Quantity] = Field(default_factory=list)
    strength: str | None = None
    doc_id: str | None = None
    org: str | None = None
    issued: str | None = None
    status: str | None = None
    sentence: str = ""
    scope: Population | None = None  # the document's own stated population, a fallback for conflict checks


class FrameContext(BaseModel):
    """Document-level defaults for sentences that omit them ("biennial screening" in a breast document)."""

    intervention: str | None = None
    sex: Literal["female", "male"] | None = None
    previous: list[Population] = Field(default_factory=list)  # populations of the previous sentence ("these")
    assessed: bool = False  # whether ``previous`` is who the sentence before had a risk worked out for
    scope: Population | None = None
    # an inverse quality measure counts what should not happen, and a measure of avoidance counts its absence: their
    # numerator and denominator recommend nothing
    inverse_measure: bool = False


class ConflictValue(BaseModel):
    doc_id: str | None
    org: str | None
    issued: str | None
    status: str | None
    value: str
    strength: str | None = None
    sentence: str = ""


class Disagreement(BaseModel):
    """One typed conflict: a facet of one intervention on which two or more documents state different values.
    ``kind`` is "change" between versions of one organization, "disagreement" between organizations."""

    kind: Kind
    facet: Facet
    intervention: str
    population: str
    values: list[ConflictValue]
    pairs: list[tuple[str, str]] = Field(
        default_factory=list,
        description="The document pairs whose frames conflict (doc_id pairs, each sorted). One row can list "
        "documents that differ from a third but not from each other: USPSTF and ACS both recommend colorectal "
        "screening at 45 to 49 and each conflicts with ACP's 'consider not screening' there, not with each other.",
    )
