"""Action cues for a test or treatment: suggest or consider, and recommend (what programmes, letters, insurers,
pathways and measures offer or count among them, :mod:`programme_cues`); checked after the cues against and of an
individual decision (:data:`action_cues.ACTION_CUES`)."""

from __future__ import annotations

from clinrag.tools.frames.imperative import IMPERATIVE_AT, LABEL
from clinrag.tools.frames.lexicon import DIAGNOSED_AT
from clinrag.tools.frames.no_stance import NEW_AGE, STEP
from clinrag.tools.frames.programme_cues import OFFERED

# whom a recommendation applies to: "This recommendation applies to people who currently smoke and to those who formerly
# smoked, irrespective of how many years ago they quit" ("Unlike the 2019 statement, this recommendation applies to
# people who formerly smoked regardless of how many years ago they quit")
APPLIES_TO = r"^\W*(?:(?:unlike|as in|like) [^,;]{0,40},\s*)?(?:this|the) recommendation (?:now )?applies to\b"

# a value an edition put in place of the old one ("the relaxed target ... used in the 2019 edition has been replaced by
# a target range of 58 to 64 mmol/mol"): what is advised now, a cue of "recommend"
REPLACED_BY_NEW = (r"\b(?:has|have) been replaced (?:by|with) (?:a |an )?(?:[\w-]+ ){0,2}(?:target|goal|threshold"
                   r"|cut-?off|interval|range)\b")

# what a result sets off ("triggers a repeat test", "warrants referral", "is usually followed by a repeat test", "is
# usually followed by a second test")
_NEXT_STEP = r"(?:repeat|referral|further|urology|specialist|MRI|second test|second PSA)"

# (action, cue) for suggest or consider and recommend, in this order
FOR_CUES: tuple[tuple[str, str], ...] = (
    (
        "suggest_or_consider",
        # (not "considers screening medically necessary", an insurer's word for what it covers)
        r"\bsuggest(?:s|ed)?\b|\bconsider(?:s|ed)?\b(?![^.;]{0,80}\bmedically necessary\b)|\bmight\b"
        # (not what may happen to someone screened: "may be called back for more tests")
        r"|\bmay (?:also |still )?(?:begin|suit|justify"
        r"|be(?! (?:called back|recalled|found|diagnosed|detected|harmed)\b)"
        # ("your doctor may agree a goal of below 8% with you instead")
        r"|start|offer|use|help|transition|switch|replace|substitute|agree)\b"
        # ("people who quit more than 15 years ago can still choose to be screened")
        r"|\bcan (?:still )?(?:switch|choose|opt|replace)\b"
        # ("a repeat test can be offered at three-yearly intervals", as "may be offered")
        r"|\bcan (?:also |still )?be (?:offered|considered)\b"
        r"|\bacceptable\b|\bencourag\w+"
        # a leaflet's options: "The simplest option is a home stool test (FIT), which you do every two years"
        r"|\b(?:simplest|easiest|usual|main|first|other) option is\b"
        r"|\breasonable\b",
    ),
    (
        "recommend",
        # (not a change narrative's "the recommended interval has been lengthened from yearly to every two years")
        r"\brecommend(?:s|ed)?\b(?! (?:\w+ ){0,2}(?:has|have) been (?:lengthened|shortened|changed|lowered|raised"
        r"|extended|moved)\b)"
        r"|(?<!\bno )\brecommendation (?:is|to)\b|\bshould\b|\bmust\b|\badvis\w+|\bsays to\b"
        r"|\badvocat(?:es|ed|ing)\b|\bendors(?:es|ed|ing)\b|\bcalls? for\b|\binvites?\b"
        # ("all women between 30 and 60 years old receive a letter inviting them for a smear test once every five
        # years")
        r"|\b(?:receive|get|are sent|is sent) (?:a |an )?(?:letter|invitation)s? (?:inviting|asking) "
        r"(?:them|you|her|him)\b"
        # a measure's reason: "..., reflecting the Panel's endorsement of screening mammography every 2 years"
        r"|(?<!no )\bendorsement of\b"
        # a measure's required frequency: "At least one HbA1c test every 12 months is required for a patient to count as
        # assessed"
        r"|\bevery\b[^.;]{0,30}\b(?:is|are) required\b"
        # where a pathway lets people in: "for Black men and men with a first-degree relative diagnosed with prostate
        # cancer before age 65, the pathway opens at age 40"
        r"|\b(?:pathway|programme|program|service) (?:opens|is open) (?:at|from) (?:the )?(?:age (?:of )?)?\d"
        # what an edition now advises in place of the old: "Repeat testing every two years now replaces annual testing"
        rf"|\bnow (?:replaces?|supersedes?)\b|{REPLACED_BY_NEW}"
        # a consensus statement's finding of agreement: "the panel agreed on an A1C goal below 7.0%"
        r"|\bagreed (?:on|upon) (?:an?|the) (?:[\w-]+ ){0,3}(?:goal|target|threshold|interval|age|schedule)\b"
        # what programmes, letters, insurers, pathways and quality measures offer, cover, send and count
        rf"|{OFFERED}"
        # a leaflet's goal: "the aim of treatment is usually to keep your clinic reading below 140/90 mmHg", "a clinic
        # reading below 150/90 mmHg is usually good enough", "an A1C between 7% and 8% strikes the right balance"
        r"|\bthe aim (?:of (?:treatment|therapy) )?is (?:usually |generally |normally )?to\b"
        r"|\b(?:is|are) (?:usually |generally |often )?good enough\b|\bstrikes? the right balance\b"
        # "after a negative HPV test, the next screening test is due in five years"
        r"|\b(?:is|are) (?:then )?due (?:again )?(?:in|every)\b"
        # a list of the tests a document accepts: "Suitable strategies include ...", "First-tier tests: ..."
        r"|\b(?:suitable|appropriate|approved|first[- ](?:line|tier)) (?:screening )?"
        r"(?:strateg(?:y|ies)|options?|tests?|modalit(?:y|ies)|methods?)\b"
        # (not how a consensus panel decided: "with agreement defined as at least 80% of votes")
        r"|\b(?:sets?|set) (?:a|an)\b[^.]*\b(?:target|goal)|\baim (?:for|is)\b|\bprefer\w*"
        # a leaflet's goal and its definition: "If you are 80 or older, below 150/90 is a good goal", "You have high
        # blood pressure if your reading at the clinic is 140/90 or higher"
        r"|\b(?:is|are) (?:a |the )?(?:good|sensible|reasonable|usual|right) (?:goal|target|aim)\b"
        # an order set's labelled goal: "(2) Default individual target: HbA1c 48 to 58 mmol/mol (6.5% to 7.5%)"
        r"|^\W*(?:\d+[.)]?\s+)?(?:[\w-]+ ){0,3}(?:target|goal)s?\s*:(?=[^.;]{0,40}\d)"
        # ... and the other goal it offers: "select the alternative target of below 8.0% (64 mmol/mol) for patients with
        # frailty"
        r"|\bselect (?:the|an) (?:alternative|individuali[sz]ed|less stringent|relaxed|higher|other) (?:\w+ )?"
        r"(?:target|goal)\b"
        r"|\b(?:you|they|he|she) (?:have|has) high blood pressure (?:if|when)\b"
        # "If your readings are 130 over 80 or higher on two or more visits, you have high blood pressure"
        r"|\b(?:if|when)\b[^.;]{0,100},\s*(?:you|they|he|she) (?:have|has) (?:high blood pressure|hypertension)\b"
        # "A PSA level of 4 ng/mL or higher is usually treated as raised"
        # ("Your blood pressure is classed as high if readings taken at the surgery are 140/90 mmHg or above")
        r"|\b(?:is|are) (?:usually |generally |normally |now )?(?:treated|regarded|considered|counted|classed|taken"
        r"|classified|reported|flagged"
        r"|categori[sz]ed) as (?:raised|abnormal|high|elevated|positive|(?:stage [12] )?hypertension)\b"
        # ("The test now counts as abnormal when it finds 120 micrograms of haemoglobin per gram of faeces or more")
        r"|\b(?:counts?|is counted|is read|reads) as (?:abnormal|positive|raised|high|elevated)\b"
        # ("A result of 3 ng/mL or more is higher than expected for men aged 50 to 69, and your GP will usually arrange
        # a second test")
        r"|\b(?:is|are) (?:usually )?(?:higher|above|more) than (?:expected|normal)\b"
        # ("a PSA result of 4.0 ng/mL or higher ..., which the programme treats as a raised PSA")
        r"|\btreats? (?:it |them )?as (?:an? )?(?:abnormal|positive|raised|high|elevated)\b"
        # ... and a measure that leaves out the men whose PSA is already raised: "Exclusions for both measures: a
        # previous PSA result of 3.0 ng/mL or higher, current treatment with a 5-alpha-reductase inhibitor, ..."
        r"|^\W*exclusions?\b[^.;:]{0,40}:\s*(?:an? )?(?:previous |prior |recent |earlier |last )?PSA (?:result |level "
        r"|value |test )?(?:of )?(?:above |over |at or above )?\d"
        # a threshold moved to its new value: "the diagnostic threshold for hypertension has been lowered to 130/80
        # mm Hg"
        r"|\b(?:threshold|cut-?off)\b[^.;]{0,50}\b(?:has|have) been (?:\w+ )?(?:lowered|raised|reduced|increased|moved"
        r"|changed) to\b"
        # (not a vote's rule: "with consensus defined in advance as at least 75 % agreement")
        r"|\bdefine[sd]?\b(?! (?:in advance |beforehand )?as (?:agreement\b"
        r"|(?:at least |more than |over )?\d+\s*% (?:of|agreement)\b))"
        # a leaflet's other goal for some people: "If you are older and frail ..., your target will usually be higher:
        # below 69 mmol/mol (8.5%)"
        r"|\b(?:the|your|their) (?:\w+ )?(?:goal|target) (?:will|may|can|would|is likely to) (?:usually |often "
        r"|generally )?be (?:higher|lower|less strict|less tight|looser|tighter|more relaxed)\b"
        # ("The treatment goal for adults under 80 years is a clinic blood pressure below 140/90 mm Hg")
        r"|\b(?:the|your|their) (?:\w+ )?(?:goal|target)(?: range)?(?: (?:for|in) [^.;,]{1,40}?)? is\b"
        # an order set's default: "Record the individual HbA1c target; the network default for adults with type 2
        # diabetes is below 53 mmol/mol"
        r"|\b(?:the|a) (?:\w+ )?default (?:goal |target )?(?:(?:for|in) [^.;,]{1,50}?)?is (?:below|under|less than"
        r"|<|≤|at or below)"
        # what a result sets off: "A PSA of 4 ng/mL or above triggers a repeat test within six weeks"
        # ("a PSA of 4.0 ng/mL or higher, or a rise of more than 0.75 ng/mL within a year, triggers a repeat test")
        rf"|\b(?:or (?:above|higher|more)|and above)\b(?:[^.;]{{0,15}}|,(?:[^.;,]|\.\d){{0,60}},\s*)\btriggers? "
        rf"(?:a |an )?{_NEXT_STEP}\b"
        # ("a PSA value above 4.0 ng/mL warrants referral to a urologist", "A PSA level above 4 ng/mL is usually
        # followed by a repeat test")
        rf"|\bwarrants? (?:a |an )?{_NEXT_STEP}\b"
        # ("The FIT result that triggers referral has been lowered from 120 to 80 µg Hb/g")
        rf"|\b(?:result|level|value|reading|amount) that (?:triggers?|prompts?|leads? to) (?:a |an )?(?:{_NEXT_STEP}"
        r"|colonoscopy|biopsy)\b"
        # "A PSA level of 4 ng/mL or more is usually a reason for your GP to refer you to a hospital specialist"
        r"|\b(?:is|are) (?:usually |normally |generally )?a reason (?:for [\w ]{1,30} )?to refer\b"
        rf"|\b(?:is|are) (?:usually |normally |generally |then )?followed by (?:a |an )?(?:{_NEXT_STEP}|biopsy"
        r"|colonoscopy)\b"
        # a letter's next step at a result: "If the amount found is 80 micrograms of haemoglobin per gram of faeces or
        # more, we will contact you within two weeks to arrange a colonoscopy"
        rf"|\b(?:or (?:above|higher|more)|and above)\b[^.;]{{0,10}},\s*(?:we|they|your (?:GP|doctor|nurse)) will "
        rf"(?:contact|call|phone|write to) you\b[^.;]{{0,40}}\bto arrange (?:a |an |your )?(?:{_NEXT_STEP}|biopsy"
        r"|colonoscopy|scan)\b"
        # a test worth having only for some: "Testing is generally only worthwhile if you expect to live at least ten
        # more years"
        r"|\b(?:is|are) (?:generally |usually |likely to be )*(?:only worthwhile|worthwhile only) (?:if|when|for|in)\b"
        r"|\b(?:first |main )?objective of (?:treatment|therapy) is\b"
        # "a diagnosis of hypertension is established by a sustained office blood pressure of ..."
        r"|\bdiagnos\w+ (?:of \w+ )?(?:is|are) (?:established|made|confirmed) (?:by|at|when)\b"
        # ("hypertension is still diagnosed at a clinic blood pressure of 140/90 mm Hg or above")
        # ("Diabetes is diagnosed when your HbA1c is 48 mmol/mol (6.5%) or above")
        r"|\b(?:hypertension|diabetes|prediabetes) (?:is|are) (?:still |now |only )?(?:diagnosed|present|defined"
        r"|confirmed) "
        # ("the League has lowered the blood pressure at which hypertension is diagnosed from 140/90 to 130/80 mm Hg")
        r"(?:when|at|if|by|as|from \d[\d./]* to)\b"
        # ("Hypertension continues to be diagnosed at a clinic blood pressure of 140/90 mm Hg or above")
        r"|\bhypertension (?:continues to be|remains) (?:diagnosed|defined|confirmed) (?:when|at|if|by|as)\b"
        # ("the Association has lowered the clinic threshold for diagnosing hypertension from 140/90 to 130/80 mm Hg")
        rf"|\b{DIAGNOSED_AT} from \d[\d./]* to\b"
        # "the diagnostic threshold for hypertension is now 130/80 mm Hg", "retains the definition of hypertension as"
        r"|\b(?:threshold|cut-?off) (?:for|of) (?:\w+ ){0,3}(?:is|are) (?:now |still )?(?=\d|[<>≥≤])"
        # "a PSA of 3.0 ng/mL or higher is now the threshold for referral"
        r"|\b(?:is|are) (?:now |still )?the (?:\w+ )?(?:threshold|cut-?off) for\b"
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
        # "people with a negative baseline scan are rescanned at 24 months"
        r"|\b(?:is|are) (?:then )?(?:rescanned|rescreened|retested|recalled) (?:at|after|in|every)\b"
        # a change note's new population: "This edition also extends formal risk assessment to everyone aged 30 to 84"
        r"|\bextends? (?:[\w-]+ ){0,3}to (?:everyone|everybody|all|adults|people|women|men)\b"
        # an insurer's criteria: "The member is 50 through 77 years of age; has a smoking history of ..."
        r"|^\W*the (?:member|patient|enrollee|beneficiary|individual) is (?:aged )?\d{2}\b"
        # whom a recommendation applies to (:data:`APPLIES_TO`, :func:`rules.is_recommendation_text`)
        rf"|{APPLIES_TO}"
        # ... and its smoking criterion: "The member has a tobacco smoking history of at least 20 pack-years"
        r"|^\W*the (?:member|patient|enrollee|beneficiary|individual) has (?:a |an )?(?:[\w-]+ ){0,2}smoking "
        r"history of\b"
        r"|\bbegins? at\b|\bqualify\b|\bget (?:screened|tested|checked)\b"
        rf"|{NEW_AGE}"
        r"|\b(?:is|are|remains?) (?:still )?(?:appropriate|indicated)\b"
        # ("You will continue to be invited until your 71st birthday")
        r"|\b(?:will|'ll|’ll) (?:continue to |still |next )?be (?:invited|sent|offered)\b"
        r"|\b(?:will|'ll|’ll) (?:post|send|mail) you\b"
        # "we will write to you once every three years", "invitations are sent once every three years"
        r"|\b(?:will|'ll|’ll) (?:write to|remind) you\b|\binvitations? (?:are|is) (?:sent|posted|mailed)\b"
        # ("we keep inviting people until their 75th birthday")
        r"|\b(?:(?:will|'ll|’ll) )?keep (?:inviting|sending|screening|offering|writing to)\b"
        r"|\bcontinues? (?:to invite|inviting)\b"
        # a leaflet's schedule: "your team will check your HbA1c every three to six months", "You will usually have the
        # test every 3 months while your treatment is being adjusted"
        r"|\b(?:you|they) (?:will|'ll|’ll) (?:usually |normally )?have (?:the|a|an|your) (?:[\w-]+ )?(?:test|check"
        r"|scan)s? (?:every|each|once|twice)\b"
        r"|\b(?:will|'ll|’ll) (?:usually )?(?:check|measure|test|review) (?:your|you)\b"
        # "your nurse or doctor will take a cytology (smear) test every 3 years"
        r"|\b(?:will|'ll|’ll) (?:usually )?take an? (?:[\w()-]+ ){0,3}test\b"
        r"|\b(?:are|is) (?:recalled|re-?invited)\b|\baims? to\b|\btry to (?:keep|reach|achieve|get|bring)\b"
        # "Most people with a cervix are invited for their first test at 25", "your next test will usually be in 5
        # years"
        r"|\b(?:are|is) (?:first |usually |routinely )?invited (?:for|to)\b"
        r"|\bnext (?:test|screen\w*|invitation|scan|check) (?:will|would) (?:usually |normally |generally )?be "
        r"(?:due )?in\b"
        # ("If your HPV test is negative and you are 40 or older, your next invitation will come after ten years")
        r"|\bnext (?:test|screen\w*|invitation|scan|check) (?:will|would) (?:usually |normally |generally )?"
        r"(?:come|arrive) (?:after|in)\b"
        # "so home test kits are now sent from age 50 instead of from age 60"
        r"|\b(?:kits?|invitations?|letters?) (?:are|is) (?:now |still )?(?:sent|posted|mailed) (?:from|to|at|every)\b"
        # a quality measure's schedule: "the biennial schedule on which the measure is built"
        r"|\b(?:on|around) which the measure is (?:built|based)\b"
        # a programme's kit ("residents aged 50 to 74 are mailed a FIT kit every two years"), guidance cited in the
        # subjunctive ("aligns with clinical guidance that women aged 50 to 74 years be screened every two years"),
        # a patient summary's usual practice ("most men have a PSA test once a year"), a goal named after its value
        # ("a reading below 150/90 is usually the goal")
        r"|\b(?:is|are) (?:mailed|posted)\b"
        # a programme's offer: "are offered a repeat scan every two years", "A low-dose CT scan is offered when ..."
        r"|(?<!be )\b(?:is|are) offered (?:a |an )?(?:repeat |further |low-dose |LDCT )?(?:scan|CT|test|screen)\b"
        r"|\b(?:scan|CT|test|screen|screening) is offered (?:when|if|to)\b"
        # the wait until the next test: "If no HPV is found, you will not need another test for 5 years"
        r"|\b(?:will not|won't|do not|don't) need another(?: one| test)? (?:for|within|before) (?:at least )?"
        r"(?:\d|one|two|three|four|five|six|seven|eight|nine|ten)\b"
        r"|\b(?:guidance|advice|recommendations?) that\b[^.;]{0,80}\bbe (?:screened|tested|offered|treated)\b"
        r"|\bmost (?:men|women|people|adults|patients) (?:have|get|need|repeat)\b"
        # ... or named first: "The aim of treatment is a reduction in LDL cholesterol of 30 % to 49 % from baseline"
        r"|\bthe (?:aim|goal|target|objective) of (?:the )?(?:treatment|therapy|statin therapy|drug treatment) "
        r"(?:is|are)\b"
        # ... or kept ("an HbA1c under 7.0% (53 mmol/mol) remains the goal for most non-pregnant adults")
        r"|\b(?:is|remains) (?:usually |generally |typically )?the (?:appropriate |recommended |preferred )?"
        r"(?:goal|target)\b"
        # a consensus on a goal: "the panel agreed that an A1C below 7.0% (53 mmol/mol) is an appropriate target", a
        # leaflet's "For most adults with type 2 diabetes, a good goal is an A1C below 7% (53 mmol/mol)"
        r"|\bis an? (?:appropriate|reasonable|suitable) (?:goal|target)\b"
        r"|\ban? (?:good|sensible|usual|suitable) (?:goal|target) (?:for [^.;,]{1,40}?)?is\b"
        # a goal stated as what it is: "The general HbA1c goal for most non-pregnant adults ... is now below 7.0%"
        r"|\b(?:goal|target)\b[^.;]{0,80}\b(?:is|are|remains?) (?:now |still )?"
        # ("The treatment target for people under 80 remains a clinic blood pressure below 140/90 mm Hg")
        r"(?:an? (?:clinic |office |home )?(?:blood pressure|BP|reading|A1C|HbA1c|level) )?(?:below|under|less than"
        r"|lower than|between)\b"
        # ... or as kept: "For older adults with frailty ..., the goal of below 8.0% (64 mmol/mol) is unchanged"
        r"|\b(?:goal|target) (?:of )?(?:below|under|less than|lower than|between)\b[^;]{0,60}?\b(?:is|are|remains?) "
        r"unchanged\b"
        # a patient summary's definition: "your doctor will usually say you have high blood pressure (hypertension)
        # if your readings are 140/90 or higher"
        r"|\b(?:say|tell)s? (?:that )?you have (?:high blood pressure|hypertension)\b"
        # (not a leaflet's errand: "Bring your latest result to your annual diabetes review")
        rf"|{IMPERATIVE_AT}(?:Screen|Initiate|Start|Offer|Begin|Use|Treat|Confirm|Diagnose|Help|Support|Keep"
        r"|Bring(?! (?:your|the|a) (?:latest |last |most recent |recent )?(?:results?|record|sheet|diary|list|notes?"
        r"|book|readings)\b)"
        r"|Aim|Lower|Reduce|Agree|Set|Order|Perform|Repeat|Prescribe|Arrange|Schedule|Titrate|Calculate|Estimate|Refer"
        r"|Measure|Check|Recheck|Re-check|Assess|Monitor|Relax|Intensify|Review|Deintensify|Classify"
        # a pathway's step: "Step 2: For those aged 21 to 29, take a cytology sample every three years"
        r"|Take (?:a|an|the) (?:[\w-]+ ){0,4}(?:sample|test|swab|smear|reading|measurement)|Invite|Recall"
        # a leaflet's "If you are 40 or over, have your blood pressure checked at least once a year"
        # (not "... and have an HPV test every 5 years", the same clause's second verb)
        r"|Have your (?:[\w-]+ ){0,3}(?:checked|measured|tested))\b"
        # "Recommendation 2 (strong): continue screening through age 75" (a sentence's or a label's own imperative,
        # not a coordinated "... start at 40 and continue up to age 74")
        rf"|(?-i:^\W*Continue\b)|^\W*{LABEL}continue\b"
        # "testing it once every 12 months is sufficient", "a repeat test every two years is usually enough" (not
        # "there is sufficient evidence that", a finding, nor "is enough to diagnose diabetes", a definition)
        r"|(?<!there )\b(?:is|are) (?:usually |generally )?(?:sufficient|enough\b(?!\s+to\b))\b"
        r"(?!\s+(?:evidence|data|proof)\b)"
        # a pathway's step named by its verb ("Step 3, order: total PSA, repeated at 24-month intervals") and a
        # summary table's row or a step named by its facet ("Frequency, for men aged 50 to 69: a PSA test every 12
        # months", "Step 3, treatment targets: clinic blood pressure below 140/90 mmHg")
        rf"|^\W*{STEP}(?:order|offer|screen|test|repeat|arrange|refer|schedule)\b"
        # an order set's indication: "Indication for the default statin order: age 40 to 75 years, ..."
        r"|^\W*indications? for (?:the |a |this )?(?:[\w-]+ ){0,3}(?:order|prescription|therapy|treatment)\s*:"
        rf"|^\W*(?:{STEP})?(?:(?:screening |repeat |recall )?(?:frequency|interval)|repeat testing"
        r"|(?:treatment |blood pressure |BP |A1C |HbA1c )?(?:targets?|goals?))\b"
        r"[^:.;]{0,60}:",
    ),
)
