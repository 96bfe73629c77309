"""Data models that cross a boundary: corpus records, evidence items, graph outputs.

A corpus is a JSONL file of :class:`Document` records (one JSON object per line)
plus a scope declaration (:class:`ScopeDeclaration`, YAML) that travels with it.
Any user corpus that follows this schema can be indexed with
``clinrag index build --corpus PATH``.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clinrag.question.schema import Understood
from clinrag.tools.frames.schema import Disagreement

SourceType = Literal["guideline", "abstract", "label", "leaflet", "other"]
Status = Literal["current", "superseded"]


class Document(BaseModel):
    """One corpus document: a guideline, an abstract, a drug label..."""

    model_config = ConfigDict(extra="forbid")

    doc_id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9._:/-]+$",
                        description="Stable unique id, cited as [doc_id].")
    source_type: SourceType = Field(description="guideline | abstract | label | leaflet | other")
    org: str = Field(min_length=1, description="Short name of the issuing organization (or journal for abstracts).")
    org_name: str | None = Field(default=None, description="Full organization name.")
    title: str = Field(min_length=1)
    issued: dt.date | None = Field(default=None, description="Issue / publication date (ISO).")
    year: int | None = Field(default=None, ge=1800, le=2100,
                             description="Publication year; derived from `issued` when absent.")
    status: Status = Field(default="current", description="current | superseded")
    supersedes: str | None = Field(default=None, description="doc_id of the version this one replaces.")
    superseded_by: str | None = Field(default=None, description="doc_id of the version that replaced this one.")
    topic: str | None = Field(default=None, description="Topic slug, e.g. breast-cancer-screening.")
    population: str | None = Field(default=None, description="Who the document is about.")
    text: str = Field(min_length=1, description="The passage text that is indexed and cited.")
    url: str | None = None
    pmid: str | None = None
    citation_count: int | None = Field(default=None, ge=0)

    def dated(self) -> dt.date | None:
        """The date the document counts from: its issue date, else January 1 of its year, else None."""
        return self.issued or (dt.date(self.year, 1, 1) if self.year else None)

    @model_validator(mode="after")
    def _consistent(self) -> Document:
        if self.year is None and self.issued is not None:
            self.year = self.issued.year
        if self.status == "superseded" and not self.superseded_by:
            raise ValueError("status is 'superseded' but superseded_by is empty")
        if self.superseded_by and self.status != "superseded":
            raise ValueError("superseded_by is set but status is not 'superseded'")
        if self.superseded_by == self.doc_id or self.supersedes == self.doc_id:
            raise ValueError("a document cannot supersede itself")
        return self


class ScopeCategory(BaseModel):
    """One declared exclusion: rules (regular expressions) plus descriptions for embedding similarity."""

    model_config = ConfigDict(extra="forbid")

    id: str
    description: str
    examples: list[str] = Field(default_factory=list,
                                description="Example questions of this kind, for embedding similarity.")
    patterns: list[str] = Field(default_factory=list,
                                description="Case-insensitive regular expressions that decide on their own.")
    message: str | None = Field(default=None, description="Extra message for the user, e.g. 'seek emergency care'.")


class ScopeDeclaration(BaseModel):
    """What a corpus covers and what it declares out of scope. Data, not code."""

    model_config = ConfigDict(extra="forbid")

    description: str
    in_scope_examples: list[str] = Field(default_factory=list)
    out_of_scope: list[ScopeCategory] = Field(default_factory=list)


class Passage(BaseModel):
    """A retrievable chunk of a document; carries the document's metadata."""

    passage_id: str
    doc_id: str
    chunk: int
    text: str
    meta: Document


class EvidenceItem(BaseModel):
    """A retrieved passage with its scores, as shown to users and to the answer node."""

    doc_id: str
    passage_id: str
    org: str
    title: str
    issued: str | None
    year: int | None = None
    status: Status
    superseded_by: str | None = None
    supersedes: str | None = None
    source_type: SourceType
    topic: str | None = None
    score: float = Field(description="Ranking score of the retrieval tool that returned it.")
    support_score: float = Field(description="Absolute support for the question (not rescaled per query).")
    text: str
    contradiction_salience: float = 0.0


class Hypotheses(BaseModel):
    """Contrastive hypotheses for CHR: what to find (target) and the look-alike to avoid (mimic)."""

    target: str = Field(description="H+: a short textbook-style passage stating the most likely correct answer.")
    mimic: str = Field(description="H-: a short passage stating the most plausible wrong alternative (a mimic).")


class ContradictionEdge(BaseModel):
    """An NLI-based disagreement pointer between two documents. Basis "nli": the sentence pair with the highest
    contradiction probability among pairs whose sentences state no recommendation frame (frames are compared as
    typed ``disagreements`` instead). Basis "stance" (two abstracts): the two studies' most decided result sentences
    and how far apart their support for the question is (``clinrag.tools.nli.stance``)."""

    doc_a: str
    doc_b: str
    score: float = Field(description="nli: CNT(a,b), max p_contradiction over kept cross-document sentence pairs; "
                                     "stance: |stance(a) - stance(b)| toward the question.")
    sentence_a: str
    sentence_b: str
    basis: Literal["nli", "stance"] = Field(default="nli", description="How the edge was found: sentence-pair NLI, "
                                            "or opposite stances of two studies toward the question.")


class ScopeDecision(BaseModel):
    in_scope: bool
    category: str | None = None
    reason: str
    message: str | None = None
    similarity: float | None = None


class FollowUp(BaseModel):
    """A chat turn that only makes sense after an earlier one, resolved into a standalone question."""

    asked: str = Field(description="The turn as the user wrote it, e.g. 'and what about ACS?'.")
    previous: str = Field(description="The earlier (resolved) question it was read against.")
    resolved: str = Field(description="The standalone question that was searched and answered.")
    method: Literal["rule", "chat_model"] = Field(
        description="rule: deterministic rewrite; chat_model: condensed by the chat model.")


class AskResult(BaseModel):
    """The JSON object printed by ``clinrag ask --json``."""

    question: str
    decision: Literal["answer", "abstain"]
    abstain_reason: Literal["out_of_scope", "insufficient_support"] | None
    reason: str | None = None
    evidence: list[dict]
    contradictions: list[ContradictionEdge]
    disagreements: list[Disagreement] = Field(
        default_factory=list,
        description="Typed conflicts between the recommendation frames of the evidence: a facet (start_age, "
        "stop_age, interval, action, threshold, target, eligibility) of one intervention on which documents state "
        "different values; kind 'change' between versions of one organization, 'disagreement' between organizations.",
    )
    hypotheses: Hypotheses | None
    answer: str
    understood: Understood | None = Field(
        default=None,
        description="What question understanding read: organizations named (corpus org values), year / as_of / "
        "before dates, change and comparison intent, the person's age and sex, the language, and searched_as (the "
        "text retrieval searched: lay words and typos in the corpus's terms).",
    )
