"""Action cues against a test or treatment, and of no stance: insufficient evidence, discourage (permission to stop
among them, :data:`MAY_STOP_CUE`) and recommend against; checked first (:data:`action_cues.ACTION_CUES`)."""

from __future__ import annotations

from clinrag.tools.frames.imperative import IMPERATIVE_AT
from clinrag.tools.frames.lexicon import OVERUSE
from clinrag.tools.frames.no_stance import STEP

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

# (action, cue) for insufficient evidence, discourage and recommend against, in this order
AGAINST_CUES: tuple[tuple[str, str], ...] = (
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
        # ("It should also not be offered to men whose life expectancy is less than 10 years")
        r"|\bnot (?:advised|suggested|indicated|endorsed)\b|\b(?:should|must)(?: also| still| therefore)? not\b"
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
        # ("invitations begin at 25 and screening ends at 65 for people with adequately negative recent results")
        r"|(?:^\W*|\band )(?:screening|testing|recall) (?:stops|ends|ceases) (?:at|after|on|from|by)\b"
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
)
