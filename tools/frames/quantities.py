"""Thresholds and targets with units: blood pressure (mm Hg), percentages (A1C, 10-year risk, LDL-C reduction),
mg/dL values and a FIT's haemoglobin cut-off (µg/g).

Conventions (the gold set follows them): a comparator comes from the words around the number ("under" <,
"or higher/or more" >=, "begins at" >=, "toward" ~, "X to (under) Y" / "between X and Y" range); numbers drop
trailing zeros ("7.0" -> "7"); a systolic and a diastolic limit joined in one clause with the same comparator
become one "S/D" value ("140 mm Hg or higher or a diastolic 90 mm Hg or higher" -> >= 140/90). A quantity is a
target when its clause speaks of a target/goal/aim (:mod:`goals`; and it is not a risk level, which is always a
threshold).
"""

from __future__ import annotations

import re

from clinrag.tools.frames import goals, set_aside
from clinrag.tools.frames.goals import THRESHOLD_MOVED
from clinrag.tools.frames.lexicon import DIAGNOSED_AT
from clinrag.tools.frames.numbers import NUMBER, NUMBER_WORDS, number
from clinrag.tools.frames.quantity_names import TIME_IN_RANGE, quantity_name
from clinrag.tools.frames.readings import (
    ABOUT_BP,
    BARE,
    SYSTOLIC_OR,
    SYSTOLIC_OR_DIASTOLIC,
    is_reading,
    merge_systolic_diastolic,
)
from clinrag.tools.frames.schema import Quantity

_X = r"(\d+(?:\.\d+)?)"
_UNITS = r"(mm\s*Hg|%|\bpercent\b|\bper cent\b|mg/dL|mmol/mol|mmol/L|ng/mL|µg/g)"
_PATTERNS: tuple[tuple[str, str], ...] = (
    # a band of readings: "grade 1 hypertension (140-159/90-99 mm Hg)", "between 130/85 and 139/89 mm Hg"
    (r"(\d{2,3})\s*[-–]\s*(\d{2,3})\s*/\s*(\d{2,3})\s*[-–]\s*(\d{2,3})\s*mm\s*Hg", "bp_band"),
    (r"(?:between\s+)?(\d{2,3})\s*/\s*(\d{2,3})\s*(?:mm\s*Hg\s*)?(?:and|to|-|–)\s*(\d{2,3})\s*/\s*(\d{2,3})\s*mm\s*Hg",
     "bp_range"),
    (r"(\d{2,3})\s*/\s*(\d{2,3})\s*mm\s*Hg", "bp_pair"),
    # a reading without its unit in patient wording ("if your blood pressure stays at 140/90 or higher", "aim for a
    # clinic reading below 140/90"), read only in a clause about blood pressure (:func:`quantities`)
    (BARE, "bp_bare"),
    # ("7.5% to <10%", "from 7.5% up to 10%")
    (rf"(?:between\s+)?{_X}\s*(?:%\s*)?(?:(?:up )?to|and|-|–)\s*(?:(?:under|less than|below)\s+|<\s*)?{_X}\s*{_UNITS}",
     "range"),
    (rf"{_X}\s*{_UNITS}", "single"),
)
# an inverse measure counts the people beyond a limit, where a lower rate is better: its limit is the level of poor
# control or of overtreatment, a threshold, not a goal ("Measure DM-2 (poor control, an inverse measure) reports the
# share ... whose most recent A1C was above 9.0 %", "Measure DM-3 (potential overtreatment) reports the share of
# patients ... whose most recent A1C was below 6.5 %, and a lower rate is better")
INVERSE_MEASURE = re.compile(r"\binverse measure\b|\ba lower (?:rate|score|percentage) (?:is|indicates|means|reflects) "
                             r"better\b", re.I)
# a limit moved, written as two limits: "has been lowered from below 7.5 % to below 7.0 %" (not the range 7.5 to 7)
MOVED_LIMIT = re.compile(r"\bfrom (?:below|under|less than|above|over|at least)\s*$", re.I)
# ... and a reading moved: "has lowered the blood pressure at which hypertension is diagnosed from 140/90 to 130/80
# mm Hg" (130/80)
MOVED_READING = re.compile(r"\b(?:lowered|raised|reduced|increased|changed|moved)\b[^.;]{0,160}\bfrom\s*$", re.I)
_SMALL_WORD = rf"(?:{'|'.join(NUMBER_WORDS)})(?: and a half)?"
# a percentage in words: "seven to eight and a half percent", "ten per cent or more"
_SPELLED_PERCENT = re.compile(
    rf"\b({_SMALL_WORD})(?:(\s+(?:to|and|-)\s+)({_SMALL_WORD}))?(?=\s+(?:percent|per cent)\b)", re.I
)


def _word_value(word: str) -> str:
    number, and_a_half, _ = word.lower().partition(" and a half")
    return number_text(str(NUMBER_WORDS[number] + (0.5 if and_a_half else 0)))


# a risk written as a proportion: "your chance of a heart attack or stroke in the next ten years is 1 in 5 or higher"
# (20%), "one in ten or higher" (10%)
_ONE_IN = re.compile(rf"\b((?:risk|chance)\b[^.;%]{{0,80}}?)\b({NUMBER}) in ({NUMBER})"
                     r"(?= or (?:higher|more|greater|above)\b)", re.I)
# ... and a band of it: "If it is between 7.5 and 10 in 100, a statin may be considered" (7.5% to 10%)
_BAND_IN = re.compile(rf"\bbetween (?P<low>\d+\.\d+|{NUMBER}) and (?P<high>\d+\.\d+|{NUMBER}) in (?P<of>{NUMBER})\b",
                      re.I)


# a faecal immunochemical test's cut-off in words: "20 µg haemoglobin per gram of faeces", "80 micrograms of blood per
# gram" (µg/g)
_PER_GRAM = re.compile(r"(\d+(?:\.\d+)?)\s*(?:µg|μg|ug|mcg|micrograms?)"
                       r"(?:\s+of)?(?:\s+(?:haemoglobin|hemoglobin|Hb|blood))?"
                       r"\s*(?:/|per)\s*(?:g|gram)\b(?:\s+of\s+(?:faeces|feces|stool|poo))?", re.I)
# a PSA in words: "3 nanograms per millilitre (ng/mL)" (ng/mL)
_NG_PER_ML = re.compile(r"(\d+(?:\.\d+)?)\s*nanograms?\s*(?:/|per)\s*(?:millilit(?:re|er)|mL)\b(?:\s*\(ng/mL\))?", re.I)


def _decimal(text: str) -> float:
    return float(text) if "." in text else number(text)


def _spelled_percentages(text: str) -> str:
    """Percentages written in words or as a proportion of a risk as digits ("seven to eight and a half percent" -> "7
    to 8.5 percent", "a chance ... of 1 in 5 or higher" -> "20% or higher", "between 7.5 and 10 in 100" -> "between
    7.5% and 10%")."""
    text = _ONE_IN.sub(lambda m: f"{m.group(1)}{number_text(100 * number(m.group(2)) / number(m.group(3)))}%", text)
    text = _BAND_IN.sub(lambda m: "between {}% and {}%".format(
        *(number_text(100 * _decimal(m.group(end)) / number(m.group("of"))) for end in ("low", "high"))), text)
    return _SPELLED_PERCENT.sub(
        lambda m: _word_value(m.group(1)) + (f"{m.group(2)}{_word_value(m.group(3))}" if m.group(3) else ""), text)


def number_text(text: str | float) -> str:
    """A number as guidelines write it, trailing zeros dropped ("7.0" -> "7")."""
    v = float(text)
    return str(int(v)) if v == int(v) else str(v)


def _unit(text: str) -> str:
    if "hg" in text.lower():
        return "mm Hg"
    return "%" if text.lower().startswith("per") else text


def _op(before: str, after: str) -> str:
    # "48 mmol/mol (6.5%) or below": the comparator after a restatement in parentheses is the limit's own
    after = re.sub(r"^\s*\([^()]*\)", "", after)
    # ... and the comparator after a value restated in parentheses: "ten in a hundred (10%) or higher"
    after = re.sub(r"^\s*\)", "", after)
    # a diagnostic threshold is a lower limit: "the diagnostic threshold for hypertension is now 130/80 mm Hg", and so
    # is a threshold moved to a value ("the treatment threshold has been raised to a 10-year risk of 10%")
    # ("for men in their sixties the cut-off is 4 ng/mL": where a raised result starts)
    # ("using a FIT positivity threshold of 20 micrograms of haemoglobin per gram")
    diagnostic = re.search(r"\b(?:diagnostic|positivity) (?:threshold|cut-?off)\b[^.;]{0,30}\b(?:is|of) "
                           r"(?:now |still )?$"
                           r"|\bthe cut-?off is (?:now |still )?$"
                           # ("lowered the blood pressure at which hypertension is diagnosed from 140/90 to 130/80")
                           rf"|\b{DIAGNOSED_AT} from [^.;]{{1,20}} to\s*$"
                           # ("... and the threshold for confirming it with home monitoring from 135/85 to 130/80")
                           r"|\bthreshold\b[^.;]{0,60}\bfrom \d[\d/]* (?:mm ?Hg )?to\s*$", before,
                           re.I) or THRESHOLD_MOVED.search(before[-80:])
    before, after = before[-30:].lower(), after[:25].lower()
    if re.search(r"(?:at or below|at most|up to|≤|<=)\s*$", before):
        return "<="
    # ("A1C levels lower than the goal of 7%", "the sub-7% goal")
    if re.search(r"(?:under|below|less than|lower than|<)\s*(?:the (?:goal|target|level) of\s*)?$|\bsub-$", before):
        return "<"
    if diagnostic or re.search(r"(?:at least|at or above|≥|>=)\s*$", before) or re.match(
        r"\s*(?:(?:systolic|diastolic|SBP|DBP)\s+)?(?:or (?:higher|more|greater|above)|\+)", after
    ):
        return ">="
    # ("hypertension is now defined from 130/80 mm Hg": the definition starts at that reading)
    if re.search(r"(?:begins? at|starts? at|reach(?:es)?|reached|(?:defined|diagnosed) from)\s*$", before):
        return ">="
    # ("Insulin should be considered if HbA1c exceeds 10%")
    if re.search(r"(?:over|above|more than|greater than|higher than|exceeds|exceeding|>)\s*$", before):
        return ">"
    if re.match(r"\s*or (?:lower|less|below)", after) or re.search(r"(?:at or below|at most|≤|<=)\s*$", before):
        return "<="
    if re.search(r"(?:toward|around|about|approximately|~)\s*$", before):
        return "~"
    return "="


def quantities(text: str) -> tuple[list[Quantity], list[Quantity]]:
    """(thresholds, targets) stated in a clause."""
    text = _NG_PER_ML.sub(r"\1 ng/mL", _PER_GRAM.sub(r"\1 µg/g", _spelled_percentages(text)))
    for pattern, joined in SYSTOLIC_OR_DIASTOLIC:
        text = pattern.sub(joined, text)
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str, str, str, str]] = []  # (position, text before, unit, value, comparator)
    following: dict[int, str] = {}  # position -> the text after the value
    for pattern, kind in _PATTERNS:
        for m in re.finditer(pattern, text, re.I):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            before, after = text[: m.start()], text[m.end() :]
            # (a range moved as a whole is "lowered from 120 to 80 µg/g": the former value and the new one)
            moved = [MOVED_LIMIT, MOVED_READING] if kind == "range" else [MOVED_READING] if kind == "bp_range" else []
            if any(p.search(before) for p in moved):  # two limits, the former and the new one
                continue
            # ... the former one of which is no value of the document ("and the threshold for confirming it with home
            # monitoring from 135/85 to 130/80 mm Hg")
            if kind == "bp_pair" and MOVED_READING.search(before):
                taken.append((m.start(), m.end()))
                continue
            taken.append((m.start(), m.end()))
            if set_aside.USED_BEFORE_AFTER.match(after):
                continue
            not_a_value = set_aside.SHARE_OF_PEOPLE.match(after) or any(
                p.search(before) for p in set_aside.NOT_A_VALUE_BEFORE)
            if not_a_value and not kind.startswith("bp_"):
                continue
            if set_aside.FORMER_VALUE.search(before) or set_aside.BELOW_THE_USUAL.search(before):
                continue
            if kind == "bp_bare" and not (ABOUT_BP.search(text) and is_reading(m.group(1), m.group(2))):
                continue
            if kind == "bp_band":
                unit, value, op = "mm Hg", f"{m.group(1)}/{m.group(3)}-{m.group(2)}/{m.group(4)}", "range"
            elif kind == "bp_range":
                unit, value, op = "mm Hg", f"{m.group(1)}/{m.group(2)}-{m.group(3)}/{m.group(4)}", "range"
            elif kind in ("bp_pair", "bp_bare"):
                unit, value, op = "mm Hg", f"{m.group(1)}/{m.group(2)}", _op(before, after)
            elif kind == "range":
                unit, value, op = _unit(m.group(3)), f"{number_text(m.group(1))}-{number_text(m.group(2))}", "range"
            else:
                unit, value, op = _unit(m.group(2)), number_text(m.group(1)), _op(before, after)
            found.append((m.start(), before, unit, value, op))
            following[m.start()] = after
    found.sort(key=lambda t: t[0])
    # "below 7% (53 mmol/mol)", "below 53 mmol/mol, which is the same as 7%": the same limit in other units, same
    # comparator
    restated: set[int] = set()  # (a restatement is a goal where the value it restates is one)
    for i in range(1, len(found)):
        if found[i][4] == "=" and re.fullmatch(r"[^()]{0,16}\(\s*|[^()]{0,16},\s*(?:which is |that is )?(?:the same as"
                                               r"|equivalent to|equal to)\s*", found[i][1][found[i - 1][0] :]):
            restated.add(i)
            found[i] = (*found[i][:4], found[i - 1][4])
    # "140 mm Hg systolic or 90 mm Hg diastolic or higher", "at least 140 mm Hg systolic or 90 mm Hg diastolic": one
    # comparator for both
    for i in range(len(found) - 1):
        pair = found[i][2] == found[i + 1][2] == "mm Hg" and SYSTOLIC_OR.fullmatch(found[i + 1][1][found[i][0] :])
        if pair and found[i][4] == "=" and found[i + 1][4] != "=":
            found[i] = (*found[i][:4], found[i + 1][4])
        elif pair and found[i][4] not in ("=", "range") and found[i + 1][4] == "=":
            found[i + 1] = (*found[i + 1][:4], found[i][4])
    named = []
    inverse = INVERSE_MEASURE.search(text)
    in_targets = goals.in_target(text, [f[0] for f in found])
    for i in sorted(restated):
        in_targets[i] = in_targets[i - 1]
    for (pos, before, unit, value, op), in_target in zip(found, in_targets):
        name = quantity_name(before, unit, in_target, following[pos])
        if name == TIME_IN_RANGE:  # a share of readings is no percentage an A1C could be compared with
            unit = "% of readings"
        is_target = in_target and "risk" not in name and not inverse
        named.append(Quantity(name=("target:" if is_target else "") + name, op=op, value=value, unit=unit))
    merged = merge_systolic_diastolic(named)
    thresholds = [q for q in merged if not q.name.startswith("target:")]
    targets = [
        q.model_copy(update={"name": q.name.removeprefix("target:")}) for q in merged if q.name.startswith("target:")
    ]
    # one limit stated twice ("systolic below 140 and diastolic below 90; the goal ... is therefore under 140/90")
    return _once(thresholds), _once(targets)


def _once(qs: list[Quantity]) -> list[Quantity]:
    """The quantities in order, each (name, comparison, value, unit) at its first mention."""
    first: dict[tuple[str, ...], Quantity] = {}
    for q in qs:
        first.setdefault((q.name, *q.key()), q)
    return list(first.values())
