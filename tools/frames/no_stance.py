"""Statements that take no stance of their own: who a pathway, leaflet or decision aid is for, a change note's new
age, a referral on a result and what follows a result. The first four are cues of "recommend" (:mod:`.action_cues`)
for the people they name, and :func:`pairing.states_no_stance` keeps all of them out of action comparisons where the
document states its stance elsewhere."""

from __future__ import annotations

import re

STEP = r"step \w+\W{1,3}"  # a pathway's "Step 3, " or "Step 1: "

# a pathway's entry step, who enters it ("Step 1, eligibility: people with a cervix aged 25 to 65 years", "Step 1,
# identify: men aged 55 to 69 with no urinary symptoms", "Who: men aged 50 to 70", "Pathway entry: adults aged 40 to
# 84 without cardiovascular disease", "Step 1: Eligibility check — patient aged 40 to 75 years", "Step 1 (eligibility
# check): the patient is 50 to 74 years old"): a cue of
# "recommend"; the pathway's stance on those people is in its other steps (:func:`pairing.states_no_stance`)
ENTRY_STEP = (rf"^\W*(?:{STEP})?(?:eligibility|eligible population|who to screen|who|inclusion"
              # ("Eligibility check 1: age fifty through eighty")
              # ("Pathway scope: adults aged 40 to 84 without established cardiovascular disease")
              r"|(?:pathway |programme |program )?(?:entry|scope))(?: check| criteria| screen)?(?: \d+| [A-Z])?\)?"
              r"\s*[:—–]"
              rf"|^\W*{STEP}(?:identify|select|include|enrol+)\b"
              # a gate on the way in: "Step 2: Confirm the patient is aged 40 to 59", "Step 4: Check for bleeding risk
              # ... and exit the order set if any is present", "Step 2: Calculate the 10-year ASCVD risk ..."
              rf"|^\W*{STEP}(?:confirm|check|verify|calculate|estimate|assess|exclude)\b"
              # an order set's criteria, one per step: "Step 1 - Age: patient is 55 through 77 years old", "Step 2 -
              # Smoking history: at least 30 pack-years, ..."
              rf"|^\W*{STEP}(?:age|age range|smoking history|smoking|tobacco history|risk factors?)\s*:"
              # "Who this pathway is for: adults aged 40 to 84 without established cardiovascular disease"
              r"|^\W*who (?:this|the) (?:pathway|programme|program|order set|protocol|service) is for\s*:")

# who a leaflet or decision aid is for ("This decision aid is for people aged 40 to 59 who ...", "The test is meant only
# for men who can expect to live at least another ten years"): a cue of "recommend"; the document's stance on those
# people is in its other statements (:func:`pairing.states_no_stance`)
AUDIENCE = (r"^\W*this (?:decision aid|leaflet|guide|booklet|factsheet|fact sheet)"
            # ("This decision aid from the Penhallow Men's Health Network is for men aged between 50 and 69")
            r"(?: (?:from|by|of) [^,.;]{1,80}?)? is (?:meant |intended |written )?(?:only )?for\b"
            # ("Use this decision aid with men aged 45 to 69 who have no symptoms and are weighing up PSA screening")
            r"|^\W*use this (?:decision aid|leaflet|guide|booklet|tool) (?:with|for)\b"
            r"|\b(?:is|are) (?:meant|intended) (?:only )?for (?:\w+ )?(?:men|women|adults|people|persons|patients"
            r"|individuals|those|anyone|members)\b"
            # a letter's addressee: "the programme is writing to you because you are now aged between 60 and 74",
            # "you are receiving this letter because you are aged 50 to 74"
            r"|\b(?:writing to you|receiving this (?:letter|invitation)|sending you this (?:letter|invitation))"
            r" because you are (?:now )?aged\b")

# a referral on a result ("Step 4 - Refer to urology if the PSA is 3.0 ng/mL or higher, or if the digital rectal
# examination is abnormal"): what to do at a result, not whether to screen (:func:`pairing.states_no_stance`)
REFERRAL_STEP = (rf"^\W*(?:{STEP})?(?:[\w ()-]{{1,30}}:\s*)?(?:refer\b"
                 # "Step 4: Arrange urology assessment, with prostate MRI first, at a PSA of 3.0 ng/mL or higher"
                 r"|(?:arrange|book|request) (?:an? |the )?(?:urgent )?(?:urology|urological|specialist|colposcopy"
                 r"|respiratory|chest clinic) (?:assessment|referral|review|appointment)\b)")

# a change note's new age: "the starting age has been lowered from 55 to 50, while people can still stay in the
# pathway until they are 80"; a cue of "recommend" for those ages, not a stance (:func:`pairing.states_no_stance`)
# ("the starting age for average-risk adults has been lowered from 50 to 45")
NEW_AGE = (r"\b(?:(?:starting|start|stopping|upper|lower) age|age at which (?:\w+ ){0,3}(?:begins?|starts?|stops?"
           r"|ends?)) (?:(?:for|of|in) (?:[\w-]+ ){1,3})?(?:has been|was|is now) (?:lowered|raised|reduced|increased"
           r"|extended|moved|changed) "
           r"(?:from (?:age )?\d+ )?to (?:age )?\d+"
           r"|\bcan (?:still )?(?:stay|remain) in the (?:pathway|programme|program|screening)\b")

# what follows a result, for people already screened: "If your first result is normal, a repeat test every two years is
# enough for most men", "A raised PSA usually leads to an MRI scan before a biopsy is considered" (how often, or what
# next; a schedule stated so is still compared as a schedule)
ON_A_RESULT = (r"^\W*if (?:your|the|their|his|her|a) (?:first |last |latest |previous )?(?:result|test|scan|screen)\w* "
               r"(?:is|was|are|were|comes back) (?:normal|negative|clear)\b"
               r"|^\W*(?:an? )?(?:raised|high|abnormal|elevated|positive) (?:PSA|result|test|FIT|HPV)\w*\b[^.;]{0,40}"
               r"\b(?:leads? to|means?|triggers?|results? in)\b")

NO_STANCE = re.compile(f"{ENTRY_STEP}|{AUDIENCE}|{NEW_AGE}|{REFERRAL_STEP}|{ON_A_RESULT}", re.I)
IS_AUDIENCE = re.compile(AUDIENCE, re.I)
