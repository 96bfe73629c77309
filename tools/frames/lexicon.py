"""Normalization tables: which words name which intervention and test (criteria and subgroups:
:mod:`clinrag.tools.frames.subgroups`).

Each table is a tuple of ``(label, regex)`` pairs, matched case-insensitively unless noted. Interventions are
resolved by the earliest match in the sentence (parentheticals removed first, so a risk-factor list such as
"(dyslipidemia, diabetes, hypertension or smoking)" cannot name the intervention, nor can one written inline, "a
risk factor such as diabetes, high blood pressure or smoking", and subgroup conditions removed,
so "an otherwise negative screening mammogram" cannot either); ties go to table order, so specific names
("supplemental screening", "digital breast tomosynthesis") come before generic ones. :func:`intervention` and
:func:`tests` apply the tables.
"""

from __future__ import annotations

import re

from clinrag.tools.frames.subgroups import CONDITIONS

SUPPLEMENTAL = "supplemental breast imaging"  # named in a sentence, it is what the sentence is about
# too much of an intervention, a harm rather than the intervention itself: "to discourage overtreatment"
OVERUSE = r"over-?(?:treatment|treating|use|testing|screening|diagnosis|prescribing)\b"
# the level at which a condition is diagnosed, named where it moves: "has lowered the blood pressure at which
# hypertension is diagnosed from 140/90 to 130/80 mm Hg", "has lowered the clinic threshold for diagnosing hypertension
# from 140/90 to 130/80 mm Hg" (a recommendation of the new value, a change note otherwise)
DIAGNOSED_AT = r"(?:at which (?:hypertension|diabetes) is diagnosed|for diagnosing (?:hypertension|diabetes))"

# Intervention vocabulary. The BP family is resolved to "blood-pressure target" or "blood-pressure threshold"
# in extract.py depending on whether the sentence states a target.
INTERVENTIONS: tuple[tuple[str, str], ...] = (
    (
        SUPPLEMENTAL,
        r"\b(?:supplemental|adjunct(?:ive)?) (?:breast )?(?:screening|imaging|ultrasound|ultrasonography|MRI"
        r"|magnetic resonance)|\bbreast (?:MRI|magnetic resonance|ultrasound|ultrasonography)"
        r"|\badd(?:ing|ed)? (?:breast )?(?:ultrasound|MRI|magnetic resonance)"
        r"|\b(?:additional|extra|supplementary) (?:breast )?(?:ultrasound|MRI|magnetic resonance)"
        # high-risk surveillance: "referred for risk assessment and annual MRI"
        r"|\b(?:annual|yearly) (?:breast )?(?:MRI|magnetic resonance)"
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
            # ("co-testing (cytology with HPV testing)": its parts in brackets)
            r"\bco-?testing(?: \([^()]{0,60}\)| with (?:both )?(?:(?:cervical )?cytology and (?:high-risk |hr)?HPV"
            r"(?: test(?:ing)?)?|(?:high-risk |hr)?HPV(?: test(?:ing)?)? and (?:cervical )?cytology))?|"
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
            # ("HPV-based cervical screening")
            r"(?: test(?:ing|s)?|-based (?:cervical )?(?:screening|testing)| detection| results?)"
            r"(?: alone)?|\b(?:tested|testing) for (?:high-risk )?(?:HPV|human papillomavirus)"
            # "the test looks for human papillomavirus (HPV)"
            r"|\btests? (?:that )?(?:checks?|looks?|screens?) for (?:high-risk )?(?:HPV|human papillomavirus)"
            # "Cervical screening checks a small sample of cells from your cervix for the human papillomavirus (HPV)"
            r"|\b(?:checks?|looks at|examines?) (?:[\w-]+ ){0,8}?for (?:the )?(?:high-risk )?"
            r"(?:HPV|human papillomavirus)"
            # the recall after a negative HPV result: "if no HPV is found you will next be invited in five years"
            # ("If hrHPV is not detected, set the recall at 3-year intervals")
            r"|\bif (?:no (?:high-risk |hr-?)?HPV (?:is|was) (?:found|detected)|(?:high-risk |hr-?)?HPV (?:is|was) not "
            r"(?:found|detected))\b",
        ),
        ("cytology", r"\b(?:cervical )?cytology(?: alone)?|\bPap (?:smear|test)s?"),
    ),
    "colorectal cancer screening": (
        ("mt-sDNA", r"\b(?:multi-?target )?stool DNA(?:[- ]FIT| with FIT)?(?: test(?:ing)?)?|\bmt-?sDNA|\bFIT-DNA"),
        ("flexible sigmoidoscopy", r"\b(?:flexible )?sigmoidoscopy"),
        ("CT colonography", r"\bCT colonography|\bcomputed tomograph(?:ic|y) colonography"),
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

# a list of risk factors written inline names who, not what: "have at least one risk factor such as diabetes, high blood
# pressure, smoking or high cholesterol, your doctor will usually recommend a statin"
_RISK_FACTOR_LIST = re.compile(r"\brisk[- ]factors? (?:such as|like|including|e\.g\.,?)\s+(?:[^,.;()]+,\s*)*[^,.;()]+?"
                               r"\b(?:or|and)\b[^,.;()]*", re.I)


def intervention(text: str) -> str | None:
    """The earliest named intervention, parentheticals and subgroup conditions ("an otherwise negative screening
    mammogram") left out: they describe who, not what; supplemental imaging wherever it is named ("for women whose
    screening mammogram is negative ..., supplemental MRI ...")."""
    bare = _RISK_FACTOR_LIST.sub(" ", re.sub(r"\([^)]*\)", " ", text))
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
