"""Whether a value a clause states is spoken of as a goal to treat to (a target) rather than a level at which to act (a
threshold): :func:`in_target`, per value, from the words of the value's own part of the clause."""

from __future__ import annotations

import re

from clinrag.tools.frames.programme_cues import NUMERATOR_NOW

# a threshold moved to a new value, which is no goal to lower anything to ("the diagnostic threshold for hypertension
# has been lowered to 130/80 mm Hg", "the treatment threshold was raised to a 10-year risk of 10%", "The FIT result
# that triggers referral has been lowered from 120 to 80 µg Hb/g", "the risk level at which aspirin may be offered has
# been lowered from 10 % to 7.5 %")
THRESHOLD_MOVED = re.compile(r"\b(?:threshold|cut-?off|(?:result|level|value|reading|amount) that (?:triggers?|prompts?"
                             r"|leads? to)|(?:risk )?level at which)\b[^.;]{0,50}\b(?:lowered|raised|reduced|increased"
                             r"|moved|changed)(?: from [\d.]+(?: \S+)?)? to (?:an? |the )?(?:[\w-]+ ){0,3}(?:of )?"
                             r"(?:below |under )?$", re.I)
# the words that speak of a goal: "target", "goal", "aim", "treat to", "bring ... below", a measure's "adequately
# controlled" ...
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


def in_target(text: str, positions: list[int]) -> list[bool]:
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
