"""Running one question through the graph and shaping the result (shared by the CLI, evals and benchmarks)."""

from __future__ import annotations

from collections.abc import Mapping

from clinrag.context import Context
from clinrag.options import MAX_QUESTION_CHARS
from clinrag.schema import AskResult


class InputError(ValueError):
    """A question or option clinrag cannot take. ``code`` is stable (``empty_question``, ``question_too_long``,
    ``invalid_character``, ``invalid_utf8``, ``invalid_type``, ``invalid_option``); the message says what to change."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict:
        """The ``{"code", "message"}`` object of an error line of ``clinrag ask --json -``."""
        return {"code": self.code, "message": self.message}


def validate_question(question: object) -> str:
    """The question stripped of surrounding whitespace, or :class:`InputError` when it is not a string, is empty or
    whitespace only, is longer than ``MAX_QUESTION_CHARS``, holds a NUL character, or holds text that is not valid
    Unicode (lone surrogates: undecodable bytes of a command-line argument)."""
    if not isinstance(question, str):
        raise InputError("invalid_type", f"the question must be a string, not {type(question).__name__}")
    question = question.strip()
    if not question:
        raise InputError("empty_question", "the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise InputError("question_too_long",
                         f"the question has {len(question)} characters; the maximum is {MAX_QUESTION_CHARS}")
    if "\x00" in question:
        raise InputError("invalid_character", f"the question contains a NUL character (at {question.index(chr(0))})")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError("invalid_utf8", f"the question is not valid UTF-8 (character {e.start})") from None
    return question


def _check_option_types(ctx: Context) -> Context:
    """``ctx`` when every field holds a value of its declared type (an int for ``k``, at least 1; a float or int
    for a threshold; a string or None for a path), else :class:`InputError` naming the field."""
    import dataclasses
    import types
    from typing import Literal, Union, get_args, get_origin, get_type_hints

    hints = get_type_hints(Context)
    for f in dataclasses.fields(Context):
        value, annotation = getattr(ctx, f.name), hints[f.name]
        allowed = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
        if value is None and type(None) in allowed:
            continue
        ok = False
        for a in allowed:
            if get_origin(a) is Literal:
                a = str
            if a is int:
                ok |= isinstance(value, int) and not isinstance(value, bool)
            elif a is float:
                ok |= isinstance(value, int | float) and not isinstance(value, bool) and value == value
            elif isinstance(a, type) and a is not type(None):
                ok |= isinstance(value, a)
        if not ok:
            wanted = " or ".join("a string" if get_origin(a) is Literal else getattr(a, "__name__", str(a))
                                 for a in allowed)
            raise InputError("invalid_option", f"option {f.name!r} must be {wanted.replace('NoneType', 'None')}, "
                                               f"not {type(value).__name__} {str(value)[:40]!r}")
    if ctx.k < 1:
        raise InputError("invalid_option", f"option 'k' must be at least 1, not {ctx.k}")
    return ctx


def context_of(context: object) -> Context:
    """The run's Context from what the caller gave: a Context, None (the defaults), or a mapping of Context field
    names. A field Context does not have, or a value of the wrong type, is an :class:`InputError`."""
    if context is None:
        return Context()
    if isinstance(context, Context):
        return _check_option_types(context)
    if isinstance(context, Mapping):
        import dataclasses

        names = {f.name for f in dataclasses.fields(Context)}
        unknown = sorted(str(k) for k in context if k not in names)
        if unknown:
            raise InputError("invalid_option", f"unknown option(s): {', '.join(unknown)}")
        try:
            return _check_option_types(Context(**context))
        except InputError:
            raise
        except (TypeError, ValueError) as e:
            raise InputError("invalid_option", str(e)) from None
    raise InputError("invalid_type",
                     f"the context must be a clinrag Context or a mapping, not {type(context).__name__}")


def to_result(state: dict) -> AskResult:
    """The graph's output state as the ``clinrag ask --json`` object."""
    evidence_fields = ("doc_id", "org", "title", "issued", "year", "status", "superseded_by", "source_type", "score",
                       "support_score", "contradiction_salience", "text")
    return AskResult(
        question=state.get("question", ""),
        decision=state.get("decision") or "abstain",
        abstain_reason=state.get("abstain_reason"),
        reason=state.get("reason"),
        evidence=[{f: e.get(f) for f in evidence_fields} for e in state.get("evidence") or []],
        contradictions=state.get("contradictions") or [],
        disagreements=state.get("disagreements") or [],
        hypotheses=state.get("hypotheses"),
        answer=state.get("answer", ""),
        understood=state.get("understood"),
    )


def validate_inputs(inputs: dict) -> dict:
    """Graph inputs with their question validated (:func:`validate_question`): ``{"question": ...}``, or the last
    human message of ``{"messages": [...]}`` (a chat turn). Raises :class:`InputError`."""
    if "question" in inputs:
        inputs = {**inputs, "question": validate_question(inputs["question"])}
    messages = inputs.get("messages")
    if messages:
        last = messages[-1]
        content = getattr(last, "content", last[1] if isinstance(last, tuple) and len(last) == 2 else None)
        if getattr(last, "type", "human") == "human" and content is not None:
            validate_question(content)
    return inputs


def stream_run(graph, inputs: dict, context: Context | None = None, config: dict | None = None, on_event=None) -> dict:
    """Run ``graph`` streaming clinrag's custom events to ``on_event`` as they happen; returns the final state.
    The question (or the chat turn) is validated first (:func:`validate_inputs`)."""
    from clinrag.tools.index.corpus_store import question_snapshot

    inputs = validate_inputs(inputs)
    final: dict = {}
    with question_snapshot():  # one corpus snapshot for the whole question (PostgreSQL store)
        for mode, chunk in graph.stream(inputs, config, context=context or Context(),
                                        stream_mode=["custom", "values"]):
            if mode == "values":
                final = chunk
            elif on_event is not None:
                on_event(chunk)
    return final


def ask(question: str, context: Context | Mapping | None = None) -> AskResult:
    """Answer one question (validated first: :func:`validate_question`, :func:`context_of`; an input it cannot take
    raises :class:`InputError`, a ``ValueError``)."""
    from clinrag.graph import graph
    from clinrag.tools.index.corpus_store import question_snapshot

    question = validate_question(question)
    with question_snapshot():  # one corpus snapshot for the whole question (PostgreSQL store)
        return to_result(graph.invoke({"question": question}, context=context_of(context)))
