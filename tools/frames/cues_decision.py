"""Action cues of an individual decision: shared decision-making, a choice left to the person, a discussion before
a test, screening for those who chose it; checked after the cues against (:data:`action_cues.ACTION_CUES`)."""

from __future__ import annotations

DECISION_CUE: tuple[str, str] = (
    "individual_decision",
    # (not "an individualised, risk-adapted strategy", which is what is recommended)
    r"\bindividual (?:decision|one|basis)|\bbe individual(?=\s*(?:[,.;(]|and\b))"
    # ("For patients aged 76 to 85, decide individually with the patient whether to screen further")
    r"|\b(?:decide|decided|decision made) individually\b"
    # ("clinicians should discuss whether to continue in light of each woman's health and preferences")
    r"|\bdiscuss (?:with (?:her|him|them|the (?:patient|woman|man|person)) )?whether to (?:continue|start|begin|stop"
    r"|screen|be screened|test|be tested|take)\b"
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
    # ("Your doctor may talk to you about it if you are between 40 and 59 and your chance ... is 10% or more")
    r"|\b(?:may|can|will|might) (?:talk|speak) (?:to|with) (?:you|them|him|her) about (?:starting|beginning|taking"
    r"|adding|whether|it|this)\b"
    r"|\bdecide (?:on |about )?(?:it )?together\b"
    # "Step 4: If the risk is 7.5% to 9.9%, discuss the option of a statin using the shared decision-making tool"
    r"|\bdiscuss (?:the )?(?:option|possibility|choice) of\b"
    # "if it is 5% to 9.9%, discuss a statin as an option and record the shared decision"
    r"|\bdiscuss (?:a|an|the) (?:[\w-]+ ){0,2}?[\w-]+ as an? (?:option|choice)\b"
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
)

# a choice offered on its own ("may choose biennial screening"); after "should", which states the main action
MAY_CHOOSE: tuple[str, str] = ("individual_decision", r"\bmay choose\b|\bmay opt\b")
