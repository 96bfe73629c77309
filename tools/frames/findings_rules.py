"""Rule layer of finding frames: cue lexicons, effect measures, a rule direction labeler and the hand features
that sit beside the sentence embedding in the direction classifier (:mod:`.findings`).

Direction is relative to the outcome's polarity: a *change* (up / down) applied to a *bad* outcome
(mortality, risk, fracture, bleeding ...) is harm when up and benefit when down; applied to a *good* outcome
(survival, remission, quality of life ...) the other way round. Valence words ("improved", "worse", "protective")
carry the direction themselves. A no-effect cue ("no significant difference", "did not reduce", "was not
associated") wins over the change word it negates. The rule labeler is used (a) to derive weak training labels
where the datasets give direction only relative to a claim (train_direction.py) and (b) as features; it returns
None when it cannot tell, and the classifier decides.
"""

from __future__ import annotations

import re
from typing import Literal

import numpy as np

Direction = Literal["benefit", "no_effect", "harm", "mixed"]
DIRECTIONS: tuple[Direction, ...] = ("benefit", "no_effect", "harm", "mixed")

# --- effect measures -------------------------------------------------------------------------------------------
_NUM = r"\d+(?:[.·]\d+)?"
_RATIO_NAMES = (r"(?:a?HRs?|a?ORs?|a?RRs?|IRR|SHR|RR|hazard ratios?|odds ratios?|(?:relative )?risk ratios?|"
                r"relative risks?)")
# "HR 0.82 (95% CI 0.70-0.96)", "odds ratio, 1.5; 95% CI, 1.1 to 2.0", "RR = 0.7"
RATIO = re.compile(
    rf"\b(?P<name>{_RATIO_NAMES})\b[\s,:=(]*(?:was|of|were)?\s*(?P<value>{_NUM})"
    rf"(?P<ci>[\s,;(\[]*(?:95\s?%\s?)?(?:CI|confidence interval)[\s,:=]*(?P<lo>{_NUM})\s*(?:-|–|to|,)\s*"
    rf"(?P<hi>{_NUM})\)?\]?)?",
    re.I,
)
OTHER_MEASURE = re.compile(
    r"\b(?:(?:mean|median|absolute|weighted mean|standardi[sz]ed mean) (?:difference|change|reduction)|"
    rf"MD|SMD|WMD|ARR|NNT|risk difference)\b[\s,:=(]*(?:was|of)?\s*-?{_NUM}[^.;]*?(?:\)|(?=[.;,]))",
    re.I,
)
P_VALUE = re.compile(r"\bp\s*(?P<op>[<=>≤≥]|&lt;)\s*(?P<value>0?[.·]\d+|1(?:\.0+)?)", re.I)


def effect_measure(sentence: str) -> str | None:
    """The effect measure as stated, e.g. "HR 0.82 (95% CI 0.70-0.96)", "OR 1.5", "p = 0.03" (ratio first,
    then a difference measure, then a bare p value)."""
    m = RATIO.search(sentence) or OTHER_MEASURE.search(sentence)
    if m:
        text = m.group(0).strip(" ,;(").rstrip("[(,; ")
        while text.count(")") > text.count("(") and text.endswith(")"):
            text = text[:-1]  # the measure sat inside a parenthesis: drop its closing one
        return text
    m = P_VALUE.search(sentence)
    return m.group(0).strip() if m else None


def ratio_signal(sentence: str) -> tuple[float, float, float]:
    """(ratio < 1, ratio > 1, CI spans 1) as 0/1 for the first ratio measure: with a bad outcome a ratio below 1
    with a CI excluding 1 is a benefit, a CI spanning 1 is no effect."""
    m = RATIO.search(sentence)
    if not m:
        return 0.0, 0.0, 0.0
    value = float(m.group("value").replace("·", "."))
    spans = 0.0
    if m.group("lo") and m.group("hi"):
        lo, hi = float(m.group("lo").replace("·", ".")), float(m.group("hi").replace("·", "."))
        spans = float(lo <= 1.0 <= hi)
    return float(value < 1.0), float(value > 1.0), spans


def p_signal(sentence: str) -> tuple[float, float]:
    """(significant p, non-significant p): p < 0.05 (or <= 0.05) vs. p > 0.05, the conventional threshold."""
    sig = nonsig = 0.0
    for m in P_VALUE.finditer(sentence):
        value = float(m.group("value").replace("·", "."))
        op = m.group("op")
        if op in ("<", "≤", "&lt;") and value <= 0.05 or op == "=" and value < 0.05:
            sig = 1.0
        elif op in (">", "≥") and value >= 0.05 or op == "=" and value >= 0.05:
            nonsig = 1.0
    return sig, nonsig


# --- cue lexicons ---------------------------------------------------------------------------------------------
NO_EFFECT = re.compile(
    r"\b(?:no (?:statistically )?(?:significant |clear |meaningful |detectable |apparent |overall )?"
    r"(?:difference|differences|effect|effects|association|associations|change|changes|benefit|improvement|reduction|"
    r"increase|impact|influence|relationship|correlation|evidence|advantage|effect modification)|"
    r"(?:did|does|do|was|were|is|are|has|have|had|could|can) not (?:significantly |substantially |materially )?"
    r"(?:reduce|decrease|lower|increase|improve|affect|alter|change|differ|influence|modify|predict|prevent|"
    r"associated|associate|different|related|correlated|significant|significantly|show|find|confer|result|lead|"
    r"provide|appear|seem|impact|enhance|protect|raise|elevate|benefit)\w*|"
    r"not (?:significantly |statistically |independently )?(?:associated|different|related|correlated|significant|"
    r"superior|inferior|effective|beneficial)|"
    r"similar (?:between|in|across|among|to)|comparable|did not differ|failed to|unaffected|unchanged|"
    r"non-?significant|not statistically|neither|nor did|no longer|was lost|did not reach|equivalent|non-?inferior)\b",
    re.I,
)
UP = re.compile(
    r"\b(?:increas\w*|higher|elevat\w*|greater|more (?:likely|frequent|common)|rais\w*|enhanc\w*|promot\w*|"
    r"induc\w*|augment\w*|upregulat\w*|up-regulat\w*|doubl\w*|tripl\w*|excess|accelerat\w*|exacerbat\w*|"
    r"stimulat\w*|potentiat\w*|risk factor|predispos\w*|rise|rises|rose|greater risk)\b",
    re.I,
)
DOWN = re.compile(
    r"\b(?:reduc\w*|decreas\w*|lower\w*|less|fewer|attenuat\w*|inhibit\w*|suppress\w*|diminish\w*|prevent\w*|"
    r"declin\w*|downregulat\w*|down-regulat\w*|halv\w*|abolish\w*|block\w*|impair\w*|delay\w*|slow\w*|"
    r"shorter|drop\w*|fell|fall|cut|mitigat\w*|alleviat\w*|ameliorat\w*|relie\w*)\b",
    re.I,
)
GOOD_VALENCE = re.compile(
    r"\b(?:improv\w*|benefi\w*|effective|efficacious|efficacy|protect\w*|superior|better|favou?rabl\w*|"
    r"success\w*|safe|well tolerated|well-tolerated|advantage\w*|useful|helpful|promising|recover\w*|"
    r"resolv\w*|healed|cured)\b",
    re.I,
)
BAD_VALENCE = re.compile(
    r"\b(?:wors\w*|harm\w*|detrimental|adverse(?:ly)?|inferior|poor\w*|unfavou?rabl\w*|toxic\w*|deleterious|"
    r"dangerous|hazard\w*|ineffective|deteriorat\w*|negative(?:ly)? (?:affect|impact)\w*)\b",
    re.I,
)
BAD_OUTCOME = re.compile(
    r"\b(?:mortality|death\w*|die\w*|dying|risk\w*|incidence|fractur\w*|bleed\w*|haemorrhag\w*|hemorrhag\w*|"
    r"adverse events?|complications?|recurren\w*|relaps\w*|infection\w*|pain|disease|cancer\w*|tumou?r\w*|"
    r"failure|hospitali[sz]ation\w*|readmission\w*|morbidity|toxicity|symptom\w*|severity|injur\w*|stroke\w*|"
    r"infarction|events?|dementia|depressi\w*|obesity|inflammat\w*|progression|metasta\w*|thrombo\w*|"
    r"exacerbation\w*|rejection|disability|length of stay|hypoglyc\w*|resistance|viral load|transmission|"
    r"burden|damage|lesions?|fibrosis|apoptosis|insulin resistance|weight gain|blood pressure|cholesterol|"
    r"glucose|hba1c|a1c|odds|hazard|illness|deficien\w*|delirium|anxiety|falls?|errors?|costs?)\b",
    re.I,
)
GOOD_OUTCOME = re.compile(
    r"\b(?:survival|remission|response|respon\w+ rate|quality of life|qol|function\w*|healing|cure|recovery|"
    r"adherence|compliance|well-being|wellbeing|clearance|immunity|bone (?:mineral )?density|bmd|"
    r"performance|satisfaction|efficacy|control|weight loss|regeneration|repair|longevity|lifespan)\b",
    re.I,
)
MIXED = re.compile(
    r"\b(?:mixed|inconsistent|conflicting|inconclusive|equivocal|uncertain|unclear|controversial|"
    r"but not|whereas|while not|only in|only among|in some|subgroup|may|might|possibly|suggest\w*|"
    r"further (?:studies|research|trials)|warrant\w*|remains? to be)\b",
    re.I,
)
SIGNIFICANT = re.compile(r"\b(?:significant(?:ly)?|statistically significant|marked(?:ly)?|substantial(?:ly)?)\b", re.I)
# Sentences that describe the study rather than report a result.
METHODS = re.compile(
    r"\b(?:we (?:enrolled|recruited|randomi[sz]ed|conducted|performed|aimed|sought|investigated|examined|assessed|"
    r"evaluated|analy[sz]ed|included|collected|searched|identified|used|designed|compared|reviewed|hypothesi[sz]ed)|"
    r"(?:were|was) (?:randomi[sz]ed|enrolled|recruited|included|assigned|allocated|followed|measured|collected|"
    r"obtained|performed|conducted|used|analy[sz]ed|assessed|evaluated)|"
    r"(?:the |this |our )?(?:aim|objective|purpose|goal) (?:of|was|is)|to (?:determine|assess|evaluate|investigate|"
    r"examine|compare) whether|methods?:|design:|setting:|participants:)\b",
    re.I,
)
_CONTRAST = re.compile(r"\b(?:but not|whereas|while no|but no)\b", re.I)


def _strip_no_effect(text: str) -> str:
    """The text with its no-effect phrases removed, so that "did not reduce" is not also read as "reduce"."""
    return NO_EFFECT.sub(" ", text)


def change_and_polarity(sentence: str) -> tuple[int, int, int, int, int, int]:
    """Counts of (up, down, good valence, bad valence, bad outcome, good outcome) cues outside no-effect phrases."""
    rest = _strip_no_effect(sentence)
    # "risk" and "events" are outcomes, never change words; "less"/"more" are change words in "less pain".
    return (len(UP.findall(rest)), len(DOWN.findall(rest)), len(GOOD_VALENCE.findall(rest)),
            len(BAD_VALENCE.findall(rest)), len(BAD_OUTCOME.findall(rest)), len(GOOD_OUTCOME.findall(rest)))


def rule_direction(sentence: str) -> Direction | None:
    """Rule label: no_effect when a no-effect cue is present and no other effect cue remains outside it
    (mixed when one does); else valence words, else change direction x outcome polarity; None when undecided.

    Scoring: effect = (good - bad valence) + (down - up) * polarity, with polarity +1 for a sentence that names
    only bad outcomes, -1 for one naming only good outcomes; the sign decides (a tie is None)."""
    up, down, good, bad, bad_out, good_out = change_and_polarity(sentence)
    ratio_lt1, ratio_gt1, spans = ratio_signal(sentence)
    no_effect = bool(NO_EFFECT.search(sentence)) or spans > 0
    polarity = 1 if bad_out and not good_out else -1 if good_out and not bad_out else 0
    if polarity == 0 and (bad_out or good_out):
        polarity = 1 if bad_out >= good_out else -1  # both named: the more frequent kind decides
    score = (good - bad) + (down - up) * polarity
    if not spans:
        score += (ratio_lt1 - ratio_gt1) * (polarity or 1)  # a ratio names a risk/odds/hazard: bad by default
    if no_effect:
        return "mixed" if score != 0 and (up + down + good + bad) > 0 and not spans else "no_effect"
    if score != 0 and _CONTRAST.search(sentence):
        return "mixed"  # "lower mortality but not fewer strokes": an effect on one outcome, none on another
    if score > 0:
        return "benefit"
    if score < 0:
        return "harm"
    return None


def is_result_sentence(sentence: str) -> bool:
    """A result: an effect measure or p value, or a no-effect / change / valence cue, in a sentence that is not a
    methods or aim statement (those can carry "compared", "reduce" in "to determine whether X reduces Y" but
    report nothing). Background statements of known effects pass too: they are findings, only older ones."""
    if METHODS.search(sentence) and not (RATIO.search(sentence) or P_VALUE.search(sentence)):
        return False
    if RATIO.search(sentence) or P_VALUE.search(sentence) or OTHER_MEASURE.search(sentence):
        return True
    if NO_EFFECT.search(sentence):
        return True
    up, down, good, bad, _, _ = change_and_polarity(sentence)
    return (up + down + good + bad) > 0


HAND_FEATURES = ("no_effect_cue", "up", "down", "good_valence", "bad_valence", "bad_outcome", "good_outcome",
                 "mixed_cue", "significant", "p_sig", "p_nonsig", "ratio_lt1", "ratio_gt1", "ci_spans_1",
                 "negation", "rule_benefit", "rule_no_effect", "rule_harm", "rule_mixed", "rule_none")
_NEGATION = re.compile(r"\b(?:not|no|never|none|neither|nor|without|cannot|n't)\b", re.I)


def hand_features(sentence: str) -> np.ndarray:
    """Feature vector in HAND_FEATURES order; counts are capped at 2 so that a long snippet is not a different
    kind of input than a sentence (the classifier sees both)."""
    up, down, good, bad, bad_out, good_out = change_and_polarity(sentence)
    sig, nonsig = p_signal(sentence)
    lt1, gt1, spans = ratio_signal(sentence)
    rule = rule_direction(sentence)
    raw = [len(NO_EFFECT.findall(sentence)), up, down, good, bad, bad_out, good_out, len(MIXED.findall(sentence)),
           len(SIGNIFICANT.findall(sentence)), sig, nonsig, lt1, gt1, spans, len(_NEGATION.findall(sentence)),
           rule == "benefit", rule == "no_effect", rule == "harm", rule == "mixed", rule is None]
    return np.minimum(np.array(raw, dtype=np.float32), 2.0) / 2.0
