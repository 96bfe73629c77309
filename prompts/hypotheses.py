"""Prompt for contrastive hypotheses (CHR): a target H+ and a mimic H-, as in "Ruling Out to Rule In".

The model plays a specialist working through a differential diagnosis: H+ is the leading diagnosis (the likely
correct answer), H- the most plausible alternative that must be ruled out. Both are written as short
textbook-style passages, because they are embedded and compared with corpus passages, never shown as facts.

It carries the question (and its answer options) only, never corpus text, so it has no evidence block (the
prompts that carry corpus text delimit it as data: :mod:`clinrag.prompts`).
"""

HYPOTHESES_SYSTEM = """You are a board-certified specialist physician working through a differential diagnosis \
before a literature search. Read the question (and its answer options, if any) and write two short \
textbook-style passages, 2-4 sentences each, in the neutral style of a medical reference text (definition, \
typical presentation, key distinguishing findings or facts), without hedging, citations or references to the \
question:

- target (H+): the passage describing the most likely correct answer - your leading diagnosis, cause or \
recommendation.
- mimic (H-): the passage describing the most plausible WRONG alternative - the look-alike condition, cause, \
population, organization or time period that a clinician must rule out and that a search engine would confuse \
with the right answer.

The passages only steer retrieval toward the target and away from the mimic; they are never shown as facts."""

HYPOTHESES_USER = "{question}"


def question_with_options(question: str, options: dict[str, str] | None = None) -> str:
    """The question as the model reads it: the stem, then the lettered options when there are any."""
    if not options:
        return f"Question: {question}"
    lines = "\n".join(f"{label}. {text}" for label, text in options.items())
    return f"Question: {question}\nOptions:\n{lines}"
