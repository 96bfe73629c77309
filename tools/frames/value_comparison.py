"""How two frames' thresholds and targets are compared: on the measures (thresholds) or units (targets) both state,
each stated once, in comparable terms. A first stage of hypertension defines hypertension; an A1C goal stated only in
IFCC units is compared in percent, a cholesterol goal stated only in mmol/L in mg/dL; a home or ambulatory goal
beside a clinic goal is set aside when the other document states none; "at or below" a goal is "below" it; an upper
limit is not compared with a lower one, nor an LDL-C band with an LDL-C limit. A 10-year risk stated in tiers (a
high-intensity statin from 20 %, a moderate-intensity one from 7.5 % to 20 %) is compared as the span the tiers join
into."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from clinrag.tools.frames.quantities import number_text
from clinrag.tools.frames.quantity_names import OUT_OF_OFFICE
from clinrag.tools.frames.schema import Frame, Quantity


def thresholds_differ(qa: list[Quantity], qb: list[Quantity]) -> bool:
    """Whether two statements' thresholds differ on a measure both state, in a unit both state ("10-year risk >= 7.5 %
    and LDL-C 70-189 mg/dL" against "10-year risk >= 10 %": the risk differs; an A1C stated only in mmol/mol is
    compared in percent)."""
    ta, tb = _shared(*[_a1c_in_percent(_hypertension_defined(qs)) for qs in (qa, qb)],
                     lambda q: (*_measure_side(q), q.unit))
    return bool(ta and tb and not _same_values(ta, tb))


def _bounds(value: str) -> list[float] | None:
    """The numbers of a value ("7.5" -> [7.5], "7.5-20" -> [7.5, 20.0]); None for a value that is not numbers."""
    try:
        return [float(v) for v in value.split("-")]
    except ValueError:
        return None


def _same_values(ka: list, kb: list) -> bool:
    """Two lists of (comparator, value, unit) that state the same values: a range's bounds written to one more decimal
    place are the same bound ("5% to less than 7.5%" read as 5-7.5 and "5 to 7.4 per cent"), and a lower limit is
    the same whether its value is included or not ("an LDL-C above 190 mg/dL" and "190 mg/dL or more": writers use
    both for one cut-off), and so is a cut-off stated as a bare value ("the PSA value that should prompt referral ...
    has been lowered from 4.0 ng/mL to 3.0 ng/mL" and "3 ng/mL or higher")."""
    def same(a: tuple, b: tuple) -> bool:
        if a == b or ({a[0], b[0]} <= {">", ">=", "="} and a[1:] == b[1:]):
            return True
        if a[0] != b[0] or a[2] != b[2] or a[0] != "range":
            return False
        ba, bb = _bounds(a[1]), _bounds(b[1])
        return bool(ba and bb and len(ba) == len(bb) and all(abs(x - y) <= 0.1 + 1e-9 for x, y in zip(ba, bb)))

    return len(ka) == len(kb) and all(same(a, b) for a, b in zip(ka, kb))


_OPEN_ABOVE = float("inf")


def _risk_span(q: Quantity) -> tuple[float, float] | None:
    """A 10-year risk's span of values: ">= 20" is 20 and up, "7.5-20" is 7.5 to 20 (None for anything else, and for a
    range that does not rise)."""
    values = _bounds(q.value)
    if q.op in (">=", ">") and values and len(values) == 1:
        return values[0], _OPEN_ABOVE
    if q.op == "range" and values and len(values) == 2 and values[0] < values[1]:
        return values[0], values[1]
    return None


def joined_tiers(frame: Frame, own: list[Frame]) -> list[Quantity]:
    """A frame's thresholds, each 10-year risk joined with the tiers its document states beside it for the same action
    and test: "If the 10-year risk is 20% or higher, order a high-intensity statin; if it is 7.5% to less than 20%, a
    moderate-intensity statin" starts a statin at 7.5 % (a tier says how much, not whether), so either tier compared
    with another document's ">= 7.5 %" agrees. Tiers join when one starts where the other ends (each span rises, so
    the joining ends)."""
    out = []
    for q in frame.thresholds:
        span = _risk_span(q) if q.name == "10-year CVD risk" else None
        if span is None:
            out.append(q)
            continue
        spans = {s for g in own if g.action == frame.action and g.test == frame.test
                 for t in g.thresholds if t.name == q.name and (s := _risk_span(t))}
        lo, hi = span
        while (below := next((s for s in spans if s[1] == lo), None)) is not None:  # a tier just below
            lo = below[0]
        while (above := next((s for s in spans if s[0] == hi), None)) is not None:  # a tier just above
            hi = above[1]
        if (lo, hi) == span:
            out.append(q)
        elif hi == _OPEN_ABOVE:
            out.append(q.model_copy(update={"op": ">=", "value": number_text(lo)}))
        else:
            out.append(q.model_copy(update={"op": "range", "value": f"{number_text(lo)}-{number_text(hi)}"}))
    return out


def targets_differ(qa: list[Quantity], qb: list[Quantity]) -> bool:
    """Whether two statements' goals differ in a unit both state ("below 53 mmol/mol (7.0%)" against "below 7%": the
    same goal)."""
    goals = _systolic_parts(*[_cholesterol_in_mg_dl(_a1c_in_percent(qs)) for qs in _clinic_goals(qa, qb)])
    # two goals in one unit ("below 130/80 mm Hg ..., for whom the systolic target is below 130 mm Hg") are matched
    # by what they measure
    ka, kb = _shared(*goals, lambda q: q.unit)
    if not (ka and kb):
        ka, kb = _shared(*goals, lambda q: (q.unit, q.name))
    ka, kb = sorted(map(_goal_limit, ka)), sorted(map(_goal_limit, kb))
    return bool(ka and kb and ka != kb) or _level_against_reduction(*goals)


def _systolic_parts(qa: list, qb: list) -> list[list]:
    """Two statements' goals, a systolic and diastolic goal reduced to its systolic part where the other statement's
    blood-pressure goals are all systolic ("a systolic target under 130 mm Hg" against "below 130/80 mm Hg": the
    same systolic goal; the diastolic is not stated by the first)."""
    def systolic_only(qs: list) -> bool:
        bp = [q for q in qs if q.unit == "mm Hg"]
        return bool(bp) and all(q.name.startswith("systolic") and "/" not in q.value for q in bp)

    def systolic(qs: list) -> list:
        return [q.model_copy(update={"name": "systolic blood pressure", "value": q.value.split("/")[0]})
                if q.unit == "mm Hg" and q.op != "range" and "/" in q.value else q for q in qs]

    if systolic_only(qa) and not systolic_only(qb):
        return [qa, systolic(qb)]
    if systolic_only(qb) and not systolic_only(qa):
        return [systolic(qa), qb]
    return [qa, qb]


_CHOLESTEROL_LEVELS = {"LDL-C", "non-HDL-C"}
_CHOLESTEROL_REDUCTIONS = {f"{n} reduction" for n in _CHOLESTEROL_LEVELS}


def _level_against_reduction(qa: list, qb: list) -> bool:
    """A goal for a level ("LDL cholesterol below 100 mg/dL") against a goal for a reduction of the same measure
    where neither states the other's kind ("a reduction in LDL cholesterol of at least 30%, rather than a fixed LDL
    goal"): two different goals."""
    def level_only(names: set[str], other: set[str]) -> bool:
        if any(f"{n} reduction" in other - names and n not in other for n in names):
            return True
        # a cholesterol level against a reduction of another cholesterol measure ("LDL cholesterol below 100 mg/dL"
        # against "a reduction in non-HDL cholesterol of more than 40%")
        return bool(names & _CHOLESTEROL_LEVELS and not other & _CHOLESTEROL_LEVELS
                    and other & _CHOLESTEROL_REDUCTIONS and not names & _CHOLESTEROL_REDUCTIONS)

    names_a, names_b = {q.name for q in qa}, {q.name for q in qb}
    return level_only(names_a, names_b) or level_only(names_b, names_a)


_FIRST_STAGE = re.compile(r"(?:stage|grade) 1 hypertension$")


def _hypertension_defined(qs: list) -> list:
    """Thresholds with the definition of hypertension that a first stage implies: its lower limit ("stage 1
    hypertension 130/80-139/89" defines hypertension as >= 130/80), added when the statement names no
    "hypertension" threshold of its own, so it compares with one that does (a later stage alone defines none)."""
    stages = [q for q in qs if _FIRST_STAGE.search(q.name) and q.op in ("range", ">=")]
    if not stages or any(q.name == "hypertension" for q in qs):
        return qs
    def lower(value: str) -> str:  # "130/80-139/89" and "130-139/80-89" both start at 130/80
        m = re.fullmatch(r"(\d+)-\d+/(\d+)-\d+", value)
        return f"{m.group(1)}/{m.group(2)}" if m else value.split("-")[0]

    lowest = min((lower(q.value) for q in stages), key=lambda v: int(v.split("/")[0]))
    return [*qs, Quantity(name="hypertension", op=">=", value=lowest, unit="mm Hg")]


def _clinic_goals(qa: list, qb: list) -> tuple[list, list]:
    """Two documents' goals, without the home or ambulatory goal one states beside its clinic goal when the other
    states none ("below 140/90 mm Hg (home reading below 135/85 mm Hg)" against "below 130/80 mm Hg")."""
    def out_of_office(qs: list) -> bool:
        return any(q.name.endswith(OUT_OF_OFFICE) for q in qs)

    def clinic(qs: list, other: list) -> list:
        return qs if out_of_office(other) else [q for q in qs if not q.name.endswith(OUT_OF_OFFICE)]

    return clinic(qa, qb), clinic(qb, qa)


def _ifcc_to_ngsp(mmol_mol: str) -> str:
    """An HbA1c in IFCC units (mmol/mol) as the NGSP/DCCT percentage, by the IFCC-NGSP master equation
    NGSP = 0.09148 x IFCC + 2.152, to one decimal as guidelines write it (48 -> 6.5, 53 -> 7.0, 58 -> 7.5,
    64 -> 8.0)."""
    return "-".join(number_text(round(0.09148 * float(v) + 2.152, 1)) for v in mmol_mol.split("-"))


def _a1c_in_percent(qs: list) -> list:
    """A1C goals stated only in IFCC units, compared in percent ("below 53 mmol/mol" is the goal "below 7%"); a
    goal that states a percentage is compared in its own words."""
    if any(q.unit == "%" for q in qs):
        return qs
    return [q.model_copy(update={"value": _ifcc_to_ngsp(q.value), "unit": "%"}) if q.unit == "mmol/mol" else q
            for q in qs]


# mg/dL per mmol/L of cholesterol (molar mass 386.65 g/mol)
_CHOLESTEROL_MG_DL_PER_MMOL_L = 38.67


def _cholesterol_in_mg_dl(qs: list) -> list:
    """Cholesterol goals stated only in mmol/L, compared in mg/dL to the nearest 5 mg/dL, as guidelines convert them
    (1.8 mmol/L -> 70, 2.6 -> 100, 3.0 -> 115 mg/dL: "LDL cholesterol below 3.0 mmol/L" is a higher goal than "below
    100 mg/dL"); a statement that also gives mg/dL is compared in its own words."""
    if any(q.unit == "mg/dL" for q in qs):
        return qs

    def mg_dl(value: str) -> str:
        return "-".join(number_text(5 * round(float(v) * _CHOLESTEROL_MG_DL_PER_MMOL_L / 5)) for v in value.split("-"))

    return [q.model_copy(update={"value": mg_dl(q.value), "unit": "mg/dL"})
            if q.unit == "mmol/L" and q.name in _CHOLESTEROL_LEVELS and _bounds(q.value) else q for q in qs]


def _goal_limit(key: tuple[str, str, str]) -> tuple[str, str, str]:
    """A goal's (comparator, value, unit) with "at or below" read as "below": "below 8%" and "up to 64 mmol/mol
    (8.0%)" are one goal as guidelines write them."""
    op, value, unit = key
    return ("<" if op == "<=" else op), value, unit


def _measure_side(q: Quantity) -> tuple[str, str]:
    """A threshold's measure and side: an upper limit ("PSA below 1 ng/mL may extend the interval") selects other
    people than a lower one ("a PSA of 3 ng/mL or higher should prompt a repeat test") and is not compared with it;
    nor is an LDL-C band, which describes the general population ("LDL-C 70 to 189 mg/dL"), with an LDL-C limit,
    which selects a subgroup ("LDL-C of 190 mg/dL or higher"), nor an A1C band (prediabetes, "5.7% to 6.4%") with
    the A1C limit beside it (diabetes, "6.5% or higher")."""
    if q.name in ("LDL-C", "A1C") and q.op == "range":
        return q.name, "band"
    return q.name, "upper" if q.op in ("<", "<=") else "lower"


def _shared(qa: list, qb: list, key: Callable[[Quantity], Any]) -> tuple[list, list]:
    """The sorted values of two quantity lists, each limited to the units or measures (``key``) the other also
    states, and that each side states once (two clinic and home readings both called "blood pressure" are not
    matched one against one)."""
    def once(qs: list) -> set:
        keys = [key(q) for q in qs]
        return {k for k in keys if keys.count(k) == 1}

    common = once(qa) & once(qb)
    return (sorted(q.key() for q in qa if key(q) in common),
            sorted(q.key() for q in qb if key(q) in common))
