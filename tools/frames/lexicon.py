"""Normalization tables: which words name which intervention, test, eligibility criterion or subgroup.

Each table is a tuple of ``(label, regex)`` pairs, matched case-insensitively unless noted. Interventions are
resolved by the earliest match in the sentence (parentheticals removed first, so a risk-factor list such as
"(dyslipidemia, diabetes, hypertension or smoking)" cannot name the intervention, and subgroup conditions removed,
so "an otherwise negative screening mammogram" cannot either); ties go to table order, so specific names
("supplemental screening", "digital breast tomosynthesis") come before generic ones. :func:`intervention` and
:func:`tests` apply the tables.
"""

from __future__ import annotations

import re

SUPPLEMENTAL = "supplemental breast imaging"  # named in a sentence, it is what the sentence is about

NUMBER_WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
"""Small numbers written in words: intervals ("every three years"), percentages ("seven and a half percent") and
the units of an age ("forty-five")."""


NUMBER = rf"\d+|{'|'.join(NUMBER_WORDS)}"
"""A number in digits or in words ("every three years", "at least another ten years"), read by :func:`number`."""


def number(text: str) -> int:
    """A number written in digits ("10") or as one of :data:`NUMBER_WORDS` ("ten")."""
    return NUMBER_WORDS.get(text.lower(), 0) or int(text)


_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_UNITS = {word: n for word, n in NUMBER_WORDS.items() if n < 10}
_SPELLED = re.compile(rf"\b({'|'.join(_TENS)})(?:[- ]({'|'.join(_UNITS)}))?\b", re.I)


def tens_as_digits(text: str) -> str:
    """Numbers from 20 to 99 written in words as digits: ages ("forty-five to fifty-four" -> "45 to 54") and
    criteria ("thirty pack-years" -> "30 pack-years")."""
    return _SPELLED.sub(lambda m: str(_TENS[m.group(1).lower()] + _UNITS.get((m.group(2) or "").lower(), 0)), text)

# Intervention vocabulary. The BP family is resolved to "blood-pressure target" or "blood-pressure threshold"
# in extract.py depending on whether the sentence states a target.
INTERVENTIONS: tuple[tuple[str, str], ...] = (
    (
        SUPPLEMENTAL,
        r"\b(?:supplemental|adjunct(?:ive)?) (?:breast )?(?:screening|imaging|ultrasound|ultrasonography|MRI"
        r"|magnetic resonance)|\bbreast (?:MRI|magnetic resonance|ultrasound|ultrasonography)"
        r"|\badd(?:ing|ed)? (?:breast )?(?:ultrasound|MRI|magnetic resonance)"
        r"|\b(?:additional|extra|supplementary) (?:breast )?(?:ultrasound|MRI|magnetic resonance)"
        r"|\bsupplemental (?:US|ultrasound)/MRI",
    ),
    ("digital breast tomosynthesis", r"\bdigital breast tomosynthesis|\bDBT\b|\btomosynthesis"),
    ("clinical breast examination", r"\bclinical breast exam"),
    (
        "breast cancer risk assessment",
        r"\bbreast cancer risk assessment|\bbreast cancer risk (?:\w+ ){0,2}assessed|\bfamilial risk assessment"
        # a verb, not the attribute of a risk level ("an estimated lifetime breast cancer risk of 20%")
        r"|(?<!\ban )(?<!\bthe )(?<!\btheir )(?<!\bher )\b(?:assess|estimat|evaluat|calculat)\w* (?:[\w'’]+ ){0,3}"
        r"breast cancer risk",
    ),
    ("screening mammography", r"\bmammogra\w*|\bbreast cancer screening|\bscreening for breast cancer"),
    (
        "colorectal cancer screening",
        r"\bcolorectal (?:cancer|screening)|\bbowel (?:cancer|screening)|\bcolon cancer|\bcolonoscopy|\bsigmoidoscopy"
        r"|\bfecal immunochemical|(?-i:\bFIT\b)|\bguaiac|\bstool DNA|\bcolonography|\bfaecal immunochemical"
        r"|\bf(?:a)?ecal occult blood|(?-i:\bCRC\b)",
    ),
    ("PSA-based screening", r"\bPSA\b|\bprostate[- ]specific antigen|\bprostate cancer"),
    (
        "cervical cancer screening",
        r"\bcervical (?:cancer|screening)|\bcervical cytology|\bcytology|\bPap (?:smear|test)|\b(?:hr-?)?HPV\b|"
        r"\bco-?testing",
    ),
    ("low-dose CT lung cancer screening", r"\blow-dose (?:computed tomography|CT)|\bLDCT\b|\blung cancer"
     # a programme's risk-based invitation to a CT scan
     r"|\blung health checks?\b"),
    ("low-dose aspirin", r"\baspirin|(?-i:\bASA\b)"),
    ("statin", r"\bstatin|\b(?:atorva|rosuva|simva|prava|fluva|pitava|lova)statin|\bLDL|\bcholesterol"),
    ("A1C target", r"\bA1c\b|\bHbA1c|\bhemoglobin A1c|\bglyc\w+|\bhyperglycemi\w+"),
    # ("140/90mmHg": the unit right after the number)
    ("blood-pressure",
     r"\bblood pressure|\bhypertension|\bantihypertensive|\bsystolic|\bdiastolic|(?:\b|(?<=\d))mm ?Hg"),
)

# A bare "screen/screening" names the document's topic intervention (context default).
GENERIC_SCREENING = r"\bscreen\w*"

# Topic slug -> default intervention, for sentences that say only "screening" ("biennial screening").
TOPIC_INTERVENTION: dict[str, str] = {
    "breast-cancer-screening": "screening mammography",
    "colorectal-cancer-screening": "colorectal cancer screening",
    "prostate-cancer-screening": "PSA-based screening",
    "cervical-cancer-screening": "cervical cancer screening",
    "lung-cancer-screening": "low-dose CT lung cancer screening",
    "aspirin-primary-prevention": "low-dose aspirin",
    "statin-primary-prevention": "statin",
    "hypertension-thresholds": "blood-pressure threshold",
    "diabetes-glycemic-targets": "A1C target",
}

# Topic slug -> sex of its population when the document does not say (breast/cervical: women; prostate: men).
TOPIC_SEX: dict[str, str] = {
    "breast-cancer-screening": "female",
    "cervical-cancer-screening": "female",
    "prostate-cancer-screening": "male",
}

# Specific tests, per intervention. Order matters: "co-testing with cytology and HPV testing" must be claimed
# before its parts are.
TESTS: dict[str, tuple[tuple[str, str], ...]] = {
    "cervical cancer screening": (
        (
            "co-testing",
            # "co-testing with cytology and HPV testing", "co-testing with hrHPV and cytology"
            r"\bco-?testing(?: with (?:both )?(?:(?:cervical )?cytology and (?:high-risk |hr)?HPV(?: test(?:ing)?)?"
            r"|(?:high-risk |hr)?HPV(?: test(?:ing)?)? and (?:cervical )?cytology))?|"
            r"\bcytology plus (?:high-risk )?HPV(?: co-?testing| test(?:ing)?)?"
            # "an HPV-plus-Pap co-test", "a Pap-and-HPV co-test", "cytology and hrHPV co-testing"
            r"|\b(?:(?:HPV|Pap)[- ](?:plus|and)[- ](?:Pap|HPV)[- ])?co-?tests?\b"
            # "hrHPV testing in combination with cytology (cotesting)"
            r"|\b(?:high-risk |hr)?HPV(?: test(?:ing)?)? (?:in combination|combined|together) with (?:cervical )?"
            r"cytology(?: \(co-?testing\))?"
            r"|\b(?:cervical )?(?:cytology|Pap(?: test(?:ing)?)?) (?:and|plus|with) (?:high-risk |hr-?)?HPV"
            r" co-?test(?:ing|s)?"
            # "an HPV test and a Pap test together", "a Pap test and an HPV test at the same visit"
            r"|\b(?:an? )?(?:hr)?HPV test (?:and|plus) (?:a )?Pap test (?:together|at the same (?:time|visit))"
            r"|\b(?:an? )?Pap test (?:and|plus) (?:an? )?(?:hr)?HPV test (?:together|at the same (?:time|visit))",
        ),
        (
            "hrHPV testing",
            # ("high-risk HPV (hrHPV) testing": the abbreviation restated in parentheses)
            r"\b(?:primary |high-risk |hr)?HPV(?: \((?:hr-?)?HPV\))?(?: DNA| primary)?"
            r"(?: test(?:ing|s)?|-based (?:screening|testing)| detection)"
            r"(?: alone)?|\b(?:tested|testing) for (?:high-risk )?(?:HPV|human papillomavirus)"
            # "the test looks for human papillomavirus (HPV)"
            r"|\btests? (?:that )?(?:checks?|looks?|screens?) for (?:high-risk )?(?:HPV|human papillomavirus)"
            # the recall after a negative HPV result: "if no HPV is found you will next be invited in five years"
            r"|\bif (?:no (?:high-risk )?HPV (?:is|was) (?:found|detected)|(?:high-risk )?HPV (?:is|was) not "
            r"(?:found|detected))\b",
        ),
        ("cytology", r"\b(?:cervical )?cytology(?: alone)?|\bPap (?:smear|test)s?"),
    ),
    "colorectal cancer screening": (
        ("mt-sDNA", r"\b(?:multi-?target )?stool DNA(?:[- ]FIT)?(?: test(?:ing)?)?|\bmt-?sDNA|\bFIT-DNA"),
        ("flexible sigmoidoscopy", r"\b(?:flexible )?sigmoidoscopy"),
        ("CT colonography", r"\bCT colonography"),
        ("colonoscopy", r"\bcolonoscopy"),
        (
            "FIT",
            r"\bf(?:a)?ecal immunochemical test(?:ing)?(?: \(FIT\))?|(?-i:(?<!DNA-)\bFIT\b)"
            r"|\bimmunochemical f(?:a)?ecal occult blood test(?:ing)?|(?-i:\biFOBT\b)"
            # a bowel screening programme's home kit ("we will post you a new kit every two years")
            r"|\b(?:home )?(?:test )?kits?\b",
        ),
        ("gFOBT", r"\b(?:high-sensitivity )?guaiac(?:-based)? fecal occult blood test(?:ing)?|\bgFOBT"),
    ),
}

# Eligibility criteria: qualifiers on who is eligible, compared across documents as the "eligibility" facet.
# A label with "{}" takes the first captured number. "key op value" / "key: value" lets conflicts compare keys.
CRITERIA: tuple[tuple[str, str], ...] = (
    ("pack-years >= {}", r"\b(\d+)[- ]pack[- ]years?|\b(\d+) or more pack[- ]years?"),
    (
        "years since quitting <= {}",
        # "quit within the past 15 years", "current smoking or cessation within the past 15 years"
        r"\b(?:quit|stopped|gave up|given up|cessation)(?: smoking)? (?:within|no more than|in) (?:the )?"
        r"(?:past |last |previous )?(\d+) years",
    ),
    # stop once someone "has not smoked for more than 15 years" / "has gone 15 years without smoking"
    ("years since quitting > {}",
     r"\bnot smoked (?:for )?more than (\d+) years|\bquit (?:smoking )?more than (\d+) years"),
    ("years since quitting >= {}", r"\b(?:gone|been|spent) (\d+) (?:or more )?years without smoking"),
    ("years since quitting: any",
     r"\b(?:no matter|(?:it )?(?:does not|doesn't) matter) how long ago|\bwhatever the time since\b"
     r"|\bhowever long ago\b"
     # "whether you still smoke or quit many years ago" (not "or quit within the past 15 years")
     r"|\bwhether (?:you|they|he|she) (?:still |currently )?smokes? or (?:have |has )?(?:quit|stopped|gave up)\b"
     r"(?! (?:smoking )?(?:within|in the))"
     r"|\b(?:time|years) since quitting (?:is|are) not an? (?:exclusion|criterion|barrier)\b"
     r"|\b(?:years|time) since (?:\w+ ){0,4}(?:quit|quitting|stopped|stopping)\b[^.;]{0,20}\bnot be used to exclude"
     r"|\b(?:regardless|irrespective) of (?:the )?(?:how long|how many years|time since"
     r"|(?:number of )?years since|when (?:\w+ ){1,2}(?:quit|stopped|gave up))"),
    (
        "smoking status: current or former",
        r"\bcurrently smoke|\bcurrent smok|\bformerly smoked|\bformer smok|\bstill smoke",
    ),
    ("life expectancy <= {} years", rf"\blife expectancy (?:is|of) ({NUMBER}) years or (?:less|fewer)"),
    ("life expectancy > {} years", rf"\blife expectancy of more than ({NUMBER}) years"),
    (
        "life expectancy >= {} years",
        rf"\blife expectancy (?:is |of )?(?:at least )?({NUMBER}) years or (?:longer|more)|"
        rf"\blife expectancy (?:of|is) at least ({NUMBER}) years"
        rf"|\blive at least (?:another )?({NUMBER}) (?:more )?years",
    ),
    ("one or more CVD risk factors", r"\bone or more (?:cardiovascular )?risk factors"),
    ("not at increased bleeding risk",
     r"\bnot at (?:increased|higher|high) (?:bleeding risk|risk (?:of|for) bleeding)"),
    ("high cardiovascular risk", r"\b(?:high|higher|elevated) cardiovascular risk"),
    ("good overall health", r"\boverall health is good|\bin good (?:overall )?health"),
    ("no significant hypoglycemia", r"\bwithout significant hypoglycemia"),
    (
        "Black ancestry",
        r"\bBlack (?:men|ancestry|people|individuals)|\b(?:are|is) Black\b|\bAfrican (?:descent|ancestry)",
    ),
    # "carriers of a pathogenic BRCA2 variant"
    # (and "carriers of a BRCA1 or BRCA2 pathogenic variant")
    ("germline mutation", r"\bgermline mutations?|\b(?:pathogenic )?BRCA[12]?(?: or BRCA[12])? (?:pathogenic )?"
                          r"(?:variant|mutation)s?\b"),
    (
        "family history",
        r"\bfamily history|\bfather or brother|\bfirst-degree relatives?|\bwhose (?:father|brother|son)\b"
        # "members who have a father, brother or son with prostate cancer"
        r"|\b(?:father|brother|son),? (?:(?:father|brother|son),? )?or (?:father|brother|son)\b",
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
    ("already taking it", r"\b(?:already|currently) (?:taking|on|using)\b"),
    # "women living with HIV should be screened ... every 3 years from the age of 25", "if you have a weakened immune
    # system"
    ("immunocompromised", r"\bliving with HIV\b|\bHIV[- ](?:positive|infection)\b"
     r"|\bimmuno-?(?:compromised|suppress\w*)\b|\b(?:weakened|weak|compromised) immune system\b|\borgan transplant\b"),
    ("inadequate prior screening", r"\bnot had adequate prior screening|\binadequate prior screening"),
    (
        "adequate prior screening",
        r"(?<!not had )\badequate (?:(?:prior|previous|negative) ){0,2}screening"
        r"|\bprior screening (?:was|is|has been|had been) adequate"
        # "persons who are up to date with screening and have had consistently negative prior tests"
        r"|\bconsistently negative (?:prior |previous )?(?:tests|screening|results)\b",
    ),
    ("history of stroke or TIA", r"\bhistory of stroke|\btransient ischemic attack"),
    # secondary prevention: "patients who take aspirin after a heart attack, stent or stroke"
    ("established cardiovascular disease",
     r"\bafter (?:a |an )?(?:heart attack|myocardial infarction|stent|ischa?emic stroke)"
     r"|(?<!without )(?<!no )\b(?:established|known) (?:cardiovascular disease|CVD|ASCVD)\b"),
    (
        "limited life expectancy",
        r"\blimited life expectancy|\blimits? (?:\w+ )?life expectancy"
        r"|\blife expectancy (?:of )?(?:less than|under|below) (?:\d+|one|two|three|four|five|ten)\b"
        r"|\blimits? how long (?:\w+ ){1,2}expected to live",
    ),
    ("nursing home residents", r"\bnursing home"),
    # looser or tighter glycemic goals for subgroups: "if you are frail ... or have had dangerous hypos", "people who
    # manage their diabetes with diet alone" (not "a decision that weighs frailty", "without severe hypoglycemia")
    ("frailty",
     r"\b(?:with|are|is|in) frailty\b|\b(?:are|is) (?:older and |elderly and )?frail\b"
     # ("frail or housebound adults")
     r"|\bfrail (?:(?:or|and) [\w-]+ )?(?:older )?(?:people|persons|adults|patients)"),
    # (and a leaflet's "if you ... often have low blood sugar")
    ("severe hypoglycemia",
     r"(?<!without )(?<!frequent or )\b(?:severe|dangerous|serious) (?:hypo(?:glyc(?:a)?emia|s)\b"
     r"|low blood (?:sugar|glucose)\b)|\b(?:episodes|bouts) of very low blood (?:sugar|glucose)\b"
     r"|\b(?:often|frequently|repeatedly) (?:have|get|had) (?:low blood (?:sugar|glucose)|hypos)\b"
     # ("if low blood sugar (hypos) is a problem for you")
     r"|\b(?:low blood (?:sugar|glucose)(?: \(hypos\))?|hypos) (?:is|are) a problem\b"),
    ("diabetes managed by diet alone",
     # (not a first treatment step: "should start with lifestyle measures alone")
     r"(?<!start with )(?<!begin with )\b(?:diet|lifestyle)(?: and exercise| measures| changes| modification)? alone\b"
     r"|\bdiet-only\b"),
    # a tighter goal "in selected younger patients with short disease duration treated with lifestyle or metformin"
    # ("if you are young and newly diagnosed"; not "newly diagnosed hypertension", another condition's onset)
    ("short diabetes duration", r"\bshort (?:disease |diabetes )?duration\b"
     r"|\b(?:young|younger)(?: adults?| people| patients)? (?:and|who are) newly diagnosed\b"
     r"|\bnewly diagnosed (?:with )?(?:type 2 )?diabetes\b"),
    # (and what makes it: "if you have had a stomach ulcer or a serious bleed, or if you take another blood thinner")
    ("increased bleeding risk", r"(?<!not )\bat (?:increased|higher|high) (?:bleeding risk|risk (?:of|for) bleeding)"
     r"|\b(?:had|history of) (?:a )?(?:stomach|peptic|gastric|duodenal) ulcer|\bhad (?:a )?(?:serious|major) bleed"
     r"|\b(?:take|taking|on) (?:another|an?) (?:blood thinner|anticoagulant)"),
    # "those treated for CIN2 or worse should continue for at least 25 years after treatment, even beyond 65" (not
    # "no history of CIN2+", who may stop)
    ("treated for CIN2+", r"(?<!no )\b(?:treated for|history of) CIN ?2\b"),
    ("not smoked for {} years", r"\bnot smoked for (\d+) years"),
    ("harms outweigh benefits", r"\bharms outweigh the benefits"),
    # "people who have never smoked should not be screened on the basis of second-hand smoke exposure alone"
    ("never smoked", r"\b(?:have|has) never smoked\b|\bnever[- ]smokers?\b|\blifelong non-?smokers?\b"),
    # a catch-up offer: "women over 60 who have never been screened should be offered a single HPV test"
    ("never screened", r"\b(?:have|has) never been screened\b|\bnever[- ]screened\b|\bunscreened\b"),
)


def intervention(text: str) -> str | None:
    """The earliest named intervention, parentheticals and subgroup conditions ("an otherwise negative screening
    mammogram") left out: they describe who, not what; supplemental imaging wherever it is named ("for women whose
    screening mammogram is negative ..., supplemental MRI ...")."""
    bare = re.sub(r"\([^)]*\)", " ", text)
    for _, pattern in CONDITIONS:
        bare = re.sub(pattern, " ", bare, flags=re.I)
    best: tuple[int, int, str] | None = None
    for rank, (label, pattern) in enumerate(INTERVENTIONS):
        m = re.search(pattern, bare, re.I)
        if m and label == SUPPLEMENTAL:  # imaging in addition to mammography: the mammogram is its context
            return label
        if m and (best is None or (m.start(), rank) < best[:2]):
            best = (m.start(), rank, label)
    return best[2] if best else None


def tests(text: str, intervention: str) -> list[tuple[int, int, str]]:
    """(start, end, test) for each test of ``intervention`` named in ``text``, in text order; where two names
    overlap, the earlier table row claims the text."""
    taken: list[tuple[int, int, str]] = []
    for label, pattern in TESTS.get(intervention, ()):
        for m in re.finditer(pattern, text, re.I):
            if not any(m.start() < e and s < m.end() for s, e, _ in taken):
                taken.append((m.start(), m.end(), label))
    return sorted(taken)


# what a criterion or condition is named after when its absence is stated: "patients aged 50 to 70 with ... no
# first-degree relative with colorectal cancer", "without a family history", "has no history of CIN2+ or hysterectomy",
# "are not immunosuppressed"
_ABSENT_BEFORE = re.compile(
    r"\b(?:no|without)(?: (?:personal |prior |known )?(?:history|record) of)?(?: an?| any| known)?"
    r"(?:(?: [\w+-]+){1,3},?(?: or| nor)(?: [\w+-]+)?)? $"
    # "people ... who have no symptoms and are not immunosuppressed"
    r"|\b(?:is|are|was|were) not $", re.I)


def labels(table: tuple[tuple[str, str], ...], text: str) -> list[str]:
    """The labels of a table (:data:`CRITERIA`, :data:`CONDITIONS`) that ``text`` names, in table order, unless named
    only as absent (:data:`_ABSENT_BEFORE`); a label with "{}" takes the first captured number (in digits)."""
    out = []
    text = tens_as_digits(text)
    for label, pattern in table:
        m = next((m for m in re.finditer(pattern, text, re.I) if not _ABSENT_BEFORE.search(text[: m.start()])), None)
        if m:
            num = next((g for g in m.groups() if g), None) if m.groups() else None
            out.append(label.format(number(num)) if "{}" in label else label)
    return list(dict.fromkeys(out))
