"""Who a statement is for, beyond age and sex: eligibility criteria (pack-years, years since quitting,
life expectancy, risk factors), compared across documents as the "eligibility" facet, and subgroup
conditions (dense breasts, hysterectomy, frailty ...), which make a population of their own: conflicts
only compare frames whose condition sets are equal. Each table is a tuple of ``(label, regex)`` pairs,
matched case-insensitively; :func:`criteria` and :func:`conditions` apply them."""

from __future__ import annotations

import re

from clinrag.tools.frames.numbers import NUMBER, number, tens_as_digits

# a relative named with the disease, whose age at diagnosis the criteria below read
_RELATIVE = r"\b(?:(?:first-degree|close|blood) )?(?:relatives?|father|brother|mother|sister|parent|sibling)\b"

# Eligibility criteria: qualifiers on who is eligible, compared across documents as the "eligibility" facet.
# A label with "{}" takes the first captured number. "key op value" / "key: value" lets conflicts compare keys.
CRITERIA: tuple[tuple[str, str], ...] = (
    ("pack-years >= {}", r"\b(\d+)[- ]pack[- ]years?|\b(\d+) or more pack[- ]years?"
     # a pathway's step: "Calculate pack-years (...) and proceed only if the total is at least 20"
     r"|\bpack[- ]years?\b[^.;]{0,80}?\bonly if (?:the total|it|the number|the count) is at least (\d+)\b"),
    # a programme that selects by a risk model instead: "Pack-year cut-offs are not used on their own"
    ("pack-years: any", r"\bpack[- ]years? (?:cut-?offs?|thresholds?|criteria|limits?) (?:are|is) not used\b"
     r"|\bno (?:minimum )?pack[- ]years? (?:threshold|cut-?off|requirement|minimum)\b"),
    (
        "years since quitting <= {}",
        # "quit within the past 15 years", "current smoking or cessation within the past 15 years"
        r"\b(?:quit|stopped|gave up|given up|cessation)(?: smoking)? (?:within|no more than|in) (?:the )?"
        r"(?:past |last |previous )?(\d+) years"
        # a leaflet's "you still smoke or stopped less than 15 years ago"
        r"|\b(?:quit|stopped|gave up)(?: smoking)? (?:less|fewer) than (\d+) years ago\b",
    ),
    # stop once someone "has not smoked for more than 15 years" / "has gone 15 years without smoking"
    ("years since quitting > {}",
     r"\bnot smoked (?:for )?more than (\d+) years|\bquit (?:smoking )?more than (\d+) years"),
    ("years since quitting >= {}", r"\b(?:gone|been|spent) (\d+) (?:or more )?years without smoking"),
    ("years since quitting: any",
     r"\b(?:no matter|(?:it )?(?:does not|doesn't) matter|(?:it )?no longer matters) how long ago"
     r"|\bwhatever the time since\b"
     # "the time since quitting no longer affects eligibility"
     r"|\b(?:time|years|number of years) since (?:quitting|stopping)(?: smoking)? (?:no longer|does not|doesn't) "
     r"(?:affects?|determines?|limits?|restricts?) (?:eligibility|who is eligible|who qualifies)\b"
     r"|\bhowever long ago\b"
     # "Eligibility no longer depends on how long ago a former smoker quit; people who stopped smoking any number of
     # years ago remain eligible"
     r"|\bno longer depends? on how long ago\b|\b(?:quit|stopped|gave up)(?: smoking)? any number of years ago\b"
     # "whether you still smoke or quit many years ago" (not "or quit within the past 15 years")
     r"|\bwhether (?:you|they|he|she) (?:still |currently )?smokes? or (?:have |has )?(?:quit|stopped|gave up)\b"
     r"(?! (?:smoking )?(?:within|in the))"
     r"|\b(?:time|years) since quitting (?:is|are) (?:not|no longer) an? (?:eligibility )?(?:exclusion|criterion"
     r"|barrier)\b"
     # "whether they still smoke or quit at any time in the past"
     r"|\bquit (?:smoking )?at any time\b"
     # a measure's denominator: "... whether they currently smoke or formerly smoked, with no limit on years since
     # quitting"
     r"|\bno (?:limit|cap|restriction|cut-?off) on (?:the )?(?:number of )?(?:years|time) since (?:quitting|stopping)\b"
     r"|\b(?:years|time) since (?:\w+ ){0,4}(?:quit|quitting|stopped|stopping)\b[^.;]{0,20}\b(?:not|no longer) be used"
     # "... should not be used as an eligibility criterion to begin or to stop screening", "Time since quitting should
     # no longer be used to exclude people from screening"
     r" (?:to exclude|as an? (?:eligibility |exclusion )?criterion)"
     # "Step 3: Do not exclude former smokers because of how long ago they quit"
     r"|\b(?:do not|don't|should not|must not) exclude (?:\w+ ){0,3}because of how long ago\b"
     r"|\b(?:regardless|irrespective) of (?:the )?(?:how long|how many years|time since"
     r"|(?:number of )?years since|when (?:\w+ ){1,2}(?:quit|stopped|gave up))"),
    (
        "smoking status: current or former",
        r"\bcurrently smoke|\bcurrent smok|\bformerly smoked|\bformer smok|\bstill smoke",
    ),
    ("life expectancy <= {} years", rf"\blife expectancy (?:is|of) ({NUMBER}) years or (?:less|fewer)"),
    ("life expectancy > {} years", rf"\blife expectancy of more than ({NUMBER}) years"),
    # (the number of a limited life expectancy: "a life expectancy of less than 5 years")
    ("life expectancy < {} years", rf"\blife expectancy (?:of |is )?(?:less than|under|below|shorter than) ({NUMBER}) "
                                   r"years"),
    (
        "life expectancy >= {} years",
        rf"\b(?:life expectancy|expected survival) (?:is |of )?(?:at least )?({NUMBER}) years or (?:longer|more)|"
        rf"\blife expectancy (?:of|is) at least ({NUMBER}) years"
        rf"|\blive at least (?:another )?({NUMBER}) (?:more )?years",
    ),
    ("one or more CVD risk factors", r"\bone or more (?:cardiovascular )?risk factors"),
    ("not at increased bleeding risk",
     r"\bnot at (?:increased|higher|high) (?:bleeding risk|risk (?:of|for) bleeding)"
     # ("whose bleeding risk is not raised")
     r"|\bbleeding risk is not (?:raised|increased|high|elevated)\b"),
    ("high cardiovascular risk", r"\b(?:high|higher|elevated) cardiovascular risk"),
    ("good overall health", r"\boverall health is good|\bin good (?:overall )?health"),
    ("no significant hypoglycemia", r"\bwithout significant hypoglycemia"),
    (
        "Black ancestry",
        r"\bBlack (?:men|ancestry|people|individuals)|\b(?:are|is) Black\b|\bAfrican (?:descent|ancestry)"
        # "of Black African or Caribbean ancestry"
        r"|\bBlack (?:African|Caribbean)(?: or (?:Black )?(?:African|Caribbean))? (?:ancestry|descent|family|origin)",
    ),
    # "carriers of a pathogenic BRCA2 variant"
    # (and "carriers of a BRCA1 or BRCA2 pathogenic variant")
    ("germline mutation", r"\bgermline mutations?|\b(?:pathogenic )?BRCA[12]?(?: or BRCA[12])? (?:pathogenic )?"
                          r"(?:variant|mutation)s?\b"),
    # how young a relative was at diagnosis: "a first-degree relative diagnosed with colorectal cancer before age 60",
    # "... or an advanced adenoma at any age"
    ("relative's age at diagnosis < {}",
     rf"{_RELATIVE}[^.;]{{0,60}}?"
     r"\bdiagnosed\b[^.;]{0,50}?"
     rf"\b(?:before|under|younger than) (?:the )?(?:age (?:of )?)?({NUMBER})\b"),
    # ("a first-degree relative with colorectal cancer or an advanced adenoma, at any age of diagnosis")
    ("relative's age at diagnosis: any",
     rf"{_RELATIVE}[^.;]{{0,60}}?"
     r"(?:\bdiagnosed\b[^.;]{0,60}?\bat any age\b|\b(?:at any age|whatever (?:their|the) age) (?:of|at) diagnosis\b)"),
    (
        "family history",
        r"\bfamily history|\bfather or brother|\bfirst-degree relatives?|\bwhose (?:father|brother|son)\b"
        # "members who have a father, brother or son with prostate cancer"
        r"|\b(?:father|brother|son),? (?:(?:father|brother|son),? )?or (?:father|brother|son)\b"
        # "If a close relative had breast cancer at a young age", "your mother or sister had breast cancer"
        r"|\b(?:a )?(?:close|near|blood) relatives? (?:had|has|have|with|was diagnosed)\b"
        r"|\b(?:mother|sister|daughter),? (?:(?:mother|sister|daughter),? )?or (?:mother|sister|daughter)\b",
    ),
)

# Subgroup conditions: a frame with a condition is about a different population than one without it, so
# conflicts only compare frames whose condition sets are equal.
CONDITIONS: tuple[tuple[str, str], ...] = (
    ("dense breasts", r"\bdense breasts?"),
    ("negative mammogram", r"\bnegative (?:screening )?mammogram"),
    ("hysterectomy", r"\bhysterectomy"),
    # whether to go on, not whether to start: "People already taking aspirin for primary prevention should review
    # continuation with their clinician"
    # (not "if you are 60 or older and not already taking aspirin")
    # ("Adults who already take aspirin for primary prevention should not stop it abruptly")
    ("already taking it", r"(?<!not )(?<!aren't )(?<!are not )(?<!do not )(?<!don't )\b(?:already|currently) "
     r"(?:taking|on|using|takes?|uses?)\b"),
    # "women living with HIV should be screened ... every 3 years from the age of 25", "if you have a weakened immune
    # system"
    ("immunocompromised", r"\bliving with HIV\b|\bHIV[- ](?:positive|infection)\b"
     r"|\bimmuno-?(?:compromised|suppress\w*)\b|\b(?:weakened|weak|compromised) immune system\b|\borgan transplant\b"),
    ("inadequate prior screening", r"\bnot had adequate prior screening|\binadequate prior screening"
     # "covered only when ... the member ... has not been adequately screened before"
     r"|\b(?:has|have) not (?:been|had been) adequately screened\b"
     # "If you are 65 or over, you will be invited again only if one of your last three tests was abnormal", "After
     # your 65th birthday we will only invite you again if one of your last three tests was abnormal"
     r"|\bonly (?:(?:invite|recall|screen|test) (?:you|them|her|him) (?:again )?)?if (?:one of )?"
     r"(?:your|their|her|his|the|a) (?:last|recent|previous|most recent)(?: \w+)? (?:tests?|results?|screens?) "
     # ("If you are 65 or over, we will only invite you if one of your last three tests found something unusual")
     r"(?:(?:was|were|is|are|has been|have been) (?:abnormal|positive)|(?:found|showed|detected) (?:something|anything)"
     r" (?:unusual|abnormal))\b"),
    (
        "adequate prior screening",
        r"(?<!not had )\badequate (?:(?:prior|previous|negative) ){0,2}screening"
        r"|\bprior screening (?:was|is|has been|had been) adequate"
        # "persons who are up to date with screening and have had consistently negative prior tests"
        r"|\bconsistently negative (?:prior |previous )?(?:tests|screening|results)\b"
        # ("screening ends at 65 for people with adequately negative recent results")
        r"|\badequately negative (?:recent |prior |previous )?(?:tests|screening|results)\b"
        # a letter's "we do not recommend further screening if your recent results were normal"
        r"|\b(?:recent|previous|past|last|earlier) (?:\w+ )?(?:results|tests) (?:were|have been|are) (?:all )?"
        r"(?:normal|negative|clear)\b",
    ),
    ("history of stroke or TIA", r"\bhistory of stroke|\btransient ischemic attack"),
    # secondary prevention: "patients who take aspirin after a heart attack, stent or stroke"
    ("established cardiovascular disease",
     r"\bafter (?:a |an )?(?:heart attack|myocardial infarction|stent|ischa?emic stroke)"
     # (not "adults aged 40 to 84 who do not have established cardiovascular disease")
     r"|(?<!without )(?<!no )(?<!not have )(?<!n't have )\b(?:established|known) "
     r"(?:cardiovascular disease|CVD|ASCVD)\b"),
    (
        "limited life expectancy",
        r"\blimited life expectancy|\blimits? (?:\w+ )?life expectancy"
        r"|\blife expectancy (?:of )?(?:less than|under|below) (?:\d+|one|two|three|four|five|ten)\b"
        r"|\blimits? how long (?:\w+ ){1,2}expected to live"
        # "If you have other serious health problems and are not expected to live for more than 10 to 15 years"
        r"|\bnot expected to live (?:for )?(?:more than|longer than|beyond|over) (?:\d+|one|two|three|four|five|ten)\b",
    ),
    ("nursing home residents", r"\bnursing home"),
    # a looser glycemic goal "for older adults with multiple coexisting chronic illnesses, cognitive impairment or
    # functional dependence"
    ("multiple chronic illnesses",
     r"\b(?:multiple|several|many) (?:other )?(?:coexisting |co-existing )?(?:chronic|long-term) "
     r"(?:illnesses|conditions|diseases)\b"
     r"|\bfunctional dependence\b|\bmultimorbidity\b"),
    # looser or tighter glycemic goals for subgroups: "if you are frail ... or have had dangerous hypos", "people who
    # manage their diabetes with diet alone" (not "a decision that weighs frailty", "without severe hypoglycemia")
    ("frailty",
     r"\b(?:with|are|is|in) (?:marked |severe |moderate )?frailty\b|\b(?:are|is) (?:older and |elderly and )?frail\b"
     # ("For older adults with multiple chronic illnesses, frailty or cognitive impairment")
     r"|\b(?:illnesses|conditions|diseases), frailty\b"
     # ("frail or housebound adults")
     r"|\bfrail (?:(?:or|and) [\w-]+ )?(?:older )?(?:people|persons|adults|patients)"),
    # (and a leaflet's "if you ... often have low blood sugar")
    ("severe hypoglycemia",
     r"(?<!without )(?<!frequent or )\b(?:severe|dangerous|serious) (?:hypo(?:glyc(?:a)?emia|s)\b"
     r"|low blood (?:sugar|glucose)\b)|\b(?:episodes|bouts) of very low blood (?:sugar|glucose)\b"
     # a leaflet's "if you have had severe lows"
     r"|\b(?:had|have|get) (?:severe|serious|dangerous|very bad) lows\b"
     r"|\b(?:often|frequently|repeatedly) (?:have|get|had) (?:low blood (?:sugar|glucose)|hypos)\b"
     # ("if low blood sugar (hypos) is a problem for you")
     r"|\b(?:low blood (?:sugar|glucose)(?: \(hypos\))?|hypos) (?:is|are) a problem\b"),
    ("diabetes managed by diet alone",
     # (not a first treatment step: "should start with lifestyle measures alone"; nor diet beside one drug, "managed
     # with diet and exercise alone, or with metformin alone", the people the usual goal is for)
     r"(?<!start with )(?<!begin with )\b(?:diet|lifestyle)(?: and exercise| measures| changes| modification)? alone\b"
     r"(?!,? or (?:with )?(?:lifestyle plus |diet plus )?(?:metformin|a single (?:drug|medicine|agent))\b)"
     r"|\bdiet-only\b"),
    # a tighter goal "in selected younger patients with short disease duration treated with lifestyle or metformin"
    # ("if you are young and newly diagnosed"; not "newly diagnosed hypertension", another condition's onset)
    ("short diabetes duration", r"\bshort (?:disease |diabetes )?duration\b"
     r"|\b(?:young|younger)(?: adults?| people| patients)? (?:and|who are) newly diagnosed\b"
     r"|\bnewly diagnosed (?:with )?(?:type 2 )?diabetes\b"
     # "In carefully selected patients, such as those early in the disease who are treated with lifestyle or metformin"
     r"|\b(?:early|earlier) in (?:the|their) (?:disease|diabetes|illness)\b"),
    # (and what makes it: "if you have had a stomach ulcer or a serious bleed, or if you take another blood thinner")
    ("increased bleeding risk", r"(?<!not )\bat (?:increased|higher|high) (?:bleeding risk|risk (?:of|for) bleeding)"
     # ("People with a raised bleeding risk should not receive aspirin")
     r"|\bwith an? (?:raised|increased|high|higher|elevated) (?:bleeding risk|risk (?:of|for) bleeding)\b"
     r"|\b(?:had|history of) (?:a )?(?:stomach|peptic|gastric|duodenal) ulcer|\bhad (?:a )?(?:serious|major) bleed"
     r"|\b(?:take|taking|on) (?:another|an?) (?:blood thinner|anticoagulant)"),
    # "those treated for CIN2 or worse should continue for at least 25 years after treatment, even beyond 65" (not
    # "no history of CIN2+", who may stop)
    # ("People treated for a high-grade precancerous lesion should continue surveillance for at least 25 years")
    ("treated for CIN2+", r"(?<!no )\b(?:treated for|history of) CIN ?2\b"
                          r"|\btreated for (?:an? )?high-grade (?:\w+ )?(?:lesions?|abnormalit(?:y|ies)|dysplasia)\b"),
    ("not smoked for {} years", r"\bnot smoked for (\d+) years"),
    ("harms outweigh benefits", r"\bharms outweigh the benefits"),
    # "people who have never smoked should not be screened on the basis of second-hand smoke exposure alone"
    ("never smoked", r"\b(?:have|has) never smoked\b|\bnever[- ]smokers?\b|\blifelong non-?smokers?\b"),
    # a catch-up offer: "women over 60 who have never been screened should be offered a single HPV test"
    ("never screened", r"\b(?:have|has) never been screened\b|\bnever[- ]screened\b|\bunscreened\b"),
)


# what a criterion or condition is named after when its absence (or an exception, "unless", or that it is included
# among everyone, "including those who") is stated: "patients aged 50 to 70 with ... no first-degree relative with
# colorectal cancer", "without a family history", "has no history of CIN2+ or hysterectomy", "are not immunosuppressed"
_NOT_A_GROUP_BEFORE = re.compile(
    r"\b(?:no|without)(?: (?:personal |prior |known )?(?:history|record) of)?(?: an?| any| known)?"
    r"(?:(?: [\w+-]+){1,3},?(?: or| nor)(?: [\w+-]+)?)? $"
    # "people ... who have no symptoms and are not immunosuppressed"
    r"|\b(?:is|are|was|were) not $"
    # an exception: "we suggest against starting a statin ... in adults older than 75 years, unless they are already
    # taking one" is about those who are not
    r"|\bunless\b[^,.;]{0,30}$"
    # ... or named as included among everyone: "do not offer screening to patients older than 75, including those who
    # have never been screened"
    r"|\bincluding (?:those|people|patients|adults|persons|members|women|men|anyone) who $", re.I)


def _labels(table: tuple[tuple[str, str], ...], text: str) -> list[str]:
    """The labels of a table (:data:`CRITERIA`, :data:`CONDITIONS`) that ``text`` names, in table order, unless named
    only as absent or as included among everyone (:data:`_NOT_A_GROUP_BEFORE`); a label with "{}" takes the first
    captured number (in digits)."""
    out = []
    text = tens_as_digits(text)
    for label, pattern in table:
        m = next((m for m in re.finditer(pattern, text, re.I)
                  if not _NOT_A_GROUP_BEFORE.search(text[: m.start()])), None)
        if m:
            num = next((g for g in m.groups() if g), None) if m.groups() else None
            out.append(label.format(number(num)) if "{}" in label else label)
    return list(dict.fromkeys(out))


def criteria(text: str) -> list[str]:
    """The eligibility criteria ``text`` names (:data:`CRITERIA`), in table order. Where the text says the time since
    quitting does not matter, the quitters it names are an example, not a criterion ("It does not matter how long ago
    you stopped smoking: people who quit more than 15 years ago can still choose to be screened")."""
    # the risk factors a list in brackets names are examples of one criterion: "at least one risk factor (dyslipidaemia,
    # diabetes, hypertension or current smoking)" is no smoking status
    found = _labels(CRITERIA, re.sub(r"(\brisk factors?\s*)\([^()]*\)", r"\1", text, flags=re.I))
    if "years since quitting: any" in found:
        found = [c for c in found if not c.startswith("years since quitting ")]
    return found


# Conditions that make a population of their own for one intervention only: aspirin for primary prevention is weighed
# apart for adults with diabetes ("may be considered in adults with diabetes aged 50 to 69" beside a general "not
# recommended"), while for a glycemic target diabetes is everyone the guidance is about.
# A blood-pressure goal or threshold for people with chronic kidney disease is theirs alone ("In adults with chronic
# kidney disease and albuminuria, a target below 130/80 mm Hg may be considered"; not "for adults with hypertension,
# including those with chronic kidney disease", where they are part of everyone).
_CKD = ("chronic kidney disease", r"(?<!including )(?<!including those )(?<!including people )(?<!including adults )"
        r"\b(?:in|for|among) (?:adults |people |patients |persons |those )?with (?:chronic kidney disease|CKD)\b")
CONDITIONS_FOR: dict[str, tuple[tuple[str, str], ...]] = {
    # a goal for the readings of a glucose monitor is for the people who use one ("For adults using continuous glucose
    # monitoring, ... more than 70% of readings between 70 and 180 mg/dL")
    # what to do after a positive or abnormal result is a follow-up of those people, not the screening schedule ("A
    # person whose sample is HPV-positive with normal triage cytology should be retested after 12 months")
    "cervical cancer screening": (("positive result", r"\b(?:whose|with an?|if (?:the|your|their|a|an)) (?:[\w-]+ )?"
                                   r"(?:sample|test|result|screen) (?:is|was|comes back|shows) (?:HPV-)?(?:positive"
                                   r"|abnormal)\b|^\W*if HPV is found\b"),),
    "A1C target": (("continuous glucose monitoring", r"\b(?:using|use|uses|on|wear\w*) (?:a )?continuous glucose "
                    r"monitor(?:ing|s)?\b|\bwhere continuous glucose monitoring is used\b|\bCGM users\b"),),
    "low-dose aspirin": (("diabetes", r"\b(?:with|have|has|having|living with) (?:type [12] )?diabetes\b"),),
    # how often to re-check a normal reading is another schedule than how often to review treatment ("Adults whose
    # blood pressure is normal should have it measured again at least every five years")
    "blood-pressure threshold": (_CKD, ("normal blood pressure", r"\bwhose blood pressure is normal\b"
                                        r"|\bwith (?:a )?normal (?:blood pressure|reading)s?\b"
                                        # ("If you are younger and your readings are normal, a check every three
                                        # to five years is enough")
                                        r"|\b(?:your|their|whose) (?:blood pressure )?readings are normal\b")),
}


def conditions(text: str, intervention: str | None = None) -> list[str]:
    """The subgroup conditions ``text`` names (:data:`CONDITIONS`, and :data:`CONDITIONS_FOR` the document's
    ``intervention``), in table order."""
    return _labels(CONDITIONS + CONDITIONS_FOR.get(intervention or "", ()), text)
