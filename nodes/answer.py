"""Grounded answer: every claim cited to a passage; disagreement and insufficient evidence preserved.

Without a chat model the answer is built deterministically from the evidence: one entry per organization
(or study) with its date, status and its most question-relevant sentences, quoted, with the citation.
With a chat model, a grounded prompt; an answer that cites nothing it was given falls back to the
deterministic one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from clinrag import NOT_MEDICAL_ADVICE
from clinrag.chat_models import load_chat_model
from clinrag.context import Context
from clinrag.evidence_text import cite, disagreement_line, key_sentences, recommendation_sentences, status_label
from clinrag.graph.runtime import context_of, index_of
from clinrag.graph.state import State
from clinrag.grounding import CHECK_NOTE, check_answer
from clinrag.prompts import as_data
from clinrag.prompts.answer import ANSWER_SYSTEM, ANSWER_USER
from clinrag.schema import ContradictionEdge, EvidenceItem
from clinrag.study_answer import study_answer

log = logging.getLogger(__name__)
_INSUFFICIENT = re.compile(r"\binsufficient\b|\bgrade I\b")
INSUFFICIENT_NOTE = (
    "Where a source says the evidence is insufficient (USPSTF grade I), it makes no recommendation either way: "
    "that is not advice to avoid the service."
)


def _by_document(evidence: list[EvidenceItem]) -> list[tuple[EvidenceItem, list[str]]]:
    """Each document once (its first passage's item), with the texts of all its retrieved passages."""
    merged: dict[str, tuple[EvidenceItem, list[str]]] = {}
    for item in evidence:
        merged.setdefault(item.doc_id, (item, []))[1].append(item.text)
    return list(merged.values())


_BRACKETED = re.compile(r"\[([^\[\]\s]+)\]")


def quoted(text: str) -> str:
    """Corpus text as an answer quotes it: a citation-shaped ``[x]`` inside it becomes ``(x)``, so a passage cannot
    make the answer cite a document that was not retrieved (only the answer's own ``[doc_id]`` cite)."""
    return _BRACKETED.sub(r"(\1)", text)


def source_line(item: EvidenceItem, sentences: list[str]) -> str:
    """One source as the deterministic answer shows it: who, what, when, its status, its own sentences, cited."""
    return (f"- {quoted(item.org)}, {quoted(item.title)}, issued {item.issued or 'undated'}, {status_label(item)}: "
            f"{quoted(' '.join(sentences))} [{item.doc_id}]")


def risk_factor_lines(factors: list[str], evidence: list[EvidenceItem], frames_for: Callable[[str], list]
                      ) -> list[str]:
    """What the retrieved sources state for people with the risk factor the question names (a family history):
    each statement whose frame names it as a criterion, quoted and cited; or that none of them states one, so that
    an answer for average-risk people is not read as one for the asker."""
    if "family history" not in factors:
        return []
    item_of = {item.doc_id: item for item, _ in _by_document(evidence)}
    stated = dict.fromkeys((doc_id, f.sentence) for doc_id in item_of
                           for f in frames_for(doc_id) if "family history" in f.population.criteria)
    if not stated:
        return ["You mentioned a family history. None of the retrieved sources states a recommendation for people "
                "with a family history, so what they recommend for people at average risk may not apply to you."]

    def line(item: EvidenceItem, sentence: str) -> str:
        return (f"- {quoted(item.org)}, issued {item.issued or 'undated'}, {status_label(item)}: "
                f"\"{quoted(sentence)}\" [{item.doc_id}]")

    return ["You mentioned a family history. What the retrieved sources state for people with a family history:"] + [
        line(item_of[doc_id], sentence) for doc_id, sentence in stated]


def with_lines_before_notice(text: str, lines: list[str]) -> str:
    """The answer with ``lines`` inserted before its closing not-medical-advice notice (appended when it has none)."""
    if not lines:
        return text
    head, notice, tail = text.rpartition(NOT_MEDICAL_ADVICE)
    block = "\n".join(lines)
    return f"{head.rstrip()}\n{block}\n{notice}{tail}" if notice else f"{text}\n{block}"


def deterministic_answer(
    question: str, evidence: list[EvidenceItem], contradictions: list[ContradictionEdge], threshold: float,
    disagreements: list | None = None, recommendations: Callable[[str], list[str]] | None = None,
) -> str:
    """The answer without a chat model; ``recommendations``: doc_id -> its recommendation sentences (from the
    stored frames), which the quotes of a guideline prefer (:func:`key_sentences`)."""
    docs = _by_document(evidence)
    orgs = list(dict.fromkeys(item.org for item, _ in docs))
    lines = [
        f"Evidence from {len(orgs)} organizations, each listed separately (their positions are not merged):"
        if len(orgs) > 1
        else "Evidence:"
    ]
    insufficient = False
    for item, text in docs:
        chosen = key_sentences(question, text, recommendations(item.doc_id) if recommendations else None)
        insufficient |= any(_INSUFFICIENT.search(s) for s in chosen)
        lines.append(source_line(item, chosen))
    org_of = {item.doc_id: item.org for item, _ in docs}
    old = {item.doc_id for item, _ in docs if item.status == "superseded"}
    flagged = [e for e in contradictions if e.score >= threshold]
    differ = [e for e in flagged if org_of.get(e.doc_a) != org_of.get(e.doc_b)]
    changed = [e for e in flagged if org_of.get(e.doc_a) == org_of.get(e.doc_b)]
    typed = [d for d in disagreements or [] if d.kind == "disagreement"]
    changes = [d for d in disagreements or [] if d.kind == "change"]
    if typed:
        lines.append("Where they differ (compared recommendation by recommendation):")
        lines += [f"- {disagreement_line(d, old)}" for d in typed]
    if changes:
        lines.append("What changed between versions:")
        lines += [f"- {disagreement_line(d, old)}" for d in changes]
    if differ:
        lines.append("Other possible differences (sentence-pair NLI, not a comparison of recommendations):")
        lines += [f"- {org_of[e.doc_a]} {cite(e.doc_a, old)} vs {org_of[e.doc_b]} {cite(e.doc_b, old)} "
                  f"(contradiction score {e.score:.2f}): \"{quoted(e.sentence_a)}\" vs \"{quoted(e.sentence_b)}\""
                  for e in differ[:3]]
    if changed:
        lines.append("Other possible changes between versions (sentence-pair NLI):")
        lines += [f"- {cite(e.doc_a, old)} vs {cite(e.doc_b, old)}: \"{quoted(e.sentence_a)}\" vs "
                  f"\"{quoted(e.sentence_b)}\""
                  for e in changed[:2]]
    if insufficient:
        lines.append(INSUFFICIENT_NOTE)
    lines.append(NOT_MEDICAL_ADVICE)
    return "\n".join(lines)


def _format_evidence(evidence: list[EvidenceItem]) -> str:
    """The passages as the prompt's evidence block holds them (corpus text, delimiters inside it defused)."""
    return "\n\n".join(
        as_data(f"[{e.doc_id}] {e.org}, {e.title}, issued {e.issued}, {status_label(e)}:\n{e.text}") for e in evidence
    )


def llm_answer(
    chat_model, question: str, evidence: list[EvidenceItem], contradictions: list[ContradictionEdge],
    disagreements: list | None = None,
) -> str:
    """The chat model's reply to the grounded prompt, as text (checked by the caller)."""
    flagged = as_data("\n".join(f"[{c.doc_a}] vs [{c.doc_b}] ({c.score:.2f}): {c.sentence_a} | {c.sentence_b}"
                                for c in contradictions) or "none")
    typed = as_data("\n".join(disagreement_line(d) for d in disagreements or []) or "none")
    reply = chat_model.invoke([
        ("system", ANSWER_SYSTEM),
        ("human", ANSWER_USER.format(question=as_data(question), evidence=_format_evidence(evidence),
                                     contradictions=flagged, disagreements=typed)),
    ])
    return str(reply.content).strip()


def answer(state: State, runtime: Runtime[Context]) -> dict:
    ctx = context_of(runtime)
    text = None
    note: list[str] = []  # why the generated answer was replaced, set apart by blank lines before the notice
    index = index_of(ctx)
    recommendations = recommendation_sentences(index)
    if ctx.chat_model:
        reply = llm_answer(load_chat_model(ctx.chat_model), state.question, state.evidence, state.contradictions,
                           state.disagreements)
        text, checks = check_answer(
            reply, state.evidence, index.frames_for,
            lambda item, doc_text: source_line(
                item, key_sentences(state.question, doc_text, recommendations(item.doc_id))),
            lambda doc_id: index.docs[doc_id].text if doc_id in index.docs else None,
        )
        if not any(c.ok for c in checks):  # nothing of the generated answer stands: the deterministic answer instead
            log.warning("chat model answer failed every check: using the deterministic answer")
            reasons = "; ".join(dict.fromkeys(c.reason for c in checks if c.reason)) or "it was empty"
            note = ["", f"{CHECK_NOTE}: none of the {len(checks)} sentence(s) of the generated answer could be kept "
                        f"({reasons}); the sources' own sentences are shown instead.", ""]
            text = None
        elif NOT_MEDICAL_ADVICE not in text:
            text = f"{text}\n\n{NOT_MEDICAL_ADVICE}"
    if text is None and state.evidence and all(e.source_type == "abstract" for e in state.evidence):
        text = study_answer(state.question, state.evidence)  # shaped for studies: years, designs, directions
    elif text is None:
        text = deterministic_answer(state.question, state.evidence, state.contradictions, ctx.contradiction_threshold,
                                    state.disagreements, recommendations)
    text = with_lines_before_notice(text, note)  # the fallback, deterministic or for studies, says why it was used
    understood = state.understood
    text = with_lines_before_notice(text, risk_factor_lines(understood.risk_factors if understood else [],
                                                            state.evidence, index.frames_for))
    return {"answer": text, "messages": [AIMessage(content=text)]}
