"""Follow-up resolution: a chat turn such as "and what about ACS?" read against the earlier questions.

Without a chat model the rewrite is deterministic: a turn that is elliptical (it opens like a follow-up -
"and ...", "what about ...", "how about ..." - or refers back with a pronoun in a short sentence, or has at most
three words) is appended to the previous standalone question, so the searched question keeps the earlier topic,
population and organization and adds what the turn changes. Earlier follow-ups are resolved the same way first,
so chains ("what about men?" then "and in 2012?") keep their context. With a chat model configured, a
condense-question prompt (``prompts/follow_up.py``) rewrites the turn; an empty or failed reply falls back to
the rule.
"""

from __future__ import annotations

import logging
import re

from langchain_core.messages import AnyMessage, HumanMessage

from clinrag.chat_models import load_chat_model
from clinrag.prompts.follow_up import CONDENSE_SYSTEM, CONDENSE_USER
from clinrag.schema import FollowUp

log = logging.getLogger(__name__)

_LEAD = re.compile(r"^\s*(?:(?:and|but|also|or|so|then|plus|ok(?:ay)?)\b[\s,]*|(?:what|how)\s+(?:about|of|if)\b)", re.I)
_CONJUNCTION = re.compile(r"^\s*(?:and|but|also|or|so|then|plus|ok(?:ay)?)\b[\s,]*", re.I)
_BACK_REFERENCE = re.compile(r"\b(?:it|its|they|them|their|that|this|those|these|he|she|him|her)\b", re.I)
SHORT_TURN_WORDS = 3
BACK_REFERENCE_MAX_WORDS = 8
HISTORY_TURNS = 4  # earlier questions shown to the chat model


def message_text(message: AnyMessage) -> str:
    content = message.content
    if isinstance(content, list):
        content = " ".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content).strip()


def human_turns(messages: list[AnyMessage]) -> list[str]:
    """The text of every human message, oldest first."""
    return [text for m in messages if isinstance(m, HumanMessage) and (text := message_text(m))]


def is_follow_up(text: str) -> bool:
    """Whether a turn only makes sense after an earlier question (see the module docstring for the rule)."""
    words = text.split()
    return (
        bool(_LEAD.match(text))
        or len(words) <= SHORT_TURN_WORDS
        or (len(words) <= BACK_REFERENCE_MAX_WORDS and bool(_BACK_REFERENCE.search(text)))
    )


def combine(previous: str, asked: str) -> str:
    """The previous standalone question followed by what the follow-up adds ("and in 2012?" -> "... In 2012?")."""
    added = _CONJUNCTION.sub("", asked).strip() or asked.strip()
    added = added[0].upper() + added[1:]
    previous = previous.rstrip()
    return f"{previous} {added}" if previous[-1:] in {"?", ".", "!"} else f"{previous}. {added}"


def standalone_by_rule(turns: list[str]) -> str:
    """The last turn as a standalone question, resolving every earlier follow-up in order."""
    current = ""
    for turn in turns:
        current = combine(current, turn) if current and is_follow_up(turn) else turn
    return current


def condense_with_chat_model(chat_model, earlier: list[str], asked: str) -> str | None:
    history = "\n".join(f"- {q}" for q in earlier[-HISTORY_TURNS:])
    try:
        reply = chat_model.invoke([("system", CONDENSE_SYSTEM),
                                   ("human", CONDENSE_USER.format(history=history, follow_up=asked))])
    except Exception as e:  # provider error: the rule still resolves the turn
        log.warning("condensing the follow-up failed (%s): using the rule", e)
        return None
    lines = [line.strip() for line in str(reply.content).splitlines() if line.strip()]
    return lines[0] if lines else None


def resolve_follow_up(earlier: list[str], asked: str, chat_model: str | None = None) -> FollowUp | None:
    """``asked`` as a standalone question given the ``earlier`` human turns; None when it already stands alone."""
    if not earlier:
        return None
    previous = standalone_by_rule(earlier)
    if chat_model:
        condensed = condense_with_chat_model(load_chat_model(chat_model), earlier, asked)
        if condensed:
            if condensed == asked:
                return None
            return FollowUp(asked=asked, previous=previous, resolved=condensed, method="chat_model")
    if not is_follow_up(asked):
        return None
    return FollowUp(asked=asked, previous=previous, resolved=combine(previous, asked), method="rule")
