"""The deterministic answer for abstract corpora: shaped for studies, not guidelines.

One line per study with its year (and design and size when the abstract states them), grouped by the direction of
its finding (benefit / no effect / harm / mixed), taken from the study's result sentence closest to the question
(finding frames, :mod:`clinrag.tools.frames.findings`). Studies whose findings point in opposite directions are
listed as disagreements by direction, with the two sentences. Nothing about versions or grades: abstracts do not
supersede one another and do not grade recommendations.
"""

from __future__ import annotations

import re

from clinrag import NOT_MEDICAL_ADVICE
from clinrag.schema import EvidenceItem

DIRECTION_ORDER = ("benefit", "no_effect", "harm", "mixed")
DIRECTION_LABELS = {"benefit": "Reported a benefit", "no_effect": "Reported no effect", "harm": "Reported harm",
                    "mixed": "Mixed or unclear findings", None: "No result sentence found"}
# Opposite directions: a benefit against no effect or harm, and no effect against harm. "mixed" conflicts with none.
OPPOSITE = {("benefit", "no_effect"), ("benefit", "harm"), ("no_effect", "harm")}
_DESIGNS = (
    ("meta-analysis", r"\bmeta-?analys[ie]s\b"), ("systematic review", r"\bsystematic review\b"),
    ("randomized trial", r"\brandomi[sz]ed\b"), ("cohort study", r"\bcohort\b"),
    ("case-control study", r"\bcase-control\b"), ("cross-sectional study", r"\bcross-sectional\b"),
)
_SIZE = re.compile(r"\b(?:n\s*=\s*|of\s+|included\s+|enrolled\s+|total of\s+)?(\d[\d,]{1,8})\s+"
                   r"(patients|participants|subjects|women|men|adults|children|individuals|cases)\b", re.I)


def design_and_size(text: str) -> str:
    """ "randomized trial, 1,203 participants" when the abstract says so; "" when it states neither."""
    design = next((name for name, pattern in _DESIGNS if re.search(pattern, text, re.I)), None)
    size = _SIZE.search(text)
    parts = [design] if design else []
    if size:
        parts.append(f"{size.group(1)} {size.group(2).lower()}")
    return ", ".join(parts)


def key_finding(question: str, text: str):
    """The study's result sentence most similar to the question, as a finding frame (None without one)."""
    import numpy as np

    from clinrag.tools.frames.findings import extract_findings
    from clinrag.tools.index.embeddings import embed_cached
    from clinrag.tools.index.text import split_sentences

    findings = [f for f in (extract_findings(s) for s in split_sentences(text)) if f is not None]
    if not findings:
        return None
    sims = embed_cached([f.sentence for f in findings]) @ embed_cached([question])[0]
    return findings[int(np.argmax(sims))]


def _label(finding) -> str:
    return finding.direction.replace("_", " ")


def study_answer(question: str, evidence: list[EvidenceItem]) -> str:
    merged: dict[str, tuple[EvidenceItem, str]] = {}
    for item in evidence:
        first, text = merged.get(item.doc_id, (item, ""))
        merged[item.doc_id] = (first, f"{text} {item.text}".strip())
    groups: dict[str | None, list[str]] = {}
    found: list[tuple[EvidenceItem, object]] = []
    for item, text in merged.values():
        finding = key_finding(question, text)
        found.append((item, finding))
        when = str(item.year) if item.year else (item.issued or "year not stated")
        about = design_and_size(text)
        head = f"{item.title} ({when}{'; ' + about if about else ''})"
        quote = f': "{finding.sentence}"' if finding else ""
        effect = f" ({finding.effect})" if finding and finding.effect and finding.effect not in finding.sentence else ""
        groups.setdefault(finding.direction if finding else None, []).append(f"- {head}{quote}{effect} [{item.doc_id}]")
    lines = [f"Evidence from {len(merged)} studies (abstracts), grouped by the direction of their findings; "
             "each study is listed separately:"]
    for direction in (*DIRECTION_ORDER, None):
        if groups.get(direction):
            lines.append(f"{DIRECTION_LABELS[direction]}:")
            lines += groups[direction]
    from clinrag.tools.frames.findings_roles import outcomes_match

    opposite = OPPOSITE | {(y, x) for x, y in OPPOSITE}
    # only findings about the same outcome can disagree ("fracture risk" vs "fracture risk", not vs "Treg counts")
    conflicts = [(a, fa, b, fb) for i, (a, fa) in enumerate(found) for b, fb in found[i + 1:]
                 if fa and fb and (fa.direction, fb.direction) in opposite and outcomes_match(fa.outcome, fb.outcome)]
    if conflicts:
        lines.append("Studies whose findings on the same outcome point in opposite directions:")
        lines += [f"- [{a.doc_id}] ({_label(fa)}) vs [{b.doc_id}] ({_label(fb)}): \"{fa.sentence}\" vs "
                  f"\"{fb.sentence}\"" for a, fa, b, fb in conflicts[:4]]
    lines.append(NOT_MEDICAL_ADVICE)
    return "\n".join(lines)
