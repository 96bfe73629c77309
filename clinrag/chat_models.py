"""Optional chat model, loaded once per process through ``init_chat_model``."""

from __future__ import annotations

from functools import lru_cache


class ChatModelError(RuntimeError):
    """A chat model that cannot be loaded: unknown provider, or its integration package is not installed.

    Not a ValueError on purpose: nodes that fall back from a failed *generation* (ValueError) must not hide a
    configuration that can never work."""


def provider_package(spec: str) -> str | None:
    """The pip package of the provider named in ``spec`` ('ollama:llama3.1' -> 'langchain-ollama'), if known."""
    provider = spec.split(":", 1)[0] if ":" in spec else None
    try:
        from langchain.chat_models.base import _BUILTIN_PROVIDERS  # provider -> (module, class, ...)
    except ImportError:  # pragma: no cover - a langchain without the table
        return None
    if provider not in _BUILTIN_PROVIDERS:
        return None
    return _BUILTIN_PROVIDERS[provider][0].split(".", 1)[0].replace("_", "-")


@lru_cache(maxsize=4)
def load_chat_model(spec: str):
    """A LangChain chat model from an ``init_chat_model`` string such as ``openai:gpt-4o-mini``.

    Raises ChatModelError, in one line, when the provider is unknown or its package is missing."""
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(spec, temperature=0)
    except (ImportError, AttributeError) as e:  # AttributeError: a provider class missing from a fallback module
        package = provider_package(spec)
        hint = f"install {package} (pip install {package})" if package else f"its provider package is missing ({e})"
        raise ChatModelError(f"chat model {spec!r} cannot be loaded: {hint}") from e
    except ValueError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ChatModelError(f"chat model {spec!r} cannot be loaded: {first} Use PROVIDER:MODEL, e.g. "
                             "openai:gpt-4o-mini or ollama:llama3.1.") from e
