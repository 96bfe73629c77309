"""Answers that cannot misstate a number: every sentence of a chat model's answer is checked against what the
documents it cites state.

A sentence passes when

1. it cites at least one ``[doc_id]`` and every cited document was retrieved (the not-medical-advice notice and an
   "Insufficient evidence" reply are the only sentences allowed without a citation);
2. every number it states (ages, intervals, thresholds, targets, percentages, years) appears in the text of a cited
   document, or is the issue year of one;
3. every grade or class it states ("grade B", "class IIb") appears verbatim in a cited document;
4. every interval it states (in months, "annual" = 12, "every 1 or 2 years" = 12-24) is an interval of a frame of
   a cited document, or lies inside one;
5. its action agrees with a frame of a cited document: "recommends against" needs a cited frame whose action is
   recommend_against or discourage (grade I "insufficient evidence" is never "against"); "recommends" needs a cited
   frame that recommends or suggests; and when the sentence states ages with a recommendation, a cited frame with
   that action has those age bounds.

A failing sentence is replaced by the deterministic line for the first retrieved document it cites (that source's
own sentences, quoted), or removed when it cites none that was retrieved; the answer then says how many sentences
were replaced or removed and why.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel

from clinrag import NOT_MEDICAL_ADVICE
from clinrag.schema import EvidenceItem

_CITATION = re.compile(r"\[([^\[\]\s]+)\]")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w])")
_GRADE = re.compile(r"\b(grade [ABCDI]|class (?:III|IIb|IIa|II|I))\b")
_AGAINST = frozenset({"recommend_against", "discourage"})
_FOR = frozenset({"recommend", "suggest_or_consider"})


CHECK_NOTE = "Checked against the cited documents"


class SentenceCheck(BaseModel):
    """The verdict on one sentence of an answer."""

    sentence: str
    cited: list[str]
    ok: bool
    reason: str | None = None


def _numbers(text: str) -> set[str]:
    return {n.rstrip("0").rstrip(".") if "." in n else n for n in _NUMBER.findall(text)}


def _doc_numbers(item: EvidenceItem, text: str) -> set[str]:
    years = {item.issued[:4]} if item.issued else set()
    return _numbers(text) | years


def check_sentence(
    sentence: str, evidence: dict[str, tuple[EvidenceItem, str]], frames_for: Callable[[str], list]
) -> SentenceCheck:
    """Check one sentence against the cited documents (``evidence``: doc_id -> (item, the document's text))."""
    from clinrag.tools.frames import ages, intervals, rules
    from clinrag.tools.frames.extract import extract_frames

    cited = list(dict.fromkeys(_CITATION.findall(sentence)))
    bare = _CITATION.sub("", sentence).strip()

    def verdict(ok: bool, reason: str | None = None) -> SentenceCheck:
        return SentenceCheck(sentence=sentence, cited=cited, ok=ok, reason=reason)

    if not cited:
        if NOT_MEDICAL_ADVICE in sentence or bare.lower().startswith("insufficient evidence"):
            return verdict(True)
        return verdict(False, "cites nothing")
    unknown = [c for c in cited if c not in evidence]
    if unknown:
        return verdict(False, "cites a document that was not retrieved")
    texts = " ".join(evidence[c][1] for c in cited)
    numbers = set().union(*(_doc_numbers(*evidence[c]) for c in cited))
    # interval numbers are checked as intervals below ("every 2 years" = biennial)
    spans = intervals.interval_spans(bare)
    without_intervals = bare
    for start, end, _, _ in reversed(spans):
        without_intervals = without_intervals[:start] + " " + without_intervals[end:]
    stated = _numbers(without_intervals)
    if stated - numbers:
        return verdict(False, f"states {', '.join(sorted(stated - numbers))}, which no cited document states")
    grades = set(_GRADE.findall(bare))
    missing = [g for g in grades if g not in texts]
    if missing:
        return verdict(False, f"states {', '.join(missing)}, which no cited document states")
    frames = [f for c in cited for f in frames_for(c)]
    cited_intervals = [f.interval_months for f in frames if f.interval_months]
    for _, _, iv, _ in spans:
        if not any(i.min <= iv.min and iv.max <= i.max for i in cited_intervals):
            return verdict(False, f"states an interval of {iv.text()} months, which no cited document states")
    action = rules.action(bare)
    if action in _AGAINST and not any(f.action in _AGAINST for f in frames):
        return verdict(False, "says 'against', which no cited document says")
    if action in _FOR:
        recommending = [f for f in frames if f.action in _FOR]
        if not recommending:
            return verdict(False, "says 'recommends', which no cited document says")
        lo, hi = ages.age_bounds(bare)
        if (lo is not None or hi is not None) and not any(
            (lo is None or f.population.age_min == lo) and (hi is None or f.population.age_max == hi)
            for f in recommending
        ):
            return verdict(False, "recommends for ages that no cited recommendation has")
    claimed = extract_frames(bare)
    if claimed and frames:
        for c in claimed:
            if c.action in _AGAINST and not any(f.action in _AGAINST for f in frames):
                return verdict(False, "says 'against', which no cited document says")
    return verdict(True)


def check_answer(
    answer: str,
    evidence: list[EvidenceItem],
    frames_for: Callable[[str], list],
    source_line: Callable[[EvidenceItem, str], str],
    document_text: Callable[[str], str | None] | None = None,
) -> tuple[str, list[SentenceCheck]]:
    """The answer with failing sentences replaced by their source's deterministic line (or removed), and the
    verdict on every sentence. ``source_line(item, text)`` renders one source as the deterministic answer does;
    ``document_text(doc_id)`` gives a cited document's whole text (what it states), else its retrieved passages
    are used."""
    from clinrag.tools.index.text import split_sentences

    docs: dict[str, tuple[EvidenceItem, str]] = {}
    for item in evidence:
        first, text = docs.get(item.doc_id, (item, ""))
        docs[item.doc_id] = (first, f"{text} {item.text}".strip())
    if document_text is not None:
        docs = {d: (item, document_text(d) or text) for d, (item, text) in docs.items()}
    out: list[str] = []
    checks: list[SentenceCheck] = []
    replaced_docs: set[str] = set()
    for paragraph in answer.split("\n"):
        kept = []
        for sentence in split_sentences(paragraph) if paragraph.strip() else []:
            check = check_sentence(sentence, docs, frames_for)
            checks.append(check)
            if check.ok:
                kept.append(sentence)
                continue
            source = next((c for c in check.cited if c in docs), None)
            if source and source not in replaced_docs:
                replaced_docs.add(source)
                kept.append(source_line(*docs[source]))
        out.append(" ".join(kept))
    failed = [c for c in checks if not c.ok]
    text = "\n".join(line for line in out if line.strip())
    if failed:
        reasons = "; ".join(dict.fromkeys(c.reason for c in failed if c.reason))  # reasons only, no misstatement
        text += (f"\n\n{CHECK_NOTE}: {len(failed)} sentence(s) of the generated answer were "
                 f"replaced by the sources' own sentences or removed ({reasons}).")
    return text, checks
