"""What a threshold's or target's value measures (:func:`quantity_name`): A1C, a 10-year (or other horizon) risk,
LDL-C or its reduction (or non-HDL cholesterol's), PSA, a FIT's haemoglobin, or a blood pressure named by its category
and its setting."""

from __future__ import annotations

import re

from clinrag.tools.frames.numbers import NUMBER_WORDS, number

_BP_CATEGORY = re.compile(
    r"(high-normal blood pressure|normal blood pressure|elevated blood pressure|stage [12] hypertension|hypertension)",
    re.I)


OUT_OF_OFFICE = " (home or ambulatory)"
TIME_IN_RANGE = "time in range"  # a share of glucose readings within a range
TIME_OUT_OF_RANGE = "time out of range"  # ... and below or above one
_OF_READINGS = r"of (?:(?:glucose|CGM|sensor) )?(?:readings|values|time)"  # whose share a percentage is

_YOU_HAVE_IT = r"\b(?:you|they|he|she) (?:have|has) (?:high blood pressure|hypertension)\b"
_YOU_HAVE_IT_AFTER = re.compile(rf"[^.;]{{0,60}}?,\s*{_YOU_HAVE_IT}", re.I)  # "..., you have high blood pressure"
_YOU_HAVE_IT_IF = re.compile(rf"{_YOU_HAVE_IT} (?:if|when)\b", re.I)  # "you have high blood pressure if ..."
# "High blood pressure is now defined as an average office reading of 130/80 mm Hg or more"
# ("Your blood pressure is classed as high if readings taken at the surgery are 140/90 mmHg or above")
_HIGH_BP_DEFINED = re.compile(r"\bhigh blood pressure (?:\(hypertension\) )?(?:is|are) (?:now |usually )?"
                              r"(?:defined|diagnosed)\b[^.;]{0,60}$"
                              r"|\bblood pressure (?:is|are) (?:classed|classified|considered|regarded|counted) as "
                              r"(?:high|raised)\b[^.;]{0,80}$", re.I)


_STAGE_AFTER = re.compile(r"\s*(?:or (?:higher|more|above|over)\s+)?(?:(?:is |are )?(?:classed|classified"
                          r"|categori[sz]ed) )?as (stage [12])\b", re.I)


_STAGE_BEFORE = re.compile(r"\b(stage [12])\b(?! hypertension)[^.;,\d]{0,25}$", re.I)


_HORIZON = re.compile(rf"\b(?:next|over|within) ({'|'.join(NUMBER_WORDS)}|\d+) years\b|\b(\d+)-year\b", re.I)


def _risk_name(window: str) -> str:
    """A risk is a 10-year cardiovascular risk unless its words give it another horizon ("a 6-year risk", "in the next
    six years"): then it is named by that horizon."""
    years = [number(m.group(1) or m.group(2)) for m in _HORIZON.finditer(window)]
    return f"{years[-1]}-year risk" if years and years[-1] != 10 else "10-year CVD risk"


def quantity_name(before: str, unit: str, is_target: bool, after: str = "") -> str:
    """What a value measures, from the words before it (``before``) and after it (``after``): A1C, a risk named by
    its horizon, LDL-C or its reduction, PSA, or a blood pressure named by its category ("hypertension",
    "high-normal blood pressure") and setting (clinic, home, ambulatory)."""
    window = before[-70:]
    low = window.lower()
    if unit == "%":
        # a share of time with glucose in a range, not an A1C: "a time in range (3.9 to 10.0 mmol/L) of more than 70%"
        if low.rfind("time in range") > low.rfind("a1c"):
            return TIME_IN_RANGE
        if "a1c" in low:
            return "A1C"
        # the nearer word names it: "with LDL-C levels of 70 to 189 mg/dL, a 10-year ASCVD risk of 7.5%" is a risk;
        # "your chance of a heart attack or stroke in the next 10 years" is one too
        risk = max(low.rfind("risk"), low.rfind("chance"))
        if "ldl" in low and low.rfind("ldl") > risk:
            return "LDL-C reduction"
        # ("Aim for a reduction in non-HDL cholesterol of more than 40% from baseline")
        if "non-hdl" in low and low.rfind("non-hdl") > risk:
            return "non-HDL-C reduction"
        if risk >= 0 and "lifetime" in low[max(0, risk - 25):risk]:  # "a lifetime risk of 20 % or more"
            return "lifetime risk"
        if risk >= 0:
            # (whole words: a window cut inside "10-year" would read a 0-year risk)
            return _risk_name(re.sub(r"^\S*\s", "", before[-90:].lower()))
        # a share of glucose readings, not an A1C: "a goal of more than 70 % of readings within 70 to 180 mg/dL"
        if re.match(rf"\s*{_OF_READINGS}\b", after, re.I):
            return TIME_IN_RANGE
        # ... or of readings out of range: "with less than 4% below 70 mg/dL"
        if re.match(rf"\s*(?:{_OF_READINGS} )?(?:below|above) \d+(?:\.\d+)? (?:mg/dL|mmol/L)\b", after, re.I):
            return TIME_OUT_OF_RANGE
        # the measure after the value: "who have a 10% or greater 10-year CVD risk"
        if re.match(r"\s*(?:or (?:greater|higher|more|above)\s+)?(?:\d+-year\s+)?(?:\w+\s+){0,2}risk\b", after, re.I):
            return "10-year CVD risk"
        return "percent"
    if unit == "ng/mL":  # "a PSA level of 4.0 ng/mL or higher"; ("A raised PSA can be caused by ..., and a result of
        # 3 ng/mL or more usually means ...", "A result of 4 ng/mL or more is usually followed by a second test" in a
        # leaflet about the PSA test: the level these guidelines state in ng/mL, except a faecal haemoglobin)
        return "ng/mL value" if re.search(r"haemoglobin|hemoglobin|faecal|fecal|\bFIT\b", before, re.I) else "PSA"
    if unit == "µg/g":  # "a FIT result of 20 µg haemoglobin per gram of faeces or more"
        return "FIT haemoglobin"
    if unit == "mmol/mol":  # A1C in IFCC units (53 mmol/mol = 7 %)
        return "A1C" if "a1c" in low else "mmol/mol value"
    if unit in ("mg/dL", "mmol/L"):
        return "LDL-C" if "ldl" in low or "cholesterol" in low else f"{unit} value"
    measure = (
        "systolic blood pressure"
        if "systolic" in low[-40:]
        else ("diastolic blood pressure" if "diastolic" in low[-40:] else "blood pressure")
    )
    if is_target:  # a goal for home or ambulatory readings beside the clinic goal: "(home reading below 135/85)"
        return measure + (OUT_OF_OFFICE if re.search(r"\b(?:home|ambulatory|daytime)\b", low[-30:]) else "")
    # a stage named right after its reading, whatever the sentence defined before it: "Hypertension is now defined as
    # ... 130/80 mm Hg or higher, with 130-139/80-89 mm Hg classed as stage 1 and 140/90 mm Hg or higher as stage 2"
    if stage := _STAGE_AFTER.match(after):
        return f"{stage.group(1).lower()} hypertension"
    # ... or named just before it, the word "hypertension" left to the sentence ("Stage 1 hypertension covers 130-139
    # systolic or 80-89 diastolic, and stage 2 begins at 140/90 mm Hg")
    if stage := _STAGE_BEFORE.search(before):
        return f"{stage.group(1).lower()} hypertension"
    # the category a band is named after it: "between 130/85 and 139/89 mm Hg are classified as having high-normal
    # blood pressure"
    # ("office blood pressure of 130/80 mm Hg or higher, confirmed on at least two occasions, now defines
    # hypertension", "a home average of 130/80 or above confirms hypertension")
    named_after = (
        re.match(r"[^.;]{0,30}?\b(?:classified|classed|categori[sz]ed|considered|defined) as (?:having )?[^.;]{0,40}",
                 after)
        or re.match(r"[^.;]{0,80}?\b(?:defines?|constitutes?|confirms?) [^.;]{0,40}", after))
    named = list(_BP_CATEGORY.finditer(before))
    cats = [m.group(1) for m in named] or (_BP_CATEGORY.findall(named_after.group(0)) if named_after else [])
    # a category named for an earlier part ("in adults with stage 1 hypertension whose 10-year risk is 10 % or more, and
    # in every adult whose blood pressure is 140/90 mm Hg or more", "offered to adults with confirmed hypertension whose
    # 10-year cardiovascular risk is 10% or more ..., and to everyone whose office pressure is 160/100 mm Hg or
    # higher"): the value's own part names none
    if named and re.search(r",\s*and (?:in|for|to) ", before[named[-1].end():]):
        cats = []
    # a leaflet's definition, the reading first ("If your readings are 130 over 80 or higher on two or more visits,
    # you have high blood pressure") or after ("You have high blood pressure if your reading at the surgery is 140/90
    # or more and a home or 24-hour check confirms it at 135/85 or more": the home reading named by its setting below)
    if not cats and ((_YOU_HAVE_IT_AFTER.match(after) and re.search(r"\b(?:if|when)\b", before, re.I))
                     or _YOU_HAVE_IT_IF.search(before) or _HIGH_BP_DEFINED.search(before)):
        cats = ["hypertension"]
    # a reading that calls for confirming the diagnosis defines it: "if clinic blood pressure is 140/90 mmHg or higher,
    # offer ambulatory monitoring ... to confirm the diagnosis"
    # ("if clinic blood pressure is 140/90 mmHg or higher, offer ambulatory monitoring (ABPM) to confirm;")
    # ("if clinic blood pressure is 140/90 mm Hg or higher, offer ambulatory monitoring, or home monitoring if ...")
    # ("Step 1: If clinic blood pressure is 140/90 mmHg or higher, order ambulatory blood pressure monitoring", "If
    # clinic blood pressure is 130/80 mm Hg or higher, confirm with home monitoring")
    if not cats and (re.match(r"[^.;]{0,160}\bto confirm(?: (?:the |a )?diagnosis\b|\s*[;.]|$)", after, re.I)
                     or re.match(r"[^.;]{0,40}\b(?:offer|arrange|use|order|request|book|confirm with)\b[^.;]{0,20}"
                                 r"\b(?:ambulatory|home) (?:blood "
                                 r"pressure )?monitoring\b", after, re.I)
                     or re.search(r"\bto confirm (?:the |a )?diagnosis\b[^.;]{0,100}$", before, re.I)):
        cats = ["hypertension"]
    if cats:
        name = cats[-1].lower()
        # ("confirmed by a home average of 135/85 mm Hg": a home reading, not the clinic one before it)
        # ("135/85 or higher when you measure it at home")
        # (not a home reading the next part names: "if your reading at the surgery is 140/90 or higher and your average
        # at home ... is 135/85 or higher")
        # ("... 140/90 or higher and your average at home, or over a day wearing a monitor, is 135/85 or higher": the
        # setting the value's own part names)
        own = re.split(r"\band\b|;", low)[-1]
        home = (re.search(r"\bhome\b", low[-40:]) or re.search(r"\bhome\b", own)
                or re.match(r"(?:(?!\band\b)[^.;,]){0,40}\bat home\b", after, re.I))
        # ("hypertension is confirmed when the daytime ABPM average is 135/85 mmHg or higher")
        ambulatory = re.search(r"ambulatory|\babpm\b|\bdaytime\b", low)
        worn = re.search(r"\bwearing a monitor\b|\b24-hour\b|\bover a (?:whole )?day\b", own)
        setting = " (ambulatory)" if ambulatory else " (home)" if home else " (ambulatory)" if worn else ""
        return name + setting
    return measure
