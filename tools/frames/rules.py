"""The regex rule layer: strength, action and non-recommendation sentences (ages: :mod:`ages`; intervals:
:mod:`intervals`)."""

from __future__ import annotations

import re

from clinrag.tools.frames.schema import RECOMMEND_LIKE

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

# Where an imperative stands: opening the sentence, or after an opening phrase ("For primary prevention, offer ...",
# "From age 30 to 65, screen ...") or a label of up to six words ("NICE: offer ...", "Key points for clinicians:
# offer ...", a pathway's "Step 2, ages 21 to 29: order ...") or a section number ("4.4 Measure A1C ...").
_IMPERATIVE_AT = (r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?"
                  r"(?:[A-Z][\w/-]{1,15}(?:,? [\w/-]{1,15}){0,5}(?:\s*\([^()]{0,60}\))?:\s*)?"
                  r"(?:(?:for|in|among|if|when|from|between|aged?|per|according to)\b[^,;]{0,80},\s*)?")

# permission to stop ("can stop", "may be discontinued", "it is appropriate to stop", "no longer need"): a cue of
# "discourage", and what turns a favourable grade into one (:func:`action`)
_MAY_STOP_CUE = (r"\b(?:can|may) (?:stop|discontinue|cease|end)\b|\b(?:can|may) be (?:stopped|discontinued|ended)\b"
                 r"|\b(?:appropriate|reasonable|acceptable) to (?:stop|discontinue|cease)\b|\bno longer needs?\b")

# Lexical action cues, checked in this order (first match wins).
_ACTION_CUES: tuple[tuple[str, str], ...] = (
    (
        "insufficient_evidence",
        r"\binsufficient\b|\bcannot (?:be )?(?:determined?|assess)|\bunable to (?:assess|determine)"
        r"|\bnot enough evidence|\bfor or against\b"
        # "there is too little evidence to know whether ...", "too few data"
        r"|\btoo (?:little|few) (?:good |high-quality )?(?:evidence|data|studies)\b"
        # "finds the evidence too thin to judge the balance of benefits and harms"
        r"|\b(?:too (?:thin|limited|weak|sparse|scant)|not (?:strong|good) enough) to (?:judge|determine|assess|weigh"
        r"|tell|say|recommend)\b",
    ),
    (
        "discourage",
        rf"\bdiscourag\w*|\bconsider not\b|\bsuggests? (?:against|not)\b|{_MAY_STOP_CUE}|\bnot (?:necessary|needed)\b"
        # "suggests that clinicians refrain from screening", "suggest that persons who are up to date with screening
        # stop routine screening after age 75"
        r"|\bsuggest\w*\b[^.;]{0,40}\brefrain\w* from\b"
        # (not "suggest that screening continue up to age 70 and then stop")
        r"|\bsuggest\w* that\b(?:(?!\bcontinu)[^.;]){0,60}\bstop\b"
        # an insurer's "not considered routine" for older members; a leaflet's "the test is not usually offered"
        r"|\bnot considered routine\b|\b(?:is|are) not (?:usually|routinely|normally) offered\b"
        # "do not need screening", "do not need to continue/go for screening"; not "don't need to change your diet"
        r"|\b(?:(?:do|does|will) not|don't|doesn't|won't) need\b"
        r"(?! to (?!(?:continue|go|have|get|undergo|be|keep|start|attend)\b))"
        # "No one younger than 21 needs cervical screening"
        r"|\b(?:no one|nobody|no (?:woman|man|adult|person))\b[^.;,]{0,40}\bneeds?\b",
    ),
    (
        "recommend_against",
        r"\brecommend(?:s|ed)? (?:against|not)\b|\b(?:does|do|did) not (?:recommend|advise)|\bnot recommended\b"
        r"|\bnot (?:advised|suggested|indicated|endorsed)\b|\bshould not\b|\bmust not\b"
        r"|\badvis\w* (?:against|stopping)|\badvis\w* (?:\w+ ){0,2}to (?:stop|discontinue)\b"
        r"|\b(?:comes?|came|coming) (?:down|out) against\b|\bargu\w* against\b"
        r"|\bno longer (?:recommended|advised|offered|covered)\b"
        r"|\b(?:tell|advis|ask|urg|instruct)\w* (?:\w+ ){0,3}not to\b"
        r"|\bavoid\w*|\brefrain\w* from\b|\b(?:is|are) not to be\b|\b(?:is|are) not (?:invited|screened)\b"
        # an insurer's exclusion: "screening of members aged 76 and older is considered not medically necessary"
        r"|\b(?:is|are) (?:considered |deemed )?not (?:medically necessary|covered)\b"
        # a programme's or pathway's end: "you'll stop being invited", "Exit the pathway at the patient's 78th birthday"
        r"|\b(?:stop|cease) being (?:invited|screened|offered)\b"
        r"|^\W*(?:exit|leave|discharge (?:\w+ )?from)\b[^.;]{0,20}\b(?:pathway|programme|program|screening)\b"
        # "screening ... before age 25 is not supported" (not "is not supported by the evidence", a finding)
        r"|\b(?:is|are) not supported\b(?! by\b)"
        # "Do not screen ...", "For ..., do not offer ...", "Stop screening once ..."
        rf"|{_IMPERATIVE_AT}(?:(?:Do not|Don't)\s+(?:routinely\s+)?"
        r"(?:screen|offer|use|start|begin|treat|prescribe|initiate|test|recommend|order|perform|provide)|Stop|Discontinue)\b"
        r"|\b(?:should|must)(?: also)? (?:stop|discontinue|cease|end|be (?:stopped|discontinued|ceased|ended))\b",
    ),
    (
        "individual_decision",
        # (not "an individualised, risk-adapted strategy", which is what is recommended)
        r"\bindividual (?:decision|one|basis)|\bbe individual(?=\s*(?:[,.;(]|and\b))"
        r"|\bindividuali[sz]ed\b(?![\w ,-]{0,40}\b(?:strategy|approach|plan)\b)"
        r"|\binformed decision"
        r"|\b(?:decided|made) (?:through|by|via|with) shared decision|\buse shared decision"
        r"|\bopportunity to\b|\bselectively\b|\bif the patient chooses"
        # "statin initiation is left to clinical judgment and a discussion with the patient"
        r"|\bleft to (?:clinical judg\w+|the (?:clinician|patient)|individual)\w*"
        r"|\b(?:discussion|conversation)(?: (?:about|of|on) [^.,;]{1,40})? should (?:start|begin)"
        r"|\b(?:a|be|informed,?(?: and)?) shared decision\b|\bcase[- ]by[- ]case\b"
        r"|\b(?:offered|offers|have|has) a discussion (?:about|of)\b|\bdecide together\b"
        r"|\b(?:offered|offers) the same discussion\b"
        r"|\bcounsel+ed (?:about|on) (?:the )?(?:possible )?"
        r"(?:benefits and harms|harms and benefits|risks and benefits)"
        # "no man should have a PSA test without first discussing what a raised result could lead to"
        r"|\bwithout (?:first )?(?:discussing|a discussion|talking)\b"
        # "Black men should begin that conversation at 45"
        r"|\b(?:begin|start|have|hold|open)\w* (?:that|this|the|a|such a) (?:conversation|discussion)\b"
        r"|\b(?:begin|start)\w* (?:talking|discussing)\b"
        r"|\bask (?:your|a|their) (?:doctor|clinician|provider|nurse|GP) about\b"
        # screening for the people who chose it: "Frequency, for men who opt in: a PSA test every 12 months", "repeated
        # at 24-month intervals while he ... still wants screening"
        r"|\bwho opt (?:in|for)\b|\bstill wants? (?:screening|to be (?:screened|tested))\b"
        # "you can choose to start yearly mammograms at 40 if you wish"
        r"|\bif (?:you|she|he|they) (?:so )?(?:wish|wishes)\b"
        # "this is your choice to make with your doctor"
        r"|\b(?:is|are) (?:your|their|her|his) (?:own )?(?:choice|decision)\b"
        r"|\bshared decision[- ]making (?:with|about|for)\b"
        r"|\bdecision (?:to (?:make|take) )?(?:with|together with|alongside) (?:your|a|their|the) (?:doctor|clinician"
        r"|provider|GP|health care provider)"
        r"|\btalk\w* (?:with|to) (?:\w+ )?(?:doctor|clinician|provider|health care provider)s?(?: [^.,;]{0,25})? about "
        r"(?:whether\b|(?:the )?(?:possible )?benefits and harms)|\bbefore deciding whether\b",
    ),
    (
        "suggest_or_consider",
        # (not "considers screening medically necessary", an insurer's word for what it covers)
        r"\bsuggest(?:s|ed)?\b|\bconsider(?:s|ed)?\b(?![^.;]{0,80}\bmedically necessary\b)|\bmight\b"
        # (not what may happen to someone screened: "may be called back for more tests")
        r"|\bmay (?:also |still )?(?:begin|suit|justify"
        r"|be(?! (?:called back|recalled|found|diagnosed|detected|harmed)\b)"
        r"|start|offer|use|help|transition|switch|replace|substitute)\b|\bcan (?:switch|choose|opt|replace)\b"
        r"|\bacceptable\b|\bencourag\w+"
        r"|\breasonable\b",
    ),
    (
        "recommend",
        # (not a change narrative's "the recommended interval has been lengthened from yearly to every two years")
        r"\brecommend(?:s|ed)?\b(?! (?:\w+ ){0,2}(?:has|have) been (?:lengthened|shortened|changed|lowered|raised"
        r"|extended|moved)\b)"
        r"|\brecommendation (?:is|to)\b|\bshould\b|\bmust\b|\badvis\w+|\bsays to\b"
        r"|\badvocat(?:es|ed|ing)\b|\bendors(?:es|ed|ing)\b|\bcalls? for\b|\binvites?\b"
        # what a programme offers or an insurer covers, and who is eligible: "the programme now offers a low-dose CT
        # scan once every year", "covered tests are one FIT per 12-month period", "former smokers remain eligible"
        r"|\boffers\b|\bcovers\b|\b(?:is|are) covered\b|\bmedically necessary\b|\bfrequency limits?\b"
        # a leaflet's eligibility: "You can have a low-dose CT scan to check for lung cancer if you are aged 50 to 80"
        r"|\b(?:you|they) can (?:have|get) (?:a|an|the|your|free)\b"
        r"|\bcovered (?:tests?|services?)\b|\bcan be screened\b"
        # an invitation letter ("we send your first invitation when you reach 25"), an order set's inclusion criteria
        r"|\bsends? (?:you |out )?(?:your |an? |its |their )?(?:first )?invitations?\b|\binclusion criteria\b"
        # a pathway's eligibility step: "Step 1, eligibility: people with a cervix aged 25 to 65 years"
        r"|^\W*(?:step \w+\W{1,3})?(?:eligibility|eligible population|who to screen)(?: check| criteria)?\s*:"
        # "Your last routine invitation comes at age 60", "you are invited to a free lung health check", "Eligible
        # patients are those aged 50 to 74"
        r"|\b(?:first|last) (?:routine )?(?:invitation|kit|test kit|letter) "
        r"(?:comes|is (?:sent|posted|mailed)|arrives)\b"
        r"|\b(?:you are|you're) invited\b"
        # "every three years, eligible individuals are invited for cytology" (not "are invited only if"), "we will
        # invite you again in five years", "you are now due for cervical screening, a free test offered to everyone
        # with a cervix aged 25 to 69"
        r"|\b(?:are|is) invited (?:for|to)\b|\b(?:will|'ll|’ll) invite you\b|\b(?:you are|you're) (?:now )?due for\b"
        r"|\boffered to (?:everyone|everybody|all)\b"
        r"|^\W*eligible (?:patients|people|adults|persons|residents|women|men|individuals) (?:are|include)\b"
        # a quality measure's denominator: the people who should receive what its numerator counts
        r"|^\W*(?:denominator|numerator|eligible population)\s*:"
        r"|\b(?:remain|are|is|become) eligible\b"
        # a list of the tests a document accepts: "Suitable strategies include ...", "First-tier tests: ..."
        r"|\b(?:suitable|appropriate|approved|first[- ](?:line|tier)) (?:screening )?"
        r"(?:strateg(?:y|ies)|options?|tests?|modalit(?:y|ies)|methods?)\b"
        # (not how a consensus panel decided: "with agreement defined as at least 80% of votes")
        r"|\b(?:sets?|set) (?:a|an)\b[^.]*\b(?:target|goal)|\baim (?:for|is)\b|\bprefer\w*"
        r"|\bdefine[sd]?\b(?! as (?:agreement\b|(?:at least |more than |over )?\d+\s*% (?:of|agreement)\b))"
        r"|\bthe (?:\w+ )?(?:goal|target)(?: range)? is\b|\b(?:first |main )?objective of (?:treatment|therapy) is\b"
        # "a diagnosis of hypertension is established by a sustained office blood pressure of ..."
        r"|\bdiagnos\w+ (?:of \w+ )?(?:is|are) (?:established|made|confirmed) (?:by|at|when)\b"
        r"|\bhypertension (?:is|are) (?:diagnosed|present|defined|confirmed) (?:when|at|if|by|as)\b"
        # "the diagnostic threshold for hypertension is now 130/80 mm Hg", "retains the definition of hypertension as"
        r"|\b(?:threshold|cut-?off) (?:for|of) (?:\w+ ){0,3}(?:is|are) (?:now |still )?(?=\d|[<>≥≤])"
        r"|\b(?:retains?|maintains?|adopts?) the definition of\b"
        r"|\bthe definition of (?:hypertension|diabetes) (?:is|remains) (?:unchanged|still|the same)\b"
        # (a definition, "you'll be diagnosed with high blood pressure if ...", not how common a disease is: "about 1 in
        # 8 men will be diagnosed with prostate cancer")
        r"|\b(?:will|'ll|’ll) be diagnosed with\b(?=[^.;]{0,60}\b(?:if|when|once)\b)"
        # "if you decide to be tested, the test is usually repeated once a year"
        r"|\b(?:is|are) (?:usually|generally|typically|normally|then) repeated\b"
        # a schedule written as a table: "Read as a table, the monitoring schedule is: A1C at 3 months after ..."
        r"|\b(?:monitoring|testing|screening|follow-up) schedule is\b"
        # an order set's schedule: "subsequent screening scans are ordered every 24 months"
        r"|\b(?:is|are) (?:then )?(?:ordered|scheduled|booked|repeated) (?:every|annually|yearly|biennially)\b"
        r"|\bbegins? at\b|\bqualify\b|\bget (?:screened|tested|checked)\b"
        r"|\b(?:is|are|remains?) (?:still )?(?:appropriate|indicated)\b"
        r"|\b(?:will|'ll|’ll) be (?:invited|sent|offered)\b|\b(?:will|'ll|’ll) (?:post|send|mail) you\b"
        # "we will write to you once every three years", "invitations are sent once every three years"
        r"|\b(?:will|'ll|’ll) (?:write to|remind) you\b|\binvitations? (?:are|is) (?:sent|posted|mailed)\b"
        r"|\b(?:are|is) (?:recalled|re-?invited)\b|\baims? to\b|\btry to (?:keep|reach|achieve|get|bring)\b"
        # a programme's kit ("residents aged 50 to 74 are mailed a FIT kit every two years"), guidance cited in the
        # subjunctive ("aligns with clinical guidance that women aged 50 to 74 years be screened every two years"),
        # a patient summary's usual practice ("most men have a PSA test once a year"), a goal named after its value
        # ("a reading below 150/90 is usually the goal")
        r"|\b(?:is|are) (?:mailed|posted)\b"
        r"|\b(?:guidance|advice|recommendations?) that\b[^.;]{0,80}\bbe (?:screened|tested|offered|treated)\b"
        r"|\bmost (?:men|women|people|adults|patients) (?:have|get|need|repeat)\b"
        r"|\bis (?:usually |generally |typically )?the (?:appropriate |recommended |preferred )?(?:goal|target)\b"
        # a patient summary's definition: "your doctor will usually say you have high blood pressure (hypertension)
        # if your readings are 140/90 or higher"
        r"|\b(?:say|tell)s? (?:that )?you have (?:high blood pressure|hypertension)\b"
        rf"|{_IMPERATIVE_AT}(?:Screen|Initiate|Start|Offer|Begin|Use|Treat|Confirm|Diagnose|Help|Support|Bring|Keep"
        r"|Aim|Lower|Agree|Set|Order|Perform|Repeat|Prescribe|Arrange|Schedule|Titrate|Calculate|Estimate|Refer"
        r"|Measure|Check|Monitor|Relax|Intensify|Review|Deintensify)\b"
        # "Recommendation 2 (strong): continue screening through age 75" (a sentence's or a label's own imperative,
        # not a coordinated "... start at 40 and continue up to age 74")
        r"|(?-i:^\W*Continue\b)|^\W*[A-Z][\w/-]{1,15}(?:,? [\w/-]{1,15}){0,5}(?:\s*\([^()]{0,60}\))?:\s*continue\b"
        # "testing it once every 12 months is sufficient" (not "there is sufficient evidence that", a finding)
        r"|(?<!there )\b(?:is|are) (?:usually |generally )?sufficient\b(?!\s+(?:evidence|data|proof)\b)"
        # a pathway's step named by its verb ("Step 3, order: total PSA, repeated at 24-month intervals") and a
        # summary table's row named by its facet ("Frequency, for men aged 50 to 69: a PSA test every 12 months")
        r"|^\W*step \w+\W{1,3}(?:order|offer|screen|test|repeat|arrange|refer|schedule)\b"
        r"|^\W*(?:step \w+\W{1,3})?(?:(?:screening |repeat |recall )?(?:frequency|interval)|repeat testing)\b"
        r"[^:.;]{0,60}:",
    ),
    # a choice offered on its own ("may choose biennial screening"); after "should", which states the main action
    ("individual_decision", r"\bmay choose\b|\bmay opt\b"),
)
_NOT_A_RECOMMENDATION = re.compile(
    # ("no longer have a cervix" is no change of guidance)
    # ("years since quitting no longer matter" changes who qualifies, not whether a recommendation stands)
    # ("the programme no longer sends kits" after the last one is where it stops)
    # ("This 2024 edition replaces the Council's 2015 position, which recommended against ...")
    r"\bcompared with\b|\blater replaced\b|\breplaced\b|\breplaces\b|\bsupersedes\b"
    # ("screening is no longer offered to people aged 21 to 24" says what is offered now)
    r"|\bno longer\b(?! ha(?:ve|s) | (?:matters?|counts?|needs?|sends?|posts?|mails?|invites?|offered|covered)\b)"
    r"|\bhad (?:previously |formerly |earlier )?been\b"
    r"|\bmoved (?:the|from)\b"
    # "The Grade B recommendation for people in their fifties has therefore been withdrawn"
    r"|\b(?:has|have|had|was|were) (?:\w+ )?(?:been )?(?:withdrawn|rescinded|retired|revoked)\b"
    r"|\blowered the\b|\braised the\b|\bkeeps the\b|\bgrade [A-DI] means\b|(?<!same )\bappl(?:ies|ied) to\b"
    r"|\b(?:issued|published|updated|addressed) (?:its|their|an?|the)\b|\b(?:issued|published|addressed) guidance\b"
    # an emergency reading is a reason to refer, not a threshold or a goal of the recommendation
    r"|\bsame-day (?:\w+ )?(?:assessment|referral|review)\b"
    # a programme's performance standard ("... adequately screened, with an acceptable level of 80%")
    r"|\b(?:acceptable|achievable) (?:level|standard)\b",
    re.I,
)
# a finding ("observational data suggest that X is associated with Y") is not advice, unless the sentence also
# advises ("because trials show benefit, the USPSTF recommends ...")
_FINDING = re.compile(
    r"\b(?:data|studies|trials|evidence|analyses|findings|results) (?:suggest|show|indicate|demonstrate)\w*\b"
    r"|\b(?:is|are|was|were) associated with\b",
    re.I,
)
_ADVICE = re.compile(r"\brecommend\w*|\bshould\b|\bmust\b|\badvis\w*|\b[Gg]rade [A-DI]\b|\bclass I", re.I)


# a change narrative that states the recommendation now in force ("lowered the starting age ..., now recommending
# it for adults 45 to 49") is a recommendation
_NOW = re.compile(r"\bnow (?:recommend|advis|suggest)\w*", re.I)
# "If a serious illness limits how long you are expected to live, screening is no longer recommended for you": a
# sentence that opens with its condition says what holds for those people now
_CONDITION_FIRST = re.compile(r"\W*(?:if|once|when|after)\b", re.I)


def is_recommendation_text(text: str) -> bool:
    """False for change narratives (unless they state what is now recommended), definitions of grades, scope and
    publication statements, and findings."""
    if (m := _NOT_A_RECOMMENDATION.search(text)) and not _NOW.search(text) and not (
        m.group(0).lower() == "no longer" and _CONDITION_FIRST.match(text)
    ):
        return False
    return not (_FINDING.search(text) and not _ADVICE.search(text))


# no age at which to stop: "screening should not stop at a set age", "there is no fixed age to stop"
_NOT_STOP = re.compile(r"\b(?:should|must|need) not (?:stop|end|cease)\b", re.I)
# "the number of years since a former smoker quit should not be used to exclude them from screening": who stays in
_NOT_EXCLUDED = re.compile(r"\b(?:should|must) not be used to (?:exclude|disqualify)\b", re.I)
CONTINUES = re.compile(rf"{_NOT_STOP.pattern}|\bno (?:fixed|set|upper) (?:age|limit)\b"
                       r"|\bcontinue\w* (?:\w+ ){0,3}(?:as long as|for as long as)\b"
                       r"|\bkeep (?:going|having|getting|being screened|screening)\b[^.;]{0,30}\bas long as\b", re.I)


def _cue(name: str) -> str:
    """The first lexical cue pattern of an action."""
    return next(pattern for action_name, pattern in _ACTION_CUES if action_name == name)


def unbracketed(text: str) -> str:
    """The text without its parentheticals (one left open at the end, as a verb's subtree can end, included)."""
    return re.sub(r"\([^()]*(?:\)|$)", " ", text)


# permission to stop: a grade or class for it grades the statement that screening can end, which is no
# recommendation to screen ("Screening can stop after age 65 for those with adequate negative prior screening
# (Grade A)")
_MAY_STOP = re.compile(_MAY_STOP_CUE, re.I)


_AFTER_DISCUSSION = re.compile(r"\bafter (?:a |an )?(?:clinician[–-]patient |shared )?(?:risk )?discussion\b", re.I)


def action(text: str) -> str | None:
    """The action a clause states: a grade or class decides when present (a favourable one graded on permission to
    stop is that permission: "discourage"), otherwise the first lexical cue. A bare letter ("(B)") decides only
    when no word does: ADA writes its levels of evidence the same way ("is reasonable (A)"), and so does a grade
    paired with a level of evidence or a consensus ("[Grade D, consensus]", "[Grade B, Level 2]"), which grades the
    evidence, not the advice."""
    grade = _GRADE.search(text)
    bare = grade is not None and (re.fullmatch(r"\([A-Z]\)", grade.group(0)) is not None or re.match(
        r"\s*[,;]\s*(?:level|consensus|LoE|evidence)\b", text[grade.end():], re.I) is not None)
    if grade and not bare:
        by_grade = _GRADE_ACTION[_grade_letter(grade)]
        return "discourage" if by_grade in RECOMMEND_LIKE and _MAY_STOP.search(unbracketed(text)) else by_grade
    if m := _CLASS.search(text):
        by_class = _CLASS_ACTION[_class_of(m)]
        if by_class in RECOMMEND_LIKE and _MAY_STOP.search(unbracketed(text)):
            return "discourage"
        # a class that the text itself calls an individual decision ("whether to initiate a statin should be an
        # individualized decision (Class IIb)", "clinicians should engage in shared decision-making about PSA
        # screening (Class I)": the class rates the advice to decide together) is that decision
        # ("it may be reasonable to initiate a statin after a clinician-patient discussion (Class IIb)")
        if by_class in RECOMMEND_LIKE and (re.search(_cue("individual_decision"), unbracketed(text), re.I)
                                           or _AFTER_DISCUSSION.search(text)):
            return "individual_decision"
        return by_class
    # double negatives: "screening should not stop at a set age", "there is no upper age limit at which screening
    # should stop: screening should continue as long as ...", "should not be used to exclude them"
    stop_named = re.search(r"\b(?:should|must) (?:stop|end|cease)\b", text, re.I)
    if _NOT_STOP.search(text) or _NOT_EXCLUDED.search(text) or (CONTINUES.search(text) and stop_named):
        return "recommend"
    for name, pattern in _ACTION_CUES:
        if re.search(pattern, text, re.I if name != "recommend" else re.I | re.M):
            return name
    if m := _WORD.search(text):  # "X is a qualified recommendation": the strength word is the only cue
        if "against" in m.group(0).lower():
            return "recommend_against"
        word = (m.group(1) or m.group(2) or m.group(3)).lower()
        return "recommend" if word in ("strong", "qualified") else "suggest_or_consider"
    return _GRADE_ACTION[_grade_letter(grade)] if bare else None
