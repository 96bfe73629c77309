"""Optional chat model, loaded once per process through ``init_chat_model``."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4)
def load_chat_model(spec: str):
    """A LangChain chat model from an ``init_chat_model`` string such as ``openai:gpt-4o-mini``."""
    from langchain.chat_models import init_chat_model

    return init_chat_model(spec, temperature=0)
