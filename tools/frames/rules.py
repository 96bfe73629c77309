"""The regex rule layer: strength, action and non-recommendation sentences (the words of each action:
:mod:`action_cues`; ages: :mod:`ages`; intervals: :mod:`intervals`)."""

from __future__ import annotations

import re

from clinrag.tools.frames.action_cues import ACTION_CUES
from clinrag.tools.frames.cues_against import MAY_STOP_CUE
from clinrag.tools.frames.cues_for import APPLIES_TO, REPLACED_BY_NEW
from clinrag.tools.frames.lexicon import DIAGNOSED_AT
from clinrag.tools.frames.schema import RECOMMEND_LIKE
from clinrag.tools.frames.set_aside import without_reason

# "grade B", "(B recommendation)", "(I statement)", "(B)", "(B grade)", "its A-grade recommendation", "earns a B
# grade", "(a 'B' grade)", "a grade of C"
_GRADE = re.compile(
    # (not a grade of the evidence: "Evidence Strength: Grade B", "Evidence Level: Grade C")
    r"(?<![Ss]trength: )(?<![Ll]evel: )(?<![Ee]vidence: )(?<![Qq]uality: )\b[Gg]rade ([ABCDI])\b(?! means)"
    r"|\(([ABCDI])(?: recommendations?| statements?| grade)?\)|\b([ABCDI])-grade\b"
    r"|\b(?:[Aa]n?|[Tt]he|[Ii]ts)\s+['‘’\"]?([ABCDI])['’\"]?\s+grade\b|\bgrade of ([ABCDI])\b"
    # "the USPSTF, which gives it a D"
    r"|\bgiv(?:es|ing|en) (?:it|this|them|that) an? ([ABCDI])\b(?![-'’])"
)


def _grade_letter(match: re.Match) -> str:
    """The letter of a :data:`_GRADE` match, whichever of its forms matched."""
    return next(g for g in match.groups() if g)


# the class of recommendation, "class IIb" or "COR IIb"
_CLASS = re.compile(r"\b(?:class|COR) (III|IIb|IIa|II|I)\b(?:\s*[,:]\s*(harm|no benefit))?", re.I)


def _class_of(match: re.Match) -> str:
    """The class of a :data:`_CLASS` match in one form: "I", "II", "III", "IIa", "IIb" (however it is cased)."""
    roman = match.group(1)
    return roman.upper() if roman.upper() in ("I", "II", "III") else "II" + roman[2:].lower()


# the level of evidence, written "level of evidence B-R", "LOE B" or "Level B" ("Class IIa, Level B"), in one
# form: "LOE B-R"
_LOE = re.compile(
    r"\b(level of evidence|LOE|(?-i:Level)|(?<=, )level)\s*:?\s*((?-i:[ABC])(?:-(?:R|NR|LD|EO))?)\b", re.I
)
# "strong recommendation"; VA/DoD's "(Weak for)", "(Strong against)", "(VA/DoD; weak for)"; EAU's "(strong)",
# "(EAU, strong rating)", "(strength rating: strong)"
_WORD = re.compile(
    r"\b(strong|qualified|conditional|weak)\s+recommendations?"
    r"|(?:\(|[;,]\s*)(?:strength rating:?\s*)?(strong|weak)(?: (?:for|against|rating))?\)"
    # "though it rates that advice as weak"
    r"|\brat(?:es|ed|ing) (?:this|that|it|the|its)\b[^.;()]{0,25}?\bas (strong|qualified|conditional|weak)\b", re.I
)
# KDIGO's grade, level 1 or 2 with the quality of evidence A-D, written "(1B)", "(2C)"
_KDIGO = re.compile(r"\(([12][A-D])\)")
# the evidence grading that follows the strength word: "(weak recommendation, low-quality evidence)" (GRADE as ACP
# states it), "(conditional recommendation, low certainty)"; "moderate certainty of evidence" is written in the form
# "moderate-certainty evidence"
_EVIDENCE = r"((?:high|moderate|low|very low)(?:-quality evidence|[- ]certainty(?: of evidence| evidence)?))"
_QUALITY = re.compile(rf"\brecommendation\s*(?:[,;]|(?:based on|backed by|supported by))\s*{_EVIDENCE}", re.I)
# the same after a rated strength: "rates that advice as weak, on moderate-quality evidence"
_RATED_QUALITY = re.compile(rf"\s*[,;]?\s*(?:on|with|based on)\s+{_EVIDENCE}", re.I)


def strength(text: str) -> str | None:
    """Stated strength, as stated, normalized only in case and form: "grade B", "class III, harm", "LOE B-R"
    (however the level of evidence is written), "strong", "weak; low-quality evidence", KDIGO's "2B"; parts are
    joined with "; "."""
    parts = []
    if m := _GRADE.search(text):
        parts.append(f"grade {_grade_letter(m)}")
    if m := _CLASS.search(text):
        parts.append(f"class {_class_of(m)}" + (f", {m.group(2).lower()}" if m.group(2) else ""))
    if m := _LOE.search(text):
        parts.append(f"LOE {m.group(2).upper()}")
    if m := _WORD.search(text):
        parts.append((m.group(1) or m.group(2) or m.group(3)).lower())
        q = (_QUALITY.search(text, m.end() - len("recommendation")) if m.group(1)
             else _RATED_QUALITY.match(text, m.end()) if m.group(3) else None)
        if q:
            parts.append(re.sub(r"[- ]certainty of evidence$", "-certainty evidence", q.group(1).lower()))
    if m := _KDIGO.search(text):
        parts.append(m.group(1))
    return "; ".join(parts) or None


# What a grade or class means (USPSTF grades; ACC/AHA classes of recommendation). Grade I is insufficient
# evidence, never a recommendation against.
_GRADE_ACTION = {
    "A": "recommend",
    "B": "recommend",
    "C": "individual_decision",
    "D": "recommend_against",
    "I": "insufficient_evidence",
}
_CLASS_ACTION = {
    "I": "recommend",
    "IIa": "suggest_or_consider",
    "IIb": "suggest_or_consider",
    "II": "suggest_or_consider",
    "III": "recommend_against",
}

_NOT_A_RECOMMENDATION = re.compile(
    # ("no longer have a cervix" is no change of guidance)
    # ("years since quitting no longer matter", "... is no longer an eligibility criterion" changes who qualifies, not
    # whether a recommendation stands)
    # ("the programme no longer sends kits" after the last one is where it stops)
    # ("This 2024 edition replaces the Council's 2015 position, which recommended against ...")
    r"\bcompared with\b|\blater replaced\b|\breplaced\b|\breplaces\b|\bsupersedes\b"
    # ("screening is no longer offered to people aged 21 to 24" says what is offered now)
    # ("aspirin is no longer recommended for people without diabetes", "co-testing is no longer endorsed" is the stance
    # now; not an organization's "The USPSTF no longer recommends lung cancer screening for adults aged 55 to 80", the
    # band it replaced)
    # ("Women over 70 are no longer sent invitations" is where a programme stops; "Time since quitting should no longer
    # be used to exclude people", "the number of years since quitting is no longer used to decide eligibility" is who
    # is eligible now)
    r"|\bno longer\b(?! ha(?:ve|s) | (?:matters?|counts?|checked|needs?|sends?|sent|posts?|mails?|invites?|invited"
    r"|offered|covered|recommended|advised|endorsed|supported|be invited|(?:be )?used"
    # ("the number of years since quitting is no longer an eligibility criterion")
    r"|an? (?:eligibility )?(?:criterion|exclusion|barrier))\b"
    # ("... or when the patient would no longer be a candidate for curative treatment": who leaves the pathway)
    r"| be (?:a )?(?:candidate|eligible|suitable|fit)\b"
    # ("a stand-alone cytology result no longer satisfies the numerator": what a measure counts now)
    r"| (?:satisf(?:y|ies)|meets?|counts? towards?)\b"
    # ("the time since quitting no longer affects eligibility": who is eligible now)
    r"| (?:affects?|determines?|limits?|restricts?) (?:eligibility|who is eligible|who qualifies)\b)"
    r"|\bhad (?:previously |formerly |earlier )?been\b"
    # what an earlier edition said: "The previous edition had allowed aspirin to be considered in any adult ..."
    r"|^\W*(?:the|our|its|their|in the|in our|in its) (?:previous|prior|earlier|former|last) (?:edition|version"
    r"|update|guideline|statement|recommendation|policy)s?\b"
    r"|\bmoved (?:the|from)\b"
    # "The Grade B recommendation for people in their fifties has therefore been withdrawn"
    r"|\b(?:has|have|had|was|were) (?:\w+ )?(?:been )?(?:withdrawn|rescinded|retired|revoked)\b"
    # (not a value moved, which states the new one: "has lowered the blood pressure at which hypertension is diagnosed
    # from 140/90 to 130/80 mm Hg")
    rf"|\b(?:lowered|raised) the\b(?! [^.;]*\b{DIAGNOSED_AT} from \d)|\bkeeps the\b"
    # "This update raises the risk threshold at which statin therapy is recommended ...": what the edition changed,
    # with no value (not "lowers the age at which screening is covered: ... eligible at 45", "this lowers the starting
    # age from 50")
    r"|\b(?:raises|lowers) the (?:[\w-]+ ){0,2}(?:threshold|age|target|goal) at which\b(?![^.;]*\d)"
    # (not a value that "now also applies to adults aged 65 and older"; "This target also applies to ..." names none)
    r"|\bgrade [A-DI] means\b|(?<!same )(?<!also )\bappl(?:ies|ied) to\b|^[^\d]*\balso appl(?:ies|ied) to\b"
    r"|\b(?:issued|published|updated|addressed) (?:its|their|an?|the)\b|\b(?:issued|published|addressed) guidance\b"
    # an emergency reading is a reason to refer, not a threshold or a goal of the recommendation
    r"|\bsame-day (?:\w+ )?(?:assessment|referral|review)\b"
    # a programme's performance standard ("... adequately screened, with an acceptable level of 80%")
    r"|\b(?:acceptable|achievable) (?:level|standard)\b"
    # a question left open: "The panel did not reach agreement on whether men at higher risk should start earlier and
    # makes no statement on this group"
    r"|\b(?:did|could) not reach (?:consensus|agreement)\b[^.]*\bmakes? no statement\b"
    # ... or says only that: "No consensus was reached on starting statins after age 75", "The panel did not reach
    # consensus on whether CT colonography should be offered outside research settings"
    r"|^\W*no (?:consensus|agreement) (?:was|could be) reached\b"
    r"|\b(?:did|could) not reach (?:consensus|agreement) on whether\b"
    # a minority's view beside the statement's own: "Two member societies recorded a dissent, preferring the 130/80 mm
    # Hg definition used in some other regions"
    r"|\brecorded (?:a |their )?dissent\b|\bin a minority (?:view|opinion|report)\b"
    # what a statement leaves to other guidance: "Statin use is not addressed here for adults with LDL cholesterol of
    # 190 mg/dL or higher ..., who are covered by separate guidance"
    r"|\bnot addressed (?:here|in this)\b|\b(?:is|are) covered by (?:separate|other|its own) guid"
    # what a leaflet is about: "This summary explains when your doctor or nurse may talk to you about taking a statin"
    r"|^\W*this (?:summary|leaflet|guide|booklet|factsheet|fact sheet|page) (?:explains|describes|sets out|tells you)\b"
    # a measure's title names what it counts; its rationale states the stance ("Measure PQ-7: Non-recommended
    # PSA-based screening in older men (inverse measure; a lower rate is better)")
    r"|^\W*(?:quality )?measure\b[^.:]{0,40}:\s*non-?recommended\b"
    # a one-off test before routine screening begins: "A single baseline screening mammogram is covered for members
    # aged 35 through 39"
    r"|\b(?:a single|one-time|one-off|a one-time|a one-off) baseline\b"
    # why a measure's level was chosen: "The 8.0% level was chosen for a population measure because a stricter
    # cut-off would penalize plans for appropriately individualized care"
    r"|\b(?:level|cut-?off|threshold|target|goal) (?:was|were|has been) chosen\b"
    # an option turned down: "The Society considered, and rejected, the lower 130/80 mm Hg threshold adopted by some
    # North American bodies, judging that it would label an extra 14% of adults as hypertensive"
    r"|\bconsidered,? (?:and|but) rejected\b"
    # ("The Society considered lowering the diagnostic threshold to 130/80 mm Hg, as some other societies have done, but
    # judged that doing so would label a large share of the population without clear benefit")
    r"|\b(?:considered|discussed|debated|weighed) (?:lowering|raising|changing|adopting|moving|extending|shortening"
    r"|lengthening|tightening|relaxing)\b[^.;]*\bbut (?:judged|decided|concluded|found|felt)\b"
    # what others do: "Some countries now start bowel screening at 45, and our advisory board is reviewing the
    # evidence" (not "Some countries start at 45; we recommend starting at 50", the document's own stance beside it)
    r"|^\W*(?:some|other|many|several|a few|a number of) (?:other )?(?:countries|nations|programmes|programs"
    r"|organi[sz]ations|societies|health systems|jurisdictions|regions)\b"
    r"(?![^.]*\bwe (?:now |still |also )?(?:recommend|advise|suggest|offer|invite|send)\b)"
    # a tool for deciding, not a stance: "Coronary artery calcium scoring may help to refine decisions for those whose
    # risk is borderline"
    r"|\b(?:may|can|might|could) help (?:to )?(?:refine|inform|guide)\b[^.;]{0,20}\bdecisions?\b",
    re.I,
)
# a finding ("observational data suggest that X is associated with Y") is not advice, unless the sentence also
# advises ("because trials show benefit, the USPSTF recommends ...")
# (what a finding says of a value in a relative clause is the value's reason: "has been lowered from 120 to 80 µg Hb/g,
# which modelling suggested would find about 14% more cancers")
_FINDING = re.compile(
    r"(?<!\bwhich )\b(?:data|studies|trials|evidence|analyses|findings|results|modell?ing)(?: that)? (?:suggest|show"
    r"|indicate"
    r"|demonstrate)\w*\b"
    # "In the pivotal trial, about 1 in 4 men referred on the MRI-first pathway avoided a biopsy"
    # ("In the panel's modelling, starting at 25 instead of 21 avoided about 40 colposcopies per 1,000 people")
    r"|^\W*in (?:the|a|an|one|two|three|several|our) (?:[\w'’-]+ ){0,3}(?:trials?|stud(?:y|ies)|meta-analys[ie]s|pilot"
    r"|modell?ing|models?|analys[ie]s|cohorts?)\b,"
    r"|\b(?:is|are|was|were) associated with\b"
    # a decision aid's outcomes per thousand: "Out of 1,000 men your age who have regular PSA tests over ten years,
    # about one will avoid dying of prostate cancer", "If 1,000 women are screened every year ..."
    # (and a decision aid's step that has them explained: "Step 1: explain that, out of 1,000 men screened for about
    # 13 years, roughly one death from prostate cancer is avoided")
    r"|^\W*(?:step \w+\W{1,3})?(?:explain that,?\s+)?(?:out of|of|for every|if|among) (?:every )?\d[\d,]* "
    r"(?:men|women|people|adults|persons|patients)\b"
    # ... and a share: "About one in four people who come to a check are offered a scan"
    r"|^\W*(?:about |around |roughly |nearly |almost )?(?:\d+|one|two|three|four|five) in (?:\d+|two|three|four|five"
    r"|six|seven|eight|nine|ten|\w+ hundred) (?:men|women|people|adults|persons|patients|participants)\b",
    re.I,
)
# (a decision aid's "..., so whether to take it is a personal choice that you and your doctor make together")
_ADVICE = re.compile(r"\brecommend\w*|\bshould\b|\bmust\b|\badvis\w*|\b[Gg]rade [A-DI]\b|\bclass I"
                     r"|\b(?:is|are) (?:a |your |their )?(?:personal |own )?(?:choice|decision)\b", re.I)


# a change narrative that states the recommendation now in force ("lowered the starting age ..., now recommending
# it for adults 45 to 49") is a recommendation
# (a change note's "lowered the diagnostic threshold, so that ... 130/80 mm Hg or higher ... now defines hypertension")
# ("Eligibility no longer depends on how long ago a former smoker quit; people who stopped smoking any number of years
# ago remain eligible": who is eligible now)
# ("the relaxed target ... used in the 2019 edition has been replaced by a target range of 58 to 64 mmol/mol")
_NOW = re.compile(rf"\bnow (?:recommend|advis|suggest|define|replace)\w*|\bno longer depends? on\b|{REPLACED_BY_NEW}"
                  r"|\b(?:is|are) no longer an? (?:exclusion|criterion|barrier|requirement)\b"
                  # ("The Association no longer sets a fixed LDL cholesterol goal; instead, the aim of treatment is a
                  # reduction in LDL cholesterol of 30% to 49% from baseline")
                  r"|\bno longer (?:sets?|uses?|recommends?) an? (?:[\w-]+ ){0,4}(?:goal|target)s?\s*[;,]\s*instead\b",
                  re.I)
# "If a serious illness limits how long you are expected to live, screening is no longer recommended for you": a
# sentence that opens with its condition says what holds for those people now
_CONDITION_FIRST = re.compile(r"\W*(?:if|once|when|after)\b", re.I)


# an edition's list of changes ("What is new in this edition: the treatment threshold has been raised to a 10-year
# risk of 10%, a band in which a statin is reasonable has been added below it, and the advice for adults over 75 has
# been revised"): its items name what has been changed, and its words of advice belong to no one item ("reasonable" is
# the new band's, "over 75" another item's), so it states a recommendation only as what is now advised or as a value
# moved ("from 50 to 45", "at forty-five instead of fifty", "lowered to 6.5%")
_CHANGE_LIST = re.compile(r"^\W*(?:what(?:'s|’s| is) new|what has changed|what changed)\b[^:.]{0,60}:", re.I)
_CHANGED = re.compile(r"\b(?:has|have) been (?:\w+ )?(?:raised|lowered|added|revised|changed|extended|shortened"
                      r"|lengthened|relaxed|tightened|removed|dropped|downgraded|upgraded|updated)\b", re.I)
_MOVED_FROM_TO = re.compile(r"\bfrom (?:age )?\d[\d.,/%]*(?: \w+)? to (?:age )?\d|\b(?:instead of|rather than)\b"
                            # "the interval has been lengthened from yearly to every two years"
                            r"|\b(?:lengthened|shortened|extended|changed|moved|raised|lowered) from [^.;,]{1,40}\bto\b"
                            r"|\b(?:lowered|raised|reduced|increased|moved|changed|tightened|relaxed) to "
                            r"(?:an? |the )?(?:[\w-]+ ){0,3}?(?:of )?(?:below |under )?\d", re.I)


# where one item of a change list ends and the next begins: "...; ...", "..., and ...", "..., the ..."
_NEXT_ITEM = re.compile(r";\s*(?:and\s+)?|,\s*(?:and\s+)?(?=(?:the|a|an|its|their|our|this|these)\b)", re.I)
_ITEM_VERB = re.compile(r"\b(?:has|have|is|are|was|were) (?:now |\w+ )?been\b|\bnow\b|\b(?:is|are) no longer\b", re.I)


# whom a recommendation applies to, by an eligibility criterion, is who is eligible: "This recommendation applies to
# people who currently smoke and to those who formerly smoked, irrespective of how many years ago they quit" (not
# "These recommendations do not apply to individuals with a history of high-grade lesions", its scope)
_APPLIES_TO_CRITERIA = re.compile(rf"{APPLIES_TO}(?=[^.;]*\b(?:smok\w*|quit\w*|pack-years)\b)", re.I)


# what an edition dropped, beside what it now advises: "a goal of less than 8% is appropriate, and the earlier allowance
# of up to 8.5% has been withdrawn (grade B)" (the first part is the advice; the dropped value is none)
_WITHDRAWN_BESIDE = re.compile(r",?\s+and (?:the|its|our|their) (?:earlier|previous|former|old|prior) "
                               r"(?:[^.;()]|\.\d)*?\b(?:has|have) (?:now )?been (?:withdrawn|rescinded|retired|revoked"
                               r"|dropped|removed)\b", re.I)


def without_withdrawn(text: str) -> str:
    """``text`` without a part that says what an earlier edition allowed has been withdrawn, where another part
    states what holds now."""
    m = _WITHDRAWN_BESIDE.search(text)
    return text[:m.start()] + text[m.end():] if m and m.start() > 0 else text


def is_change_list(text: str) -> bool:
    """Whether ``text`` opens an edition's list of changes ("What's new in this edition: ...")."""
    return bool(_CHANGE_LIST.match(text))


def changed_items(text: str) -> list[str] | None:
    """The items of an edition's list of changes that state what holds now (a value moved, or what is now advised),
    each as a sentence of its own, where some item only names a change; None when ``text`` is no such list or no item
    only names a change (the list is read as one sentence). "What's new: the diagnostic threshold has been lowered
    to 130/80 mm Hg, and the goal of below 150/90 mm Hg for older adults has been withdrawn" states the new threshold;
    the withdrawn goal is no advice."""
    if not (m := _CHANGE_LIST.match(text)):
        return None
    items: list[str] = []
    for part in _NEXT_ITEM.split(text[m.end():]):
        if items and not _ITEM_VERB.search(part):
            items[-1] += ", " + part  # no verb of its own: the same item goes on ("..., a band ... below it")
        else:
            items.append(part)
    holds = [bool(_NOW.search(i) or _MOVED_FROM_TO.search(i)) for i in items]
    if not any(not h and (_CHANGED.search(i) or _NOT_A_RECOMMENDATION.search(i)) for i, h in zip(items, holds)):
        return None
    return [i.strip().rstrip(".") + "." for i, h in zip(items, holds) if h]


def is_recommendation_text(text: str) -> bool:
    """False for change narratives (unless they state what is now recommended), definitions of grades, scope and
    publication statements, and findings."""
    if (m := _NOT_A_RECOMMENDATION.search(text)) and not _NOW.search(text) and not (
        m.group(0).lower() == "no longer" and _CONDITION_FIRST.match(text)
    ) and not (m.group(0).lower().startswith("appl") and _APPLIES_TO_CRITERIA.search(text)):
        return False
    if _CHANGE_LIST.match(text) and _CHANGED.search(text) and not (_NOW.search(text) or _MOVED_FROM_TO.search(text)):
        return False
    return not (_FINDING.search(text) and not _ADVICE.search(text))


# no age at which to stop: "screening should not stop at a set age", "there is no fixed age to stop", "with no fixed
# upper age limit"
_NOT_STOP = re.compile(r"\b(?:should|must|need) not (?:stop|end|cease)\b", re.I)
# "the number of years since a former smoker quit should not be used to exclude them from screening", "... should not
# be used as an eligibility criterion to begin or to stop screening", "should no longer be used to exclude": who stays
# in
_NOT_EXCLUDED = re.compile(r"\b(?:should|must)(?: also| therefore| still)? (?:not|no longer) be used (?:to (?:exclude"
                           r"|disqualify)|as an? (?:eligibility |exclusion )?criterion)\b"
                           # "Step 3: Do not exclude former smokers because of how long ago they quit"
                           r"|\b(?:do not|don't|should not|must not) exclude\b"
                           # "Pack-year cut-offs are not used on their own": who is eligible
                           r"|\b(?:cut-?offs?|thresholds?|criteria) (?:are|is) not used\b", re.I)
# a test that is not to be done without a conversation first: "should not be ordered without this conversation"
_NOT_WITHOUT_TALK = re.compile(r"\b(?:should|must) not be (?:ordered|offered|done|performed|requested|arranged"
                               r"|carried out)\b[^.;]{0,30}\bwithout (?:this|that|such an?|an?|the|first having an?"
                               r"|prior|an informed) (?:[\w-]+ )?(?:conversation|discussion|shared decision)\b", re.I)
# an insurer's frequency limit, how often a covered test is covered: "a second screening study within 12 months of the
# last is considered not medically necessary"
_FREQUENCY_LIMIT = re.compile(r"\b(?:a second|another|an additional|a repeat|more than one)\b[^.;]{0,50}\bwithin "
                              r"(?:\w+ ){1,2}(?:months?|years?)\b[^.;]{0,40}\bnot (?:medically necessary|covered)\b"
                              # ("Screening studies performed more often than the stated frequency are not covered")
                              # (not "Scans for members aged 78 or older, or performed more often than the stated
                              # frequency, are not covered", which also excludes ages)
                              r"|^\W*(?:[\w-]+ ){0,3}performed more (?:often|frequently) than (?:the )?(?:stated"
                              r"|covered|allowed|permitted) (?:frequency|interval)\b[^.;]{0,20}\bnot (?:medically "
                              r"necessary|covered)\b", re.I)
CONTINUES = re.compile(rf"{_NOT_STOP.pattern}|\bno (?:(?:fixed|set|upper) ){{1,2}}(?:age|limit)\b"
                       r"|\bcontinue\w* (?:\w+ ){0,3}(?:as long as|for as long as)\b"
                       r"|\bkeep (?:going|having|getting|being screened|screening)\b[^.;]{0,30}\bas long as\b", re.I)


def _cue(name: str) -> str:
    """The first lexical cue pattern of an action."""
    return next(pattern for action_name, pattern in ACTION_CUES if action_name == name)


def unbracketed(text: str) -> str:
    """The text without its parentheticals (one left open at the end, as a verb's subtree can end, included)."""
    return re.sub(r"\([^()]*(?:\)|$)", " ", text)


# permission to stop: a grade or class for it grades the statement that screening can end, which is no
# recommendation to screen ("Screening can stop after age 65 for those with adequate negative prior screening
# (Grade A)")
_MAY_STOP = re.compile(MAY_STOP_CUE, re.I)


# a favourable grade on a statement against ("PSA screening is not recommended for men aged 70 or over (Grade A)"):
# the grade rates the advice against, as a class III would
_GRADED_AGAINST = re.compile(r"\bnot recommended\b|\brecommends? against\b", re.I)

# ("starting a statin may be considered after shared decision-making that weighs life expectancy (Class IIb)", "In
# adults older than 75, initiating a statin may be considered after weighing life expectancy, frailty and the
# patient's wishes (Class IIb)", "initiating a statin may be reasonable after discussing potential benefit, adverse
# effects, drug interactions and competing risks (class IIb)")
_AFTER_DISCUSSION = re.compile(r"\bafter (?:a |an )?(?:clinician[–-]patient |shared )?(?:risk )?(?:discussion"
                               r"|conversation|decision[- ]making)\b"
                               r"|\bafter (?:carefully |careful(?:ly)? )?(?:weighing|discussing)\b", re.I)


# what an organization does not offer to everyone, before what it does for some: "PSA testing should not be offered as
# population screening, but that well-informed men aged 50 to 74 ... who request it ... should be tested" (the stance
# is the second part's)
_NOT_AS_POPULATION = re.compile(r"\b(?:should|will|must) not be (?:offered|provided|introduced|used) as (?:a )?"
                                r"(?:population|organi[sz]ed|national|mass) (?:screening|programme|program)\b[^.;]*?,?"
                                r"\s+but (?:that )?", re.I)


def action(text: str) -> str | None:
    """The action a clause states: a grade or class decides when present (a favourable one graded on permission to
    stop is that permission: "discourage"), otherwise the first lexical cue. A bare letter ("(B)") decides only
    when no word does: ADA writes its levels of evidence the same way ("is reasonable (A)"), and so does a grade
    paired with a level of evidence or a consensus ("[Grade D, consensus]", "[Grade B, Level 2]"), which grades the
    evidence, not the advice. A reason given for the advice (:func:`~clinrag.tools.frames.set_aside.without_reason`:
    "..., which modelling suggested would find more cancers") states no action."""
    text = without_reason(_NOT_AS_POPULATION.sub("", text))
    grade = _GRADE.search(text)
    bare = grade is not None and (re.fullmatch(r"\([A-Z]\)", grade.group(0)) is not None or re.match(
        r"\s*[,;]\s*(?:level|consensus|LoE|evidence)\b", text[grade.end():], re.I) is not None)
    if grade and not bare:
        by_grade = _GRADE_ACTION[_grade_letter(grade)]
        if by_grade in RECOMMEND_LIKE and _GRADED_AGAINST.search(unbracketed(text)):
            return "recommend_against"
        return "discourage" if by_grade in RECOMMEND_LIKE and _MAY_STOP.search(unbracketed(text)) else by_grade
    if m := _CLASS.search(text):
        by_class = _CLASS_ACTION[_class_of(m)]
        if by_class in RECOMMEND_LIKE and _MAY_STOP.search(unbracketed(text)):
            return "discourage"
        # a class that the text itself calls an individual decision ("whether to initiate a statin should be an
        # individualized decision (Class IIb)", "clinicians should engage in shared decision-making about PSA
        # screening (Class I)": the class rates the advice to decide together) is that decision
        # ("it may be reasonable to initiate a statin after a clinician-patient discussion (Class IIb)")
        # (not a class I "is recommended after a clinician-patient risk discussion": the discussion is how)
        if by_class in RECOMMEND_LIKE and (re.search(_cue("individual_decision"), unbracketed(text), re.I)
                                           or (_AFTER_DISCUSSION.search(text) and by_class != "recommend")):
            return "individual_decision"
        return by_class
    # double negatives: "screening should not stop at a set age", "there is no upper age limit at which screening
    # should stop: screening should continue as long as ...", "should not be used to exclude them"
    # (or a sentence that states only that: "There is no upper age limit on this benefit.")
    stop_named = re.search(
        r"\b(?:should|must) (?:stop|end|cease)\b|^\W*there is no (?:fixed |set )?upper (?:age )?limit\b", text, re.I)
    # "testing is the man's choice and should not be ordered without this conversation": a decision made together
    if _NOT_WITHOUT_TALK.search(text):
        return "individual_decision"
    if _NOT_STOP.search(text) or _NOT_EXCLUDED.search(text) or (CONTINUES.search(text) and stop_named) or (
            _FREQUENCY_LIMIT.search(text)):
        return "recommend"
    for name, pattern in ACTION_CUES:
        if re.search(pattern, text, re.I if name != "recommend" else re.I | re.M):
            return name
    if m := _WORD.search(text):  # "X is a qualified recommendation": the strength word is the only cue
        if "against" in m.group(0).lower():
            return "recommend_against"
        word = (m.group(1) or m.group(2) or m.group(3)).lower()
        return "recommend" if word in ("strong", "qualified") else "suggest_or_consider"
    return _GRADE_ACTION[_grade_letter(grade)] if bare else None
