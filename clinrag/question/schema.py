"""What the question-understanding step read in a question (``understood`` in the state and in ``ask --json``)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field


class Rewrite(BaseModel):
    """One change made to the searched text: a lay word mapped to the corpus's term, or a typo corrected."""

    said: str = Field(description="The words as typed, e.g. 'pap smear' or 'mamograms'.")
    searched: str = Field(description="What was searched instead, e.g. 'cervical cancer screening cytology'.")
    kind: Literal["lay_term", "spelling", "shorthand"]


# what a question can say that puts the person outside the average-risk population most recommendations are for
RiskFactor = Literal["family history"]


class Understood(BaseModel):
    """Organizations, dates, change intent, the person and the language of a question, and how it was searched."""

    asked: str = Field(description="The question as understood (a follow-up already resolved).")
    searched_as: str = Field(description="The text retrieval searches: lay words and typos in the corpus's terms, "
                             "plus the person's age and sex when stated.")
    language: Literal["en", "other"] = Field(default="en", description="English or not (clinrag answers English).")
    language_hint: str | None = Field(default=None, description="Which language it looked like, when not English.")
    organizations: list[str] = Field(default_factory=list,
                                     description="Corpus `org` values the question names, e.g. ['USPSTF'].")
    year: int | None = Field(default=None, description="A year the question asks about ('in 2016', 'the 2012 "
                             "guideline'): that year's version goes first; later versions stay, labelled.")
    as_of: dt.date | None = Field(default=None, description="'as of 2019': only documents issued by then, each "
                                  "labelled with its status at that date.")
    before: dt.date | None = Field(default=None, description="'before 2022': versions in force before that date are "
                                   "wanted (superseded versions included).")
    recent: bool = Field(default=False, description="'recently', 'what's new': the latest change is asked about.")
    change_intent: bool = Field(default=False, description="Asks how guidance changed (or a past version).")
    comparison: bool = Field(default=False, description="Asks whether organizations agree or differ.")
    age: int | None = Field(default=None, description="The person's age when stated ('my 72 year old dad' -> 72).")
    sex: Literal["female", "male"] | None = Field(default=None, description="The person's sex when stated.")
    ages: tuple[int | None, int | None] | None = Field(
        default=None, description="The ages the question asks about, inclusive, None where open ('women aged 75 and "
        "older' -> [75, null], 'people in their sixties' -> [60, 69], 'my 72 year old dad' -> [72, 72]): "
        "disagreements are narrowed to them.")
    risk_factors: list[RiskFactor] = Field(default_factory=list, description="What the question says about the "
                                           "person's risk ('my dad had colon cancer' -> 'family history'); the "
                                           "answer lists what the sources state for those people.")
    rewrites: list[Rewrite] = Field(default_factory=list)
    method: Literal["rules", "chat_model"] = "rules"
    note: str | None = Field(default=None, description="Why the chat model's parse was not used, when it was not.")
