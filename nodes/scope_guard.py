"""Scope guard: abstain, with the reason, on questions outside the corpus's declared scope.

Two signals, both read from the corpus's scope declaration (data, not code):
1. the declared rules (regular expressions) of each exclusion decide on their own;
2. otherwise the question's embedding is compared with each exclusion's description and examples, and with
   what is in scope (the scope description and examples, the document titles and every corpus sentence): out
   of scope when an exclusion is similar enough and clearly more similar than anything in scope. This catches
   phrasings no rule lists, without flagging questions the corpus itself answers.

Before both, question understanding (``clinrag.question``) reads the question: a question not in English is
refused (category ``language``: clinrag answers in English only); the rules then run on the question as typed and
the full test on the text that will be searched (lay words and typos in the corpus's terms, the person's age and
sex), so "my mom is 78" is judged as a question about a woman aged 78. An as-of date earlier than anything the
corpus holds on the topic ends the run here with "no guidance in this corpus as of <date>".
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from clinrag.context import Context
from clinrag.follow_up import human_turns, resolve_follow_up
from clinrag.follow_up import message_text as _text
from clinrag.graph.events import emit
from clinrag.graph.runtime import context_of, index_of
from clinrag.graph.state import PER_RUN_RESET, State, to_json
from clinrag.question.schema import Understood
from clinrag.question.understanding import understand, understanding_enabled
from clinrag.schema import ScopeDecision, ScopeDeclaration
from clinrag.tools.index.corpus_store import CorpusStore
from clinrag.tools.index.embeddings import embed_cached


def question_from(state: State) -> str:
    """This turn's question: a chat turn ends with a human message; otherwise the ``question`` field."""
    if state.messages and isinstance(state.messages[-1], HumanMessage):
        return _text(state.messages[-1])
    return state.question.strip()


LANGUAGE_MESSAGE = "clinrag answers questions in English only. Please ask your question in English."


def rule_decision(question: str, scope: ScopeDeclaration | None) -> ScopeDecision | None:
    """The first declared rule the question matches, as an out-of-scope decision; None when none does."""
    for cat in scope.out_of_scope if scope else ():
        for pattern in cat.patterns:
            if re.search(pattern, question, re.I):
                return ScopeDecision(
                    in_scope=False, category=cat.id, message=cat.message,
                    reason=f"Outside this corpus's scope ({cat.description}); matched the declared rule /{pattern}/.",
                )
    return None


def in_scope_similarity(q_vec: np.ndarray, scope: ScopeDeclaration,
                        corpus_cosine: Callable[[np.ndarray], float]) -> float:
    """The highest cosine between the question and anything in scope: the declaration's description and examples,
    and the corpus itself (``corpus_cosine``: a corpus store's ``max_in_scope_cosine``)."""
    declared = embed_cached([scope.description, *scope.in_scope_examples])
    return max(float(np.max(declared @ q_vec)), corpus_cosine(q_vec))


def classify_scope(
    question: str, scope: ScopeDeclaration | None, corpus_cosine: Callable[[np.ndarray], float], threshold: float,
    margin: float,
) -> ScopeDecision:
    """Rules first, then embedding similarity (:func:`in_scope_similarity` against the closest exclusion)."""
    if scope is None:
        return ScopeDecision(in_scope=True, reason="The corpus declares no scope; every question is searched.")
    ruled = rule_decision(question, scope)
    if ruled is not None:
        return ruled
    q_vec = embed_cached([question])[0]
    sim_in = in_scope_similarity(q_vec, scope, corpus_cosine)
    best_cat, best_sim = None, -1.0
    for cat in scope.out_of_scope:
        sim = float(np.max(embed_cached([cat.description, *cat.examples]) @ q_vec))
        if sim > best_sim:
            best_cat, best_sim = cat, sim
    if best_cat is not None and best_sim >= threshold and best_sim - sim_in >= margin:
        return ScopeDecision(
            in_scope=False, category=best_cat.id, message=best_cat.message, similarity=round(best_sim, 4),
            reason=(
                f"Outside this corpus's scope ({best_cat.description}); the question resembles that exclusion "
                f"(similarity {best_sim:.2f}) more than anything in scope ({sim_in:.2f})."
            ),
        )
    return ScopeDecision(
        in_scope=True, similarity=round(best_sim, 4),
        reason=f"Within the declared scope: {scope.description.strip()}",
    )


def scope_guard(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    asked = question_from(state)
    if not asked:
        raise ValueError("No question: send {'question': '...'} or chat messages ending with a human message.")
    chat_turn = bool(state.messages and isinstance(state.messages[-1], HumanMessage))
    # A follow-up ("and what about ACS?") is searched as the standalone question it stands for.
    earlier = human_turns(state.messages[:-1] if chat_turn else state.messages)
    follow_up = resolve_follow_up(earlier, asked, ctx.chat_model)
    question = follow_up.resolved if follow_up else asked
    if follow_up:
        emit(runtime, "follow_up", **follow_up.model_dump())
    index = index_of(ctx)
    understood = understand(question, index, ctx.chat_model) if understanding_enabled() else None
    decision = decide_scope(question, understood, index, ctx)
    emit(runtime, "scope", question=question, in_scope=decision.in_scope, category=decision.category,
         reason=decision.reason, searched_as=understood.searched_as if understood else None)
    update: dict = {**PER_RUN_RESET, "question": question, "scope": to_json(decision), "follow_up": to_json(follow_up),
                    "understood": to_json(understood)}
    if not chat_turn:
        update["messages"] = [HumanMessage(asked)]  # keep the chat transcript whole for question input
    if not decision.in_scope:
        update.update(decision="abstain", abstain_reason="out_of_scope", reason=decision.reason)
        if decision.category != "language":  # nothing is searched: only the language finding is worth keeping
            update["understood"] = None
    elif understood is not None and understood.as_of is not None:
        from clinrag.tools.retrieval.org_diverse import as_of_gap

        gap = as_of_gap(index, understood.searched_as, understood.as_of, understood.organizations, ctx.candidate_pool)
        if gap:
            update.update(decision="abstain", abstain_reason="insufficient_support", reason=gap)
    return update


def decide_scope(question: str, understood: Understood | None, index: CorpusStore, ctx: Context) -> ScopeDecision:
    """The language first, then the declared rules on the question as typed, then the full test on the searched
    text (the question itself without understanding)."""
    if understood is not None and understood.language != "en":
        looks = f" (it looks like {understood.language_hint})" if understood.language_hint else ""
        return ScopeDecision(in_scope=False, category="language", message=LANGUAGE_MESSAGE,
                             reason=f"The question is not in English{looks}; clinrag searches and answers English "
                                    "guidance only.")
    searched = understood.searched_as if understood is not None else question
    if searched != question:
        ruled = rule_decision(question, index.scope)
        if ruled is not None:
            return ruled
    return classify_scope(searched, index.scope, index.max_in_scope_cosine, ctx.scope_similarity_threshold,
                          ctx.scope_margin)
