"""Lexical action cues: which words state which action of a recommendation (recommend, suggest or consider,
individual decision, insufficient evidence, recommend against, discourage), checked in order, first match wins.
:func:`rules.action` applies them after a grade or class, which decides when present."""

from __future__ import annotations

from clinrag.tools.frames.lexicon import DIAGNOSED_AT, OVERUSE
from clinrag.tools.frames.no_stance import NEW_AGE, STEP
from clinrag.tools.frames.programme_cues import OFFERED

# Where an imperative stands: opening the sentence, or after an opening phrase ("For primary prevention, offer ...",
# "At the lung health check, calculate ...", "From age 30 to 65, screen ...", "Once on treatment, treat to ...",
# "where the calculated risk is 10% or above, offer atorvastatin ...") or a label of up to six words ("NICE: offer
# ...", "Key points for clinicians: offer ...", a pathway's "Step 2, ages 21 to 29: order ...") or a section number
# ("4.4 Measure A1C ...", an order set's "(1) Order HbA1c ...") or a conjunction that opens a later part ("..., and do
# not screen after 85").
# "Recommendation 2 (strong): ", a pathway's condition "Step 3: 10-year risk of 7.5% or more: start a statin"
_LABEL = r"[A-Z0-9][\w/-]{1,15}(?:,? [\w/.%-]{1,15}){0,5}(?:\s*\([^()]{0,60}\))?:\s*"
IMPERATIVE_AT = (rf"^\W*(?:\d+(?:\.\d+)*[.)]?\s+|{STEP}|(?:and|or|then|but)\s+)?"
                 rf"(?:{_LABEL})?"
                 # (a condition's list in brackets is part of it: "If the 10-year risk is 10% or more and the patient
                 # has at least one risk factor (dyslipidaemia, diabetes or hypertension), offer ...")
                 r"(?:(?:for|in|among|if|when|where|once|from|between|aged?|per|according to|at)\b"
                 r"(?:[^,;()]|\([^()]{0,100}\)){0,160},\s*)?")

# permission to stop ("can stop", "may exit screening", "may be discontinued", "it is appropriate to stop", "no longer
# need"): a cue of "discourage", and what turns a favourable grade into one (:func:`action`)
# (not what the test does: "Cervical screening can stop cancer before it starts")
MAY_STOP_CUE = (r"\b(?:can|may) (?:stop|discontinue|cease|end|exit|leave)\b"
                r"(?! (?:\w+ )?(?:cancers?|disease|deaths?)\b(?! screening| testing| tests?\b))"
                # a measure's step: "review ... screening status ... at the 70th birthday and record a decision to stop"
                r"|\b(?:record|document)\w* (?:a |the )?decision to stop\b"
                r"|\b(?:can|may) be (?:stopped|discontinued|ended)\b"
                r"|\b(?:appropriate|reasonable|acceptable) to (?:stop|discontinue|cease)\b|\bno longer needs?\b"
                r"|\bconsider (?:stopping|discontinuing|ceasing|ending)\b")

# a value an edition put in place of the old one ("the relaxed target ... used in the 2019 edition has been replaced by
# a target range of 58 to 64 mmol/mol"): what is advised now, a cue of "recommend"
REPLACED_BY_NEW = (r"\b(?:has|have) been replaced (?:by|with) (?:a |an )?(?:[\w-]+ ){0,2}(?:target|goal|threshold"
                   r"|cut-?off|interval|range)\b")

# what a result sets off ("triggers a repeat test", "warrants referral", "is usually followed by a repeat test", "is
# usually followed by a second test")
_NEXT_STEP = r"(?:repeat|referral|further|urology|specialist|MRI|second test|second PSA)"

# Lexical action cues, checked in this order (first match wins).
ACTION_CUES: tuple[tuple[str, str], ...] = (
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
        # (not "to discourage overtreatment", the harm of too much of it)
        rf"\bdiscourag\w*\b(?! (?:the )?{OVERUSE})|\bconsider not\b|\bsuggests? (?:against|not)\b|{MAY_STOP_CUE}"
        r"|\bnot (?:necessary|needed)\b"
        # "suggests that clinicians refrain from screening", "suggest that persons who are up to date with screening
        # stop routine screening after age 75"
        r"|\bsuggest\w*\b[^.;]{0,40}\brefrain\w* from\b"
        # "Most men aged 70 or older are unlikely to benefit, and we suggest that they do not start PSA testing"
        r"|\bsuggest\w* that (?:\w+ ){1,3}(?:do not|don't|not|should not)\b"
        # (not "suggest that screening continue up to age 70 and then stop")
        r"|\bsuggest\w* that\b(?:(?!\bcontinu)[^.;]){0,60}\bstop\b"
        # an insurer's "not considered routine" for older members; a leaflet's "the test is not usually offered"
        r"|\bnot considered routine\b|\b(?:is|are) not (?:usually|routinely|normally) offered\b"
        # ("If you are 70 or older and have no symptoms, the test is not usually recommended")
        r"|\b(?:is|are) not (?:usually|normally|generally) recommended\b"
        # ("We do not usually suggest the test once you are 75 or older unless you have symptoms")
        r"|\b(?:do|does|would) not (?:usually|normally|generally|routinely) (?:suggest|offer|advise|recommend)\b"
        # ("We don't suggest the test for men aged 70 or over who have no symptoms")
        r"|\b(?:(?:do|does|would) not|don[’']t|doesn[’']t|wouldn[’']t) suggest\b"
        # a leaflet's "Once you are over 75, testing is not usually helpful", "the test is unlikely to help you"
        r"|\b(?:is|are) not (?:usually |generally |often |very )?(?:helpful|useful|worthwhile)\b"
        r"|\b(?:is|are) unlikely to (?:help|benefit) (?:you|them|him|her)\b"
        # "do not need screening", "do not need to continue/go for screening"; not "don't need to change your diet"
        # (not the wait until the next test: "if it is negative you will not need another one for five years")
        r"|\b(?:(?:do|does|will) not|don't|doesn't|won't) need\b"
        r"(?! to (?!(?:continue|go|have|get|undergo|be|keep|start|attend)\b))(?! another\b)"
        # "No one younger than 21 needs cervical screening"
        r"|\b(?:no one|nobody|no (?:woman|man|adult|person))\b[^.;,]{0,40}\bneeds?\b",
    ),
    (
        "recommend_against",
        r"\brecommend(?:s|ed)? (?:against|not)\b|\b(?:does|do|did) not (?:recommend|advise)|\bnot recommended\b"
        # "PSA screening of men aged 70 and older is non-recommended care"
        r"|\bnon-?recommended\b"
        r"|\bnot (?:advised|suggested|indicated|endorsed)\b|\bshould not\b|\bmust not\b"
        r"|\badvis\w* (?:against|stopping)|\badvis\w* (?:\w+ ){0,2}to (?:stop|discontinue)\b"
        # "Once you reach 70, we advise that you stop having PSA tests"
        r"|\badvis\w* that (?:you|they|he|she|patients|men|women|people) (?:should )?(?:stop|discontinue)\b"
        r"|\b(?:comes?|came|coming) (?:down|out) against\b|\bargu\w* against\b"
        # ("If you are older than 70, kits are no longer sent automatically")
        r"|\bno longer (?:recommended|advised|offered|covered|satisf(?:y|ies)|counts?|(?:be )?invited|sent|posted"
        r"|mailed)\b"
        # "after that you will not be invited again if your recent tests were normal"
        r"|\b(?:will|'ll|’ll) not be (?:invited|sent|offered|recalled) (?:again|any more|anymore)\b"
        r"|\bwon[’']t be (?:invited|sent|offered|recalled) (?:again|any more|anymore)\b"
        # what an organization stopped advising: "the Council no longer endorses a general goal below 7%", "co-testing
        # is no longer endorsed"
        r"|\bno longer (?:recommends|endorses|supports|advocates|advises|endorsed|supported)\b"
        r"|\b(?:tell|advis|ask|urg|instruct)\w* (?:\w+ ){0,3}not to\b"
        # (not a drug to avoid beside a goal: "aim for an HbA1c below 8.5% and, where possible, avoid glucose-lowering
        # drugs that cause hypoglycaemia")
        # (nor an outcome: "about 6 will avoid a heart attack or stroke")
        # (nor a goal's reason: "an A1C between 7% and 8% strikes the right balance between preventing complications and
        # avoiding low blood sugar", "focus on avoiding symptoms of high blood sugar")
        r"|(?<!will )(?<!would )\bavoid\w*\b(?! (?:[\w-]+ ){0,3}(?:drugs|medicines|medications|agents) that\b)"
        r"(?! (?:low blood|hypo|symptoms\b))"
        # (nor how to prepare for the test: "order a total PSA and ask him to avoid ejaculation and vigorous exercise")
        r"(?! (?:ejaculation|sexual activity|sex|vigorous exercise|cycling|exercise)\b)"
        r"|\brefrain\w* from\b"
        r"|\b(?:is|are) not to be\b|\b(?:is|are) not (?:invited|screened|offered|recalled|assessed|enrolled)\b"
        # a pathway's end: "Patients aged 75 and over are outside this pathway and should be referred for an
        # individual review"
        r"|\b(?:is|are|fall|falls|lie|lies) outside (?:this|the) (?:pathway|programme|program|order set)\b"
        # an inverse quality measure counts overuse: "percentage of men 70 years and older who were screened
        # unnecessarily for prostate cancer"
        r"|\b(?:screened|tested|imaged|treated) (?:unnecessarily|inappropriately)\b"
        # ... and a measure that says so of itself: "Companion measure HQ-42 (inverse): the proportion of patients aged
        # 60 years and older ... who have an active aspirin prescription ...; a lower rate indicates better care"
        r"|\b(?:proportion|percentage|share) of\b[^.]*\ba lower (?:rate|score|percentage) (?:indicates|means|reflects) "
        r"better (?:quality|performance|care)\b"
        # ("Measure FM-31b (non-recommended screening, inverse measure): Denominator: men aged 75 and older ...;
        # Numerator: those with a screening PSA test, so that a lower rate indicates better care")
        # (not a sentence that only says what kind of measure it is: "This is an inverse measure: a lower rate ...")
        r"|\binverse (?:quality |performance )?measure\b[^.]*\b(?:denominator|numerator)\b[^.]*\ba lower (?:rate|score"
        r"|percentage) (?:indicates|means|reflects) better (?:quality|performance|care)\b"
        # an order set's block: "the order set displays 'Do not initiate aspirin for primary prevention' and the order
        # is blocked"
        r"|\border (?:is|will be) blocked\b|\bdisplays? ['\"‘“](?:do not|don't)\b"
        # an insurer's exclusion: "screening of members aged 76 and older is considered not medically necessary"
        r"|\b(?:is|are) (?:(?:considered |deemed )?not|not (?:considered|deemed)) (?:medically necessary|covered)\b"
        # ("Members older than 75 are not eligible for the no-cost benefit, although statins prescribed for them are
        # covered at the standard tier": the preventive benefit ends; a drug's usual cost sharing is no advice)
        r"|\b(?:is|are) (?:no longer |not )eligible for (?:the |this |a )?(?:no[- ]cost|zero[- ]cost|free|preventive"
        r"|no[- ]copay\w*|cost[- ]free)\b"
        # ... and its labelled list: "Not medically necessary: screening of members younger than 21; ..."
        r"|^\W*not (?:medically necessary|covered)\s*:"
        # a programme's or pathway's end: "you'll stop being invited", "Exit the pathway at the patient's 78th birthday"
        r"|\b(?:stop|cease) being (?:invited|screened|offered)\b|\binvitations? (?:stop|end|cease)\b"
        # "Once you are older than 77, ..., routine scans end"
        r"|\b(?:routine|regular) (?:scans|screening|tests|testing|invitations|recall) (?:stop|end|cease)s?\b"
        # ("Screening ends at the 65th birthday for anyone whose last three tests were negative")
        # (not "Screening ends when 15 years have passed since the last cigarette", a criterion)
        r"|^\W*(?:screening|testing|recall) (?:stops|ends|ceases) (?:at|after|on|from|by)\b"
        rf"|^\W*(?:{STEP})?(?:exit|leave|discharge (?:\w+ )?from)\b[^.;]{{0,20}}"
        r"\b(?:pathway|programme|program|screening|recall)\b"
        # "Step 4, exit: patients leave the recall list at their 71st birthday"
        r"|\b(?:leave|exit|(?:are |is )?removed from|come off|drop off) the (?:\w+ )?(?:recall|invitation|screening) "
        r"(?:list|register)\b"
        # "screening ... before age 25 is not supported" (not "is not supported by the evidence", a finding)
        r"|\b(?:is|are) not supported\b(?! by\b)"
        # "Do not screen ...", "For ..., do not offer ...", "Stop screening once ..."
        rf"|{IMPERATIVE_AT}(?:(?:Do not|Don't)\s+(?:routinely\s+)?"
        r"(?:screen|offer|use|start|begin|treat|prescribe|initiate|test|recommend|order|perform|provide)|Stop|Discontinue)\b"
        r"|\b(?:should|must)(?: also)? (?:stop|discontinue|cease|end|be (?:stopped|discontinued|ceased|ended))\b"
        # an order set's step that goes on: "order 'LDCT chest - screening', to be repeated yearly ..., and stop when
        # the patient turns 81"
        r"|\b(?:and|then) (?:stop|discontinue) (?:screening |testing |it |the (?:test|scans?|screening) )?"
        r"(?:when|once|at|after)\b",
    ),
    (
        "individual_decision",
        # (not "an individualised, risk-adapted strategy", which is what is recommended)
        r"\bindividual (?:decision|one|basis)|\bbe individual(?=\s*(?:[,.;(]|and\b))"
        # ("For patients aged 76 to 85, decide individually with the patient whether to screen further")
        r"|\b(?:decide|decided|decision made) individually\b"
        # (nor "Box A, individualised target: ... aim for an HbA1c between 7.0% and 8.0%", the goal recommended)
        r"|\bindividuali[sz]e[ds]?\b(?![\w ,-]{0,40}\b(?:strategy|approach|plan|target|goal)\b)"
        r"|\binformed (?:decision|choice)|\bmakes? (?:his|her|their|your) own (?:\w+ )?(?:choice|decision)\b"
        # ("whether to continue is best settled through shared decision-making")
        r"|\b(?:decided|made|settled|determined|taken) (?:through|by|via|with) shared decision|\buse shared decision"
        # "a mammogram may be obtained at the woman's request"
        r"|\b(?:at|on) (?:the (?:woman|man|patient|person|member)['’]s|their|her|his|your) (?:own )?request\b"
        # "therapy should follow a clinician-patient discussion"
        r"|\bfollows? (?:a |an )?(?:clinician[–-]patient |shared |informed )?(?:discussion|conversation)\b"
        r"|\bopportunity to\b|\bselectively\b|\bif the patient chooses"
        # "statin initiation is left to clinical judgment and a discussion with the patient"
        r"|\bleft to (?:clinical judg\w+|the (?:clinician|patient)|individual)\w*"
        r"|\b(?:discussion|conversation)(?: (?:about|of|on) [^.,;]{1,40})? should (?:start|begin)"
        # ("a PSA test should be ordered only after a documented shared decision", not a coverage policy's "documented
        # shared decision-making visit" before the first scan)
        r"|\b(?:a|be|informed,?(?: and)?) (?:documented shared decision\b(?![- ]making)|shared decision\b)"
        r"|\bcase[- ]by[- ]case\b"
        r"|\b(?:offered|offers|have|has) a discussion (?:about|of)\b|\bdecided? together\b"
        # "... (I statement), and decisions should take account of health and personal preference"
        r"|\bdecisions? (?:should|must|will) (?:take account of|take into account|be based on|reflect)\b"
        # ("..., and clinicians should weigh health status and prior results with the patient")
        r"|\bweigh\w*\b[^.;]{0,60}\bwith (?:the|each|their|your) (?:patient|woman|man|person|member)\b"
        # a consideration weighed against what the person wants: "For people aged 85 or older, a statin may be
        # considered, taking into account frailty, life expectancy and the person's wishes"
        r"|\b(?:taking|take|takes) (?:into account|account of)\b[^.;]{0,60}\b(?:(?:person|patient|woman|man|individual)"
        r"['’]s|their|her|his|your) (?:own )?(?:wishes|preferences|values)\b"
        # "In adults older than 75, a clinician-patient discussion about starting a statin is reasonable"
        r"|\b(?:clinician[–-]patient|shared|informed) (?:discussion|conversation) (?:about|of|on) (?:starting|beginning"
        r"|initiating|whether)\b"
        # "aspirin is appropriate to discuss only when ..., and the decision should be shared with the prescriber"
        r"|\b(?:appropriate|reasonable|worth) to discuss\b|\bdecision (?:should|must|will|is to) be shared\b"
        # "People over 75 should talk to their doctor", "something you and your doctor can decide on together"
        r"|\b(?:should|can|may) talk (?:to|with) (?:their|your|a) (?:doctor|GP|nurse|clinician)\b"
        # ... or the doctor to them: "your doctor may talk to you about starting insulin"
        r"|\b(?:may|can|will|might) (?:talk|speak) (?:to|with) (?:you|them|him|her) about (?:starting|beginning|taking"
        r"|adding|whether)\b"
        r"|\bdecide (?:on |about )?(?:it )?together\b"
        # "Step 4: If the risk is 7.5% to 9.9%, discuss the option of a statin using the shared decision-making tool"
        r"|\bdiscuss (?:the )?(?:option|possibility|choice) of\b"
        # "the age at which PSA screening may be discussed" (not "lifestyle modification should be discussed", a step
        # before a statin)
        r"|\b(?:screening|testing|tests?|it) (?:may|can) be discussed\b|\bmay (?:still |also )?be discussed\b"
        # "For people over 75, starting a statin may be considered when the expected benefit is weighed against
        # comorbidity and life expectancy"
        r"|\bwhen (?:the )?(?:expected |likely |potential )?benefits? (?:is|are) weighed against\b"
        # "whether to take it is a decision you and your doctor should make together"
        r"|\b(?:decision|choice) (?:that )?(?:you|they) and (?:your|their) (?:doctor|clinician|GP|nurse)\b"
        # "PSA-based screening in men aged 50 to 74 is a decision to be made individually with the clinician"
        r"|\b(?:decision|choice) to be made (?:individually|jointly|together)\b"
        # "If you are aged 70 to 74 and in good health, you and your doctor may still decide that testing makes sense"
        r"|\b(?:you|they|he|she) and (?:your|their|his|her) (?:doctor|clinician|GP|nurse) (?:may|can|might|could) "
        r"(?:still |also )?decide\b"
        r"|\b(?:offered|offers) (?:the|a|this) (?:same )?(?:discussion|conversation)\b"
        # "a statin may be considered after you and your doctor talk it through"
        r"|\bafter (?:you|they|he|she) and (?:your|their|his|her) (?:doctor|clinician|GP|nurse) (?:talk|discuss)\b"
        # "your doctor will talk with you about whether testing is right for you - the choice is yours"
        r"|\bthe (?:choice|decision) is (?:yours|theirs|his|hers)\b|\bno right or wrong (?:answer|choice|decision)\b"
        r"|\bcounsel+ed (?:about|on) (?:the )?(?:possible )?"
        r"(?:benefits and harms|harms and benefits|risks and benefits)"
        # a quality measure of the conversation: "Numerator: patients ... with a documented discussion of the benefits
        # and harms of low-dose aspirin" (not a coverage policy's "documented shared decision-making visit" before the
        # first scan, a step of the screening it covers)
        r"|\bdocument(?:ed|ation of) (?:a |the )?(?:shared |informed )?(?:discussion|conversation) (?:of|about) "
        r"(?:the )?"
        r"(?:possible |potential )?(?:benefits and harms|harms and benefits|risks and benefits)\b"
        # "... counts men aged 55 to 69 who had a documented shared decision-making conversation before any screening
        # PSA test": a test that follows a conversation about it
        r"|\bdocumented (?:shared decision[- ]making |informed )?(?:conversation|discussion) before (?:any|a|the) "
        r"(?:first )?(?:screening )?(?:[\w-]+ )?test\b"
        # "no man should have a PSA test without first discussing what a raised result could lead to"
        # (not a warning against stopping a drug: "Never stop aspirin that was prescribed after a heart attack ...
        # without talking to your doctor")
        r"|^(?![^.;]*\bstop\w*\b[^.;]*\bwithout\b)[^.;]*?\bwithout (?:first )?(?:discussing|a discussion|talking)\b"
        # "Black men should begin that conversation at 45"
        r"|\b(?:begin|start|have|hold|open)\w* (?:that|this|the|a|such a) (?:conversation|discussion)\b"
        r"|\b(?:begin|start)\w* (?:talking|discussing)\b"
        r"|\bask (?:your|a|their) (?:doctor|clinician|provider|nurse|GP) (?:about|whether|if)\b"
        # "your risk is higher and you can ask about the test from the age of 45"
        # ("if you are a man aged 50 to 69 you can ask your GP for a PSA blood test")
        # ("If you are 70 or older, you can still ask about the test, and your doctor will talk it through with you")
        # ("those aged 75 or over may still ask for a kit through the helpline")
        r"|\b(?:can|may) (?:still |also )?ask (?:your \w+ )?(?:about|for) (?:the |a )?(?:PSA |FIT |home )?(?:blood )?"
        r"(?:test|testing|screening|kit)\b"
        # a choice after hearing the trade-off: "for adults aged 45 to 49, starting screening may be considered after
        # discussing the small absolute benefit"
        # (not a goal to aim for "after discussing the benefits and harms of drug therapy with the patient": the
        # discussion is how)
        r"|\bconsidered,? after discussing (?:the |its |their )?(?:small |modest |possible |potential |likely "
        r"|limited )*(?:absolute )?(?:benefits?|harms?|risks?|pros and cons|trade-?offs?)\b"
        # ("Patients aged 45 to 49 who ask about screening may be offered FIT after a discussion of the smaller
        # absolute benefit at that age")
        r"|\b(?:offered|considered)(?: (?!after\b)[\w()-]+){0,3},? after a discussion of (?:the |its |their )?"
        r"(?:smaller |small |modest |limited )(?:absolute )?benefits?\b"
        # ("continued testing should be offered only to those in good health ..., after individual discussion")
        r"|\bafter (?:an )?individual discussion\b"
        # ("If you are 85 or older, a statin may still help, and you can decide with your doctor whether it is right
        # for you")
        r"|\b(?:you|they|he|she) (?:can|could|may|should|will) (?:then )?decide (?:together )?with "
        r"(?:your|their|his|her|a) (?:doctor|GP|nurse|clinician|provider|care team)\b"
        # ("you can talk it over together and decide whether aspirin is right for you")
        r"|\bdecide (?:together )?(?:whether|if) (?:[\w-]+ ){0,4}(?:is|are|would be) (?:right|suitable|worthwhile) for "
        r"(?:you|them|him|her)\b|\btalk (?:it |this |things )?over (?:together |with (?:your|their) \w+ )?and decide\b"
        # "screening is a choice you can make with your doctor"
        r"|\b(?:is|are) a (?:choice|decision) (?:that )?(?:you|they|he|she) (?:can |should |will |may )?make\b"
        # screening for the people who chose it: "Frequency, for men who opt in: a PSA test every 12 months", "repeated
        # at 24-month intervals while he ... still wants screening"
        # ("Men who choose to be tested usually have the test repeated each year")
        # ("asymptomatic men aged 50 to 74 years ... who, after reviewing the decision aid, choose to be tested")
        r"|\bwho(?:,[^.;,]{0,60},)? (?:opts?|chooses?|choose|decides?) (?:in\b|for\b|to be (?:tested|screened)\b"
        r"|testing\b|screening\b)"
        r"|\bif (?:the )?(?:patient|man|woman|person|member|you|he|she|they) opts? (?:in|for)\b"
        r"|\bstill wants? (?:screening|to be (?:screened|tested))\b"
        # ("Where screening is chosen, the interval may range from every 2 years to every 4 years")
        r"|\b(?:where|if|when|once) (?:screening|testing|the test|PSA testing) is (?:chosen|elected|wanted|requested)\b"
        # "If you decide to be tested, the test is usually repeated every two years", "If he chooses testing, order a
        # total PSA"
        r"|\bif (?:the )?(?:patient|man|woman|person|member|you|he|she|they) (?:decides?|chooses?|elects?|wants?) "
        r"(?:to (?:be (?:tested|screened)|have (?:the |a )?(?:test|screening)|go ahead|proceed)|testing|screening)\b"
        # "you can choose to start yearly mammograms at 40 if you wish", "If you are between 40 and 44, you can choose
        # to start yearly mammograms now; your doctor can help you decide"
        r"|\bif (?:you|she|he|they) (?:so )?(?:wish|wishes)\b|\b(?:can|could) choose to (?:start|begin)\b"
        # "this is your choice to make with your doctor"
        r"|\b(?:is|are) (?:(?:your|their|her|his) (?:own )?|an? (?:personal|individual) )(?:choice|decision)\b"
        # "If you are 70 or older, the choice is still yours: talk it through with your doctor"; "you can choose to
        # start yearly mammograms now; talk it over with your doctor"
        r"|\bthe (?:choice|decision) is (?:still |always )?(?:yours|theirs|his|hers)\b"
        # ("you can choose whether to have the test after talking it through with your doctor or nurse")
        r"|\b(?:can|could) choose whether\b"
        r"|\btalk(?:ing)? (?:it|this|things) (?:through|over) with (?:your|a|their|the) (?:doctor|clinician|nurse|GP"
        r"|health care provider)\b"
        r"|\bshared decision[- ]making (?:with|about|for)\b"
        # ("taking a low-dose aspirin is a choice to make together with your doctor")
        r"|\b(?:decision|choice) (?:to (?:make|take) )?(?:with|together with|alongside) (?:your|a|their|the) "
        r"(?:doctor|clinician|provider|GP|health care provider)"
        r"|\btalk\w* (?:with|to) (?:\w+ )?(?:doctor|clinician|provider|health care provider)s?(?: [^.,;]{0,25})? about "
        r"(?:whether\b|(?:the )?(?:possible )?benefits and harms)|\bbefore deciding whether\b"
        # "we suggest you talk with your doctor about starting yearly mammograms at 40"
        r"|\b(?:suggest|advise|encourage)\w* (?:that )?(?:you|they|patients|women|men) (?:talk|speak)\w* (?:with|to) "
        r"(?:\w+ )?(?:doctor|clinician|provider|GP|nurse)s? about (?:starting|beginning|having|whether)\b",
    ),
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
        # whom a recommendation applies to: "This recommendation applies to people who currently smoke and to those who
        # formerly smoked, irrespective of how many years ago they quit" (:func:`rules.is_recommendation_text`)
        r"|^\W*(?:this|the) recommendation applies to\b"
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
        rf"|(?-i:^\W*Continue\b)|^\W*{_LABEL}continue\b"
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
    # a choice offered on its own ("may choose biennial screening"); after "should", which states the main action
    ("individual_decision", r"\bmay choose\b|\bmay opt\b"),
)
