"""The chat-model side of question understanding: a structured-output parse, retried once, merged with the rules.

Organizations the model names are normalized through the same alias data as the rules (a name that is no corpus
organization is dropped); the person appended to the searched text and the rules' rewrites are kept. Any failure
(provider error, invalid output twice) returns the rules' result with a note saying so.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Literal

from pydantic import BaseModel, Field

from clinrag.question.schema import Understood
from clinrag.question.understanding import describe_person, organizations
from clinrag.question.vocabulary import Vocabulary

log = logging.getLogger(__name__)
ATTEMPTS = 2  # one retry: a malformed structured reply is usually a one-off


class ChatParse(BaseModel):
    organizations: list[str] = Field(default_factory=list)
    year: int | None = None
    as_of: dt.date | None = None
    before: dt.date | None = None
    change_intent: bool = False
    comparison: bool = False
    age: int | None = Field(default=None, ge=0, le=120)
    sex: Literal["female", "male"] | None = None
    language: Literal["en", "other"] = "en"
    searched_as: str = ""


def merge(rules: Understood, parsed: ChatParse, vocab: Vocabulary) -> Understood:
    orgs = list(dict.fromkeys(o for name in parsed.organizations for o in organizations(name, vocab)))
    age, sex = parsed.age or rules.age, parsed.sex or rules.sex
    person = describe_person(age, sex)
    searched = parsed.searched_as.strip() or rules.searched_as
    if person and person not in searched:
        searched = f"{searched} ({person})"
    return rules.model_copy(update={
        "organizations": orgs or rules.organizations, "year": parsed.year or rules.year,
        "as_of": parsed.as_of or rules.as_of, "before": parsed.before or rules.before,
        "change_intent": parsed.change_intent or rules.change_intent,
        "comparison": parsed.comparison or rules.comparison,
        "age": age, "sex": sex, "ages": rules.ages or ((age, age) if age else None),
        "language": parsed.language, "searched_as": searched, "method": "chat_model",
    })


def parse_with_chat_model(question: str, rules: Understood, vocab: Vocabulary, chat_model: str) -> Understood:
    from clinrag.chat_models import load_chat_model
    from clinrag.prompts.understanding import UNDERSTANDING_SYSTEM, UNDERSTANDING_USER

    last_error = None
    for _ in range(ATTEMPTS):
        try:
            model = load_chat_model(chat_model).with_structured_output(ChatParse)
            parsed = model.invoke([("system", UNDERSTANDING_SYSTEM),
                                   ("human", UNDERSTANDING_USER.format(question=question))])
            if not isinstance(parsed, ChatParse):
                parsed = ChatParse.model_validate(parsed)
            return merge(rules, parsed, vocab)
        except Exception as e:  # provider error or invalid structured output: retry, then the rules
            last_error = e
    log.warning("question understanding by the chat model failed (%s): using the rules", last_error)
    return rules.model_copy(update={"note": f"chat-model parse failed ({type(last_error).__name__}); rules used"})
