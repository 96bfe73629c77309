"""What programmes, letters, insurers, pathways and quality measures say when they offer, cover, send or count a
test: a cue of "recommend" for the people they name (:mod:`.action_cues`), whatever verb a guideline would use. A
programme "offers" and "invites", a letter "will send you a new kit", an insurer "covers" or finds a test "medically
necessary" within "frequency limits", a pathway's entry step says who enters it (:data:`no_stance.ENTRY_STEP`), a
leaflet or decision aid says whom it is for (:data:`no_stance.AUDIENCE`), and a quality measure's denominator names
the people its numerator counts."""

from __future__ import annotations

from clinrag.tools.frames.no_stance import AUDIENCE, ENTRY_STEP

# the end of a measure part's label: "Denominator:", "Numerator (inverse):", "Numerator for the control indicator:",
# "Numerator 1 (good control):"
MEASURE_LABEL_END = r"(?:\s+(?:\d{1,2}[a-z]?|[A-D])\b)?(?:\s*\([^()]{0,40}\)| for (?:the )?[\w -]{1,40}?)?\s*:"

# what a quality measure's numerator counts now, stated in a change note ("the numerator threshold for patients aged 18
# to 64 has been tightened to an HbA1c below 7.0%", "For patients aged 65 to 75 the numerator continues to require a
# most recent HbA1c under 8.0%"): a cue of "recommend" and of a goal (:mod:`.quantities`)
NUMERATOR_NOW = (r"\bnumerator (?:now |still )?(?:continues to require|requires)\b"
                 r"|\bnumerator (?:threshold|cut-?off|target|goal)\b[^.;]{0,60}?\b(?:has been|is now|is|was) "
                 r"(?:tightened|lowered|raised|changed|set|relaxed|loosened|reduced|moved) to\b"
                 # ("a patient now meets the measure when the most recent HbA1c is below 8.0%")
                 r"|\bmeets? the (?:measure|numerator) (?:when|if)\b")

OFFERED = (
    # what a programme offers or an insurer covers, and who is eligible: "the programme now offers a low-dose CT
    # scan once every year", "we will offer you an appointment", "you will usually be offered a statin", "covered
    # tests are one FIT per 12-month period", "former smokers remain eligible"
    r"\boffers\b|\b(?:will|'ll|’ll) (?:usually |normally |generally |then )?be offered\b"
    r"|\b(?:we|they|the (?:programme|program|service|clinic)) (?:will|'ll|’ll) offer\b"
    # a letter's "We offer screening to everyone aged 50 to 70 who is registered with a local practice"
    r"|\bwe (?:now |also |currently )?offer\b"
    # ("If your PSA is 4 ng/mL or above, your doctor will usually refer you to a urologist")
    # ("If your result is normal and you want to keep being tested, most GPs will offer another test every two years")
    r"|\b(?:doctors?|GPs?|nurses?|clinicians?|practices?|team) (?:will|'ll|’ll) "
    r"(?:usually |normally |generally |then )?"
    # ("If your PSA is 3 ng/mL or higher, your GP will usually repeat the test and may refer you for an MRI scan")
    r"(?:offer|refer|repeat (?:the|your) (?:PSA )?(?:test|blood test))\b"
    r"|\bcovers\b|\b(?:is|are|remains?|stays?) (?:still )?covered\b|\bmedically necessary\b|\bfrequency limits?\b"
    # "Covered: screening for members aged 21 through 65, limited to one cytology test every 3 years", "coverage is
    # limited to one primary hrHPV test ... every 5 years"
    r"|^\W*covered\s*:|\bcoverage is limited to\b|\blimited to one\b"
    r"|\bcovered frequenc(?:y|ies)\b"
    # a leaflet's eligibility: "You can have a low-dose CT scan to check for lung cancer if you are aged 50 to 80"
    r"|\b(?:you|they) can (?:now |also |still )?(?:have|get) (?:a|an|the|your|free|screening|screened|tested"
    # ("If your result is normal and you want to keep being tested, you can have another test in two years' time")
    r"|another)\b"
    r"|\bcovered (?:screening )?(?:tests?|services?)\b|\bcan be screened\b"
    # who a leaflet or decision aid is for
    rf"|{AUDIENCE}"
    # an invitation letter ("we send your first invitation when you reach 25"), an order set's inclusion criteria
    r"|\bsends? (?:you |out )?(?:your |an? |its |their )?(?:first )?invitations?\b|\binclusion criteria\b"
    # "Every woman aged 50 to 70 ... is invited once every three years", "first invitations are now sent at age 45"
    # (not "those aged 65 or over are invited only if one of their last three tests was abnormal", an exception)
    r"|\b(?:is|are|will be|gets?|will (?:now |then |usually )?be) (?:now |then |usually )?(?:(?:re-?)?invited|recalled"
    r"|re-?screened|re-?tested)\b"
    r"(?! only (?:if|when)\b)"
    # "Invitations still start when you turn 25 and end at 64"
    r"|\binvitations? (?:still |now |will )?(?:start|begin|continue)s?\b"
    r"|\binvitations? (?:is|are) (?:now |then |usually )?(?:sent|posted|mailed|issued)\b"
    # "The programme is offered to men and women aged 60 to 74", "invitations now go to everyone from age 50"
    r"|\b(?:is|are) (?:now |also |usually )?offered to\b|\binvitations? (?:now |will )?go(?:es)? (?:out )?to\b"
    # a programme's kit: "the programme sends a home test kit ... to everyone aged 50 to 74", "you will receive a
    # new kit every two years"
    r"|\b(?:sends?|posts?|mails?) (?:you |out )?(?:an? |your |the )?(?:free |new )?(?:home |screening )?"
    r"(?:test(?:ing)? )?kits?\b"
    r"|\b(?:will|'ll|’ll) (?:receive|get) (?:an? |your )?(?:first |new |free |further |next )?(?:home |screening )?"
    r"(?:test(?:ing)? )?(?:kit|invitation)s?\b"
    # a pathway's entry step: "Step 1, eligibility: people with a cervix aged 25 to 65 years", and who else may enter
    # ("...; men of Black ancestry or with a father or brother diagnosed with prostate cancer may enter from age 40")
    rf"|{ENTRY_STEP}"
    r"|\b(?:may|can) (?:enter|join) (?:the (?:pathway|programme|program|service) )?(?:from|at) (?:age )?\d{2}\b"
    # a pathway's result step, a level and what to do at it: "PSA 3.0 ng/mL or above → repeat within 6-8 weeks"
    r"|(?:→|->)\s*(?:\w+ ){0,2}?(?:repeat|refer|order|recall|arrange|book)\b"
    # "Your last routine invitation comes at age 60", "you are invited to a free lung health check", "Eligible
    # patients are those aged 50 to 74"
    r"|\b(?:first|last) (?:routine )?(?:invitation|kit|test kit|letter) "
    r"(?:comes|is (?:sent|posted|mailed)|arrives)\b"
    r"|\b(?:you are|you're) (?:being |now )?invited\b|\breceives? (?:their|your|her|his|an?) first invitation\b"
    # "every three years, eligible individuals are invited for cytology" (not "are invited only if"), "we will
    # invite you again in five years", "you are now due for cervical screening, a free test offered to everyone
    # with a cervix aged 25 to 69"
    r"|\b(?:are|is) (?:now )?invited (?:for|to|from)\b|\b(?:will|'ll|’ll) invite you\b"
    # "Eligible people continue to be invited from the age of twenty-five until their 65th birthday"
    r"|\bcontinues? to be invited (?:from|until|up to|to age|every)\b"
    r"|\b(?:we|they) (?:are|'re|’re) (?:now )?inviting you\b|\b(?:is|are) (?:now )?inviting (?:people|adults|men"
    r"|women|everyone|residents|patients)\b"
    # "Everyone aged 50 to 74 who is registered with a general practice is invited", "a free home test kit will be
    # posted to you every two years"
    r"|\b(?:everyone|everybody|all)\b[^.;]{0,60}\b(?:is|are) invited\b"
    r"|\b(?:kits?|invitations?)\b[^.;]{0,40}\b(?:will be|is|are) (?:posted|sent|mailed)\b"
    r"|\b(?:you are|you're) (?:now )?due for\b"
    r"|\boffered to (?:everyone|everybody|all)\b"
    # "Screening continues every two years, and invitations now continue until the 75th birthday"
    r"|\b(?:screening|invitations?) (?:now )?continues? (?:every|until|up to|through|to age)\b"
    r"|^\W*eligible (?:patients|people|adults|persons|residents|women|men|individuals) (?:are|include)\b"
    # a quality measure's denominator: the people who should receive what its numerator counts ("Numerator (good
    # control): ...")
    rf"|^\W*(?:denominator|numerator|eligible population){MEASURE_LABEL_END}"
    r"|^\W*numerator (?:compliance )?(?:is met|requires)\b"
    # ... written as a sentence: "For the control measure, the numerator is members whose most recent HbA1c ... is below
    # 8.0%", "The denominator for both measures is members aged 18 to 75 years with diabetes"
    r"|^\W*(?:for (?:the |each )?[\w -]{1,40}?,\s*(?:[\w -]{1,40},\s*)?)?the (?:denominator|numerator)"
    r"(?: for (?:the |both |each )?[\w -]{1,30}?)? (?:is|are|includes?|comprises?)\b"
    rf"|{NUMERATOR_NOW}"
    # a quality indicator's count of good control: "Indicator DM-3 records the percentage of patients ... whose most
    # recent HbA1c ... is 58 mmol/mol (7.5%) or less"
    r"|\b(?:indicator|measure)\b[^.;]{0,30}\b(?:records|counts|reports|is) (?:the )?(?:percentage|proportion|share)"
    r" of\b"
    # "Description: the percentage of members 45 to 75 years of age who had appropriate screening for colorectal
    # cancer"
    r"|^\W*description\s*:\s*(?:the )?(?:percentage|proportion) of\b"
    r"|\b(?:remain|are|is|become) eligible\b"
    # a leaflet's "You can take part if you are aged between 55 and 80 and you have smoked ... 20 pack-years", "you can
    # still take part as long as you quit within the last 15 years"
    r"|\bcan (?:still |now |also )?take part\b"
    # ("the requirement that former smokers must have quit within the last 15 years has been removed, so the time
    # since quitting no longer affects eligibility": who is eligible now)
    r"|\bno longer (?:affects?|determines?|limits?|restricts?) (?:eligibility|who is eligible|who qualifies)\b"
    # ("It no longer matters how long ago you stopped smoking, so people who quit 15 years ago or more are now
    # included")
    r"|\b(?:are|is) now included\b"
    # a measure's schedule: "one A1C test every 12 months is treated as the expected testing frequency"
    r"|\b(?:is|are) (?:treated|counted|used) as the (?:expected|required|standard) (?:testing |screening )?"
    r"(?:frequency|interval)\b"
    # a measure's other reading for some people: "...; for patients aged 80 to 85, a reading below 150/90 mm Hg also
    # counts as controlled"
    r"|\b(?:also )?(?:counts?|is counted|are counted|qualif(?:y|ies)) as (?:adequately |well[- ])?controlled\b"
)
