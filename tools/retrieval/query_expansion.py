"""Chat-model text for retrieval: CHR hypotheses and the expansions of the HyDE, Query2doc and multi-query baselines.

Every call uses structured output and is retried; output that is still malformed raises ValueError, and the
caller falls back to a stated alternative (never to a silent guess). The chat model's temperature is 0
(:func:`clinrag.chat_models.load_chat_model`), so N HyDE passages are asked for in one call, as a list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel, Field

from clinrag.prompts.expansions import EXPANSION_USER, HYDE_SYSTEM, MULTI_QUERY_SYSTEM, QUERY2DOC_SYSTEM
from clinrag.prompts.hypotheses import HYPOTHESES_SYSTEM, HYPOTHESES_USER, question_with_options
from clinrag.schema import Hypotheses

MAX_ATTEMPTS = 2
Model = TypeVar("Model", bound=BaseModel)


class Passages(BaseModel):
    passages: list[str] = Field(description="Short textbook-style passages.")


class Queries(BaseModel):
    queries: list[str] = Field(description="Search queries.")


def structured_call(chat_model, schema: type[Model], messages: list, valid: Callable[[Model], bool]) -> Model:
    """One structured-output call, retried; ValueError when the output is unusable after the retries."""
    structured = chat_model.with_structured_output(schema)
    last_error: Exception | None = None
    for _ in range(MAX_ATTEMPTS):
        try:
            result = structured.invoke(messages)
            parsed = result if isinstance(result, schema) else schema.model_validate(result)
            if valid(parsed):
                return parsed
            last_error = ValueError(f"empty or incomplete {schema.__name__}")
        except Exception as e:  # malformed output or provider error: retry, then let the caller fall back
            last_error = e
    raise ValueError(f"{schema.__name__} generation failed after {MAX_ATTEMPTS} attempts: {last_error}")


def generate_hypotheses(chat_model, question: str, options: dict[str, str] | None = None) -> Hypotheses:
    """CHR: H+ and H- as short textbook-style passages, in one call."""
    messages = [("system", HYPOTHESES_SYSTEM),
                ("human", HYPOTHESES_USER.format(question=question_with_options(question, options)))]
    return structured_call(chat_model, Hypotheses, messages, lambda h: bool(h.target.strip() and h.mimic.strip()))


def _texts(items: list[str], n: int) -> list[str]:
    return [t.strip() for t in items if isinstance(t, str) and t.strip()][:n]


def generate_passages(chat_model, question: str, n: int = 1, style: str = "hyde",
                      options: dict[str, str] | None = None) -> list[str]:
    """HyDE (``style="hyde"``, N passages) or Query2doc (``style="query2doc"``, one passage)."""
    system = HYDE_SYSTEM.format(n=n) if style == "hyde" else QUERY2DOC_SYSTEM
    want = n if style == "hyde" else 1
    messages = [("system", system), ("human", EXPANSION_USER.format(question=question_with_options(question, options)))]
    result = structured_call(chat_model, Passages, messages, lambda p: bool(_texts(p.passages, want)))
    return _texts(result.passages, want)


def generate_queries(chat_model, question: str, n: int = 3, options: dict[str, str] | None = None) -> list[str]:
    """Multi-query: ``n`` reformulations of the question (the question itself is always searched too)."""
    messages = [("system", MULTI_QUERY_SYSTEM.format(n=n)),
                ("human", EXPANSION_USER.format(question=question_with_options(question, options)))]
    result = structured_call(chat_model, Queries, messages, lambda q: bool(_texts(q.queries, n)))
    return _texts(result.queries, n)


def generate_expansions(chat_model, retriever: str, question: str, *, hyde_generations: int = 1,
                        multi_queries: int = 3, options: dict[str, str] | None = None) -> list[str]:
    """The generated text a baseline retriever needs (empty for chr, dense and bm25)."""
    if retriever == "hyde":
        return generate_passages(chat_model, question, hyde_generations, "hyde", options)
    if retriever == "query2doc":
        return generate_passages(chat_model, question, 1, "query2doc", options)
    if retriever == "rrf":
        return generate_queries(chat_model, question, multi_queries, options)
    return []
