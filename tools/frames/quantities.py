"""Thresholds and targets with units: blood pressure (mm Hg), percentages (A1C, 10-year risk, LDL-C reduction),
mg/dL values and a FIT's haemoglobin cut-off (µg/g).

Conventions (the gold set follows them): a comparator comes from the words around the number ("under" <,
"or higher/or more" >=, "begins at" >=, "toward" ~, "X to (under) Y" / "between X and Y" range); numbers drop
trailing zeros ("7.0" -> "7"); a systolic and a diastolic limit joined in one clause with the same comparator
become one "S/D" value ("140 mm Hg or higher or a diastolic 90 mm Hg or higher" -> >= 140/90). A quantity is a
target when its clause speaks of a target/goal/aim (and it is not a risk level, which is always a threshold).
"""

from __future__ import annotations

import re

from clinrag.tools.frames import set_aside
from clinrag.tools.frames.lexicon import DIAGNOSED_AT
from clinrag.tools.frames.numbers import NUMBER, NUMBER_WORDS, number
from clinrag.tools.frames.programme_cues import NUMERATOR_NOW
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
# a threshold moved to a new value, which is no goal to lower anything to ("the diagnostic threshold for hypertension
# has been lowered to 130/80 mm Hg", "the treatment threshold was raised to a 10-year risk of 10%")
THRESHOLD_MOVED = re.compile(r"\b(?:threshold|cut-?off)\b[^.;]{0,50}\b(?:lowered|raised|reduced|increased|moved"
                             r"|changed) to (?:an? |the )?(?:[\w-]+ ){0,3}(?:of )?(?:below |under )?$", re.I)
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
_TARGET_CUE = re.compile(
    r"\btarget(?![- ]organ)|\bgoals?\b|\baim\w*|\btoward\b|\bLDL-C by\b|\breduced by\b|\blower LDL"
    r"|\btreat(?:ed|ing)? to\b|\bgood enough\b|\bright balance\b"
    # "treat most people with type 2 diabetes to an A1C of 7% to 8%"
    # (not "initiate treatment to lower blood pressure at ...", which says when to start)
    r"|\btreat\w*\b[^.;,]{0,60}?\bto (?:an? |the )?(?:A1C|HbA1c|hemoglobin A1c"
    r"|(?!lower |reduce )(?:\w+ )?blood pressure|systolic|LDL)\b"
    # a quality measure's control: "whose most recent blood pressure was adequately controlled (<140/90 mm Hg)"
    # (and its other reading for some people: "a reading below 150/90 mm Hg also counts as controlled")
    r"|\badequately controlled\b|^\W*numerator\b|\b(?:counts?|counted) as (?:adequately |well[- ])?controlled\b"
    rf"|{NUMERATOR_NOW}"
    # a level below which one should stay: "an A1C below 7.0% (53 mmol/mol) is recommended"
    r"|\b(?:A1C|HbA1c|blood pressure)\b (?:(?:level|reading) )?(?:of )?(?:below|under|less than|<|≤)\s*\d"
    r"(?:[^.;]|\.\d){0,40}"
    r"\b(?:is|are) (?:recommended|appropriate|reasonable|acceptable|advised)\b"
    # ("the percentage of patients ... whose most recent HbA1c in the preceding 12 months is 58 mmol/mol or less")
    r"|\b(?:percentage|proportion|share) of\b[^.;]{0,120}\bwhose (?:most recent |last |latest )?"
    r"(?:HbA1c|A1C|blood pressure|BP|LDL)"
    r"|\bto (?:reach|achieve|attain)\b|\bachiev\w*|\battain\w*"
    r"|\b(?:lower|lowered|reduce|reduced|kept|maintained) (?:first |further |then )?(?:to|below|under)\b"
    # "to bring systolic pressure below 150 mm Hg", "lowering office blood pressure to below 130/80"
    r"|\b(?:bring|brought|get|keep|lowering|reducing)\w* (?:\w+ ){0,3}(?:to |to less than |to below |at or )?"
    r"(?:below|under|less)\b"
    # "systolic pressure should be brought to 120 to 129 mm Hg", "bring systolic pressure into the 120-129 band",
    # "treated until their pressure is below 130/80"
    r"|\bbr(?:ing|ought)\w* (?:\w+ ){0,3}(?:to|into) (?:the )?\d|\btreat\w* until\b"
    # "Titrate every four weeks until the office blood pressure is below 130/80 mm Hg"
    r"|\b(?:titrat|up-?titrat|intensif)\w*\b[^.;]{0,40}\buntil\b"
    # "lowering SBP to a range of 130-139", "lowered into a range of 130 to 139", "brought into the range of"
    r"|\b(?:lower|reduc|bring|brought)\w* (?:\w+ ){0,3}(?:to|into) (?:a range of|the range of|between|within)\b"
    # "keep your A1C in the range of 7% to 8%", "maintained within 7-8%"
    r"|\b(?:keep|kept|keeping|maintain\w*) (?:\w+ ){0,3}(?:in|within|between) (?:a |the )?(?:range\b|\d)"
    # "lowering systolic pressure to 120-129 mm Hg", "lower blood pressure in adults with hypertension to below 140/90"
    # ("recommends lowering glycated haemoglobin (A1C) to below 7.0%")
    r"|\b(?:lower|reduc)\w* (?:[\w()]+ ){0,8}to (?:below |under |less than )?\d",
    re.I,
)
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
            moved = MOVED_LIMIT if kind == "range" else MOVED_READING if kind == "bp_range" else None
            if moved and moved.search(before):  # two limits, the former and the new one
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
    in_targets = _in_target(text, [f[0] for f in found])
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


# where a coordinated verb phrase starts: "start therapy when systolic pressure is 150 mm Hg or higher and should
# treat to a goal of less than 150 mm Hg"
_NEXT_VERB = re.compile(r"\s(?:and|then)\s+(?=(?:should|must|may|then|treat|aim|lower|keep|target)\b)", re.I)


# where a target phrase starts: "whose systolic pressure is at or above 150 mm Hg to a target below 150 mm Hg", "the
# definition of hypertension (an average office blood pressure of 130/80 mm Hg or higher) and the general treatment
# goal of less than 130/80 mm Hg"
_TARGET_PHRASE = re.compile(r"\s(?=(?:(?:to|with) (?:a|an|the) (?:\w+ )?|and (?:a|an|the) (?:[\w-]+ ){0,3})"
                            r"(?:target|goal)\b)", re.I)


def _segment(text: str, pos: int) -> str:
    """The stretch of ``text`` around ``pos`` delimited by commas, semicolons, coordinated verb phrases and target
    phrases."""
    cuts = [i for i, ch in enumerate(text) if ch in ",;"] + [
        m.start() for pattern in (_NEXT_VERB, _TARGET_PHRASE) for m in pattern.finditer(text)]
    start = max((c for c in cuts if c < pos), default=-1) + 1
    end = min((c for c in cuts if c >= pos), default=len(text))
    return text[start:end]


def _in_target(text: str, positions: list[int]) -> list[bool]:
    """Per quantity, whether it is spoken of as a target: in a clause that names a target, a quantity is one when
    its own comma-delimited segment names it ("start drugs at >= 150 mm Hg, with a goal of < 150 mm Hg": a
    threshold, then a target); when no quantity's segment names it, every quantity of the clause is ("a target of
    130/80 for adults with CVD"). A level at which to ease treatment is not a goal ("consider deintensifying therapy
    in patients whose A1C is below 6.5%, because treating to lower levels showed no benefit"), nor is a threshold's
    new value ("the diagnostic threshold has been lowered to 130/80 mm Hg")."""
    if not _TARGET_CUE.search(text):
        return [False] * len(positions)
    own = [bool(_TARGET_CUE.search(_segment(text, pos))) for pos in positions]
    eased = [bool(_DEINTENSIFY.search(_segment(text, pos)) or THRESHOLD_MOVED.search(text[max(0, pos - 80):pos]))
             for pos in positions]
    return [o and not e for o, e in zip(own if any(own) else [True] * len(positions), eased)]


_DEINTENSIFY = re.compile(r"\bde-?intensif\w*|\bstep(?:ping)? down\b|\bease (?:the )?(?:treatment|therapy)\b", re.I)
