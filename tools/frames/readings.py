"""Blood-pressure readings as guidelines and patients write them: a systolic and a diastolic pressure in mm Hg
("140/90 mm Hg", "130 over 80", a bare "150/90" in a text about blood pressure), the two limits of a category table
("130-139 or 80-89 mm Hg"), and a systolic and a diastolic limit stated apart that are one S/D value."""

from __future__ import annotations

import re

from clinrag.tools.frames.schema import Quantity

BARE = r"(?<![\d/.\-–])(\d{2,3})\s*/\s*(\d{2,3})(?![\d/\-–]|\.\d)(?!\s*(?:mm|%|mg|mmol))"  # "140/90", no unit


# a systolic limit joined by "or" to the diastolic limit whose comparator follows it
SYSTOLIC_OR = re.compile(
    r"\d+\s*mm\s*Hg\s*(?:systolic\s+|SBP\s+)?or\s+(?:a\s+)?(?:diastolic\s+(?:(?:blood\s+)?pressure\s+)?(?:of\s+)?"
    r"|DBP\s+(?:of\s+)?)?", re.I
)

ABOUT_BP = re.compile(r"\bblood pressure|\bBP\b|\breadings?\b|\bhypertension\b|\bsystolic\b", re.I)
# a reading as it is spoken, "130 over 80" (130/80), never an age ("over 80")
_SPOKEN_READING = re.compile(r"\b(\d{2,3}) over (\d{2,3})\b(\s*mm\s*Hg)?", re.I)
_BARE_READING = re.compile(BARE)


def is_reading(systolic: str, diastolic: str) -> bool:
    """Whether two numbers can be a systolic and a diastolic pressure (mm Hg), the systolic the higher."""
    return 70 <= int(systolic) <= 260 and 40 <= int(diastolic) <= 160 and int(systolic) > int(diastolic)


def readings_in_mm_hg(text: str, about_bp: bool = False) -> str:
    """``text`` with its blood-pressure readings in mm Hg, where the text, or its document (``about_bp``), is about
    blood pressure: readings written as spoken ("aim to keep it below 130 over 80") and, in a document about blood
    pressure, readings without their unit in a clause that does not say so ("...; if you are 80 or over, the aim is
    below 150/90")."""
    if not (about_bp or ABOUT_BP.search(text)):
        return text
    text = _SPOKEN_READING.sub(lambda m: f"{m[1]}/{m[2]} mm Hg" if is_reading(m[1], m[2]) else m[0], text)
    if about_bp:
        text = _BARE_READING.sub(lambda m: f"{m[0]} mm Hg" if is_reading(m[1], m[2]) else m[0], text)
    return text


# a category written as a systolic or a diastolic band, as blood-pressure tables are: "stage 1 hypertension (130-139 or
# 80-89 mm Hg)" is the band 130/80-139/89, "stage 2 hypertension (>=140 or >=90 mm Hg)" the limit >=140/90, "normal
# (<120/<80 mm Hg)" the limit <120/80, and "130 to 139 systolic or 80 to 89 diastolic" (the unit left unsaid) the band
# 130/80-139/89
_TO = r"\s*(?:to|-|–)\s*"
SYSTOLIC_OR_DIASTOLIC = (
    (re.compile(rf"(\d{{3}}){_TO}(\d{{3}})\s*(?:mm\s*Hg\s*)?systolic\s+(?:and/)?or\s+(\d{{2,3}}){_TO}(\d{{2,3}})\s*"
                r"(?:mm\s*Hg\s*)?diastolic\b(?:\s*mm\s*Hg)?", re.I), r"\1-\2/\3-\4 mm Hg"),
    (re.compile(rf"systolic\s+(?:pressure\s+|blood pressure\s+)?(?:of\s+)?(\d{{3}}){_TO}(\d{{3}})\s*(?:mm\s*Hg\s*)?"
                rf"(?:and/)?or\s+diastolic\s+(?:pressure\s+|blood pressure\s+)?(?:of\s+)?(\d{{2,3}}){_TO}(\d{{2,3}})"
                r"(?:\s*mm\s*Hg)?", re.I), r"\1-\2/\3-\4 mm Hg"),
    (re.compile(r"(\d{3})\s*[-–]\s*(\d{3})\s+or\s+(\d{2,3})\s*[-–]\s*(\d{2,3})(?=\s*mm\s*Hg)", re.I), r"\1-\2/\3-\4"),
    (re.compile(r"(≥|>=|<|≤|<=|>)\s*(\d{3})\s*/\s*(?:≥|>=|<|≤|<=|>)\s*(\d{2,3})(?=\s*mm\s*Hg)", re.I), r"\1\2/\3"),
    (re.compile(r"(≥|>=|<|≤|<=|>)\s*(\d{3})\s+or\s+(?:≥|>=|<|≤|<=|>)\s*(\d{2,3})(?=\s*mm\s*Hg)", re.I), r"\1\2/\3"),
)


def merge_systolic_diastolic(qs: list[Quantity]) -> list[Quantity]:
    """Join a single systolic and a single diastolic limit with the same comparator into one S/D value."""
    out: list[Quantity] = []
    i = 0
    while i < len(qs):
        q = qs[i]
        nxt = qs[i + 1] if i + 1 < len(qs) else None
        if (
            nxt is not None
            and q.unit == nxt.unit == "mm Hg"
            and q.op == nxt.op
            and "/" not in q.value + nxt.value
            and q.name.startswith("target:") == nxt.name.startswith("target:")
            and int(q.value.split("-")[0]) > int(nxt.value.split("-")[0])
        ):
            name = q.name.replace("systolic ", "")
            out.append(Quantity(name=name, op=q.op, value=f"{q.value}/{nxt.value}", unit="mm Hg"))
            i += 2
            continue
        out.append(q)
        i += 1
    return out
