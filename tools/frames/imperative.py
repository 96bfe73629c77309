"""Where an imperative stands in a sentence (:data:`IMPERATIVE_AT`), for the action cues that read one ("Do not
screen ...", "Offer ...", a pathway step's "order ...")."""

from __future__ import annotations

from clinrag.tools.frames.no_stance import STEP

# Where an imperative stands: opening the sentence, or after an opening phrase ("For primary prevention, offer ...",
# "At the lung health check, calculate ...", "From age 30 to 65, screen ...", "Once on treatment, treat to ...",
# "where the calculated risk is 10% or above, offer atorvastatin ...") or a label of up to six words ("NICE: offer
# ...", "Key points for clinicians: offer ...", a pathway's "Step 2, ages 21 to 29: order ...") or a section number
# ("4.4 Measure A1C ...", an order set's "(1) Order HbA1c ...") or a conjunction that opens a later part ("..., and do
# not screen after 85").
# "Recommendation 2 (strong): ", a pathway's condition "Step 3: 10-year risk of 7.5% or more: start a statin"
LABEL = r"[A-Z0-9][\w/-]{1,15}(?:,? [\w/.%-]{1,15}){0,5}(?:\s*\([^()]{0,60}\))?:\s*"
IMPERATIVE_AT = (rf"^\W*(?:\d+(?:\.\d+)*[.)]?\s+|{STEP}|(?:and|or|then|but)\s+)?"
                 rf"(?:{LABEL})?"
                 # (a condition's list in brackets is part of it: "If the 10-year risk is 10% or more and the patient
                 # has at least one risk factor (dyslipidaemia, diabetes or hypertension), offer ...")
                 r"(?:(?:for|in|among|if|when|where|once|from|between|aged?|per|according to|at)\b"
                 r"(?:[^,;()]|\([^()]{0,100}\)){0,160},\s*)?")
