"""What a sentence names but does not recommend, read before (or just after) a number, an age or an interval:
a panel's vote share, how common something is, a change observed, a performance standard, a value, age or interval
the document has replaced or set aside, and a goal stated only as below the usual one. Each reader (quantities,
ages, intervals) skips what these patterns match."""

from __future__ import annotations

import re

from clinrag.tools.frames.lexicon import DIAGNOSED_AT

# a share of people is no value of a recommendation: of a panel's votes, how a consensus statement reports itself ("(94%
# agreement)", "consensus was defined as at least 75% agreement", "endorsed by 88% of panel members"
# (and a measure's performance rate: "Plans achieving control in 70% or more of eligible members")
SHARE_OF_PEOPLE = re.compile(r"\s*(?:or (?:more|higher|greater|above) )?(?:agreement|consensus|of (?:the |all |their )?"
                             r"(?:voting |eligible )?(?:panel|panel members|panellists|panelists|members|votes|voters"
                             r"|respondents|participants|patients|enrollees|beneficiaries))\b", re.I)
# a value the text says an earlier edition used: "the relaxed target of below 69 mmol/mol (8.5%) used in the 2019
# edition has been replaced by a target range of 58 to 64 mmol/mol"
USED_BEFORE_AFTER = re.compile(r"\s*\)?\s*(?:\([^()]*\)\s*)?(?:(?:as |that was |which was )?"
                               r"(?:used|adopted|recommended|set) in (?:the|our|its) (?:\d{4}|previous|earlier|last"
                               r"|former|prior) (?:edition|version|guideline|statement|update|standards?)\b)", re.I)
# how common something is, not a value of the recommendation: "white-coat hypertension, which affects an estimated
# 10-30% of people"
_PREVALENCE_BEFORE = re.compile(r"\b(?:affects?|affecting) (?:an estimated |about |around |roughly |some )?$", re.I)
# a change observed, not a value of the recommendation: "the prevalence of high-grade lesions fell by more than 80%",
# "trials in which intensive control increased all-cause mortality by 22%"
# ("Incidence among women in their forties has been rising by about 2 % a year"; and how far an estimate is off: "the
# pooled equations, which in validation cohorts overestimated observed risk by about 20%")
_CHANGE_BEFORE = re.compile(r"\b(?:fell|fallen|rose|risen|dropped|declined|increased|decreased|reduced|lowered|cut"
                            r"|rising|falling|increasing|decreasing|declining|growing"
                            r"|(?:over|under)-?(?:estimat|predict)(?:ed|es|ing|e|s))"
                            r"(?: [\w-]+){0,3} by (?:more than |over |about |around |roughly |nearly |almost |up to "
                            r"|some )?$"
                            # ... or a rise that sets off the next step, a velocity rather than a level: "a PSA of 4.0
                            # ng/mL or higher, or a rise of more than 0.75 ng/mL within a year, triggers a repeat test"
                            r"|\b(?:rise|increase) of (?:more than |over |at least )?$", re.I)
# a vote share written before its value: "(agreement 96%)", "(consensus reached, 92%)", "The panel agreed (92 %)
# that ..."
_VOTE_SHARE_BEFORE = re.compile(r"\b(?:agreement|consensus|votes?)(?:\s*(?:of|:|=|was|reached))?[\s,]*$"
                                r"|\b(?:agreed|voted)\s*\(\s*$", re.I)
# a programme's performance standard is not a value of a recommendation: "with an acceptable level of 80%", "an
# achievable level of at least 95%"
_PERFORMANCE = re.compile(r"\b(?:acceptable|achievable) (?:level|standard|rate)\b[^.;]{0,15}$"
                          # a quality measure's own results and aims: "network performance was 61%, and the
                          # improvement goal is 70%"
                          r"|\bperformance (?:was|is|of|rate)\b[^.;]{0,15}$"
                          r"|\bimprovement (?:goal|target) (?:is|of)\s*$",
                          re.I)


# what a number just after these words is: a vote share, a performance standard, how common something is, a change
# observed (a value in mm Hg is always read)
# an exclusion listed after "without" is no threshold of the people it leaves: "In adults from age 40 through 75
# without clinical atherosclerotic cardiovascular disease, diabetes or an LDL cholesterol of 190 mg/dL or higher, ..."
_EXCLUDED_BEFORE = re.compile(r"\bwithout\b[^.;]{0,100}\b(?:an?|any) (?:LDL|LDL-C|LDL cholesterol"
                              r"|low-density lipoprotein cholesterol)(?: level| result)? of\s*$", re.I)
# the evidence given as a reason names values and schedules of its own: "FIT is now recommended every two years rather
# than annually, reflecting programme data in which biennial FIT at a cut-off of 20 micrograms ... detected as many
# cancers as yearly testing"
# (up to the next part: "..., reflecting a rise in early-onset colorectal cancer (...), and the FIT interval has been
# shortened ... to every year")
# (not a reason that is a recommendation itself: a measure's "..., reflecting the Panel's endorsement of screening
# mammography every 2 years for average-risk women in that age band", "..., reflecting the programme's position that
# screening men aged 70 or older is not recommended")
# ... and what the advice keeps of another schedule: "Men who choose screening should be tested every two years, which
# keeps most of the benefit of annual testing while reducing false-positive results"
IN_A_REASON = re.compile(r",\s+(?:(?:reflecting|citing|based on)\b"
                         r"(?!\s+(?:the|its|our|their)\s+[\w'’ -]{0,40}?\b(?:endorsement|recommendation|position"
                         r"|stance)s? (?:of|for|that|on)\b)"
                         r"|which (?:keeps|retains|preserves|captures|achieves) (?:most|much|nearly all|almost all) "
                         r"of\b"
                         # ("biennial testing is suggested, as it offers most of the benefit of annual testing with
                         # fewer false positives")
                         r"|(?:as|because|since) (?:it|this|they) (?:offers?|keeps?|retains?|gives?|provides?|achieves?"
                         r"|captures?) (?:most|much|nearly all|almost all) of\b"
                         # ("... lowered from 120 to 80 µg Hb/g, which modelling suggested would find about 14% more
                         # cancers")
                         r"|which (?:the )?(?:modell?ing|models?|data|studies|trials|evidence|analys[ie]s|pilots?) "
                         r"(?:suggest|show|indicat|predict|estimat)\w*\b"
                         # ("Men who choose screening may be tested every two years, which produced fewer false-positive
                         # results than annual testing in the trials")
                         r"|which (?:produced|produces|gave|gives|yielded|yields|led to|leads to|resulted in|results in"
                         r"|caused|causes) (?:fewer|less|more|lower|higher|similar|about the same|as many)\b)"
                         r"(?:(?!,\s+and\b)[^;])*$", re.I)


def without_reason(text: str) -> str:
    """``text`` without a reason given for its advice (:data:`IN_A_REASON`), a strength in parentheses that closes
    the sentence kept ("..., reflecting the availability of agents with a low risk of hypoglycaemia (strong
    recommendation, moderate-quality evidence)")."""
    if not (m := IN_A_REASON.search(text)):
        return text
    closing = re.search(r"\([^()]*\)\W*$", m.group(0))
    return text[:m.start()] + (" " + closing.group(0) if closing else "")


NOT_A_VALUE_BEFORE = (_VOTE_SHARE_BEFORE, _PERFORMANCE, _PREVALENCE_BEFORE, _CHANGE_BEFORE, _EXCLUDED_BEFORE,
                      IN_A_REASON)


# a value the document has replaced is not one of its own: "replacing the former 10% cut-off", "the previous goal of
# 140/90"
# a parenthesis that goes on with what a new value replaced: "rather than below 140/90 mm Hg (or below 150/90 mm Hg for
# those aged 80 or older)"
_REPLACED_PARENTHESIS = r"\b(?:rather than|instead of)\b[^.;()]{0,40}\(\s*(?:or|and)\s+"
FORMER_VALUE = re.compile(
    # (not a patient's earlier result: "Exclusions: a previous PSA result of 3.0 ng/mL or higher")
    r"\b(?:former|previous|previously|earlier|old|prior)(?! (?:PSA |FIT |screening )?(?:results?|tests?|readings?)\b)"
    r"(?: [\w-]+){0,2}(?: of(?: an?| the)?(?: [\w-]+){0,3}?)?"
    # ("replacing the earlier goal of below 140/90 mm Hg", "The former treat-to-target goal of an LDL cholesterol below
    # 2.6 mmol/L has been replaced")
    r"(?: (?:below|under|less than|lower than|above|over|at least|at or below))?\s*$"
    # "replacing the single goal of less than 7% in the 2012 standards"
    r"|\breplac(?:ing|es|ed)(?: [\w-]+){0,3}(?: of)?(?: (?:below|under|less than|lower than|above|over|at least"
    r"|at or below))?\s*$"
    # "whereas the previous edition aimed first for below 140/90 mm Hg"
    # ("the earlier specification used a risk cut-off of 20%")
    r"|\b(?:former|previous|earlier|prior) (?:edition|version|guideline|statement|specification|policy|measure"
    r"|standards?)\b[^.;]{0,30}$"
    # a value considered and turned down: "The Society considered, and rejected, the lower 130/80 mm Hg threshold"
    r"|\b(?:rejected|declined to adopt|did not adopt),?(?: the| a| an)?"
    r"(?: (?:lower|higher|stricter|tighter|looser))?\s*$"
    # "7.5% or more, lowered from the 10% cut-off used in 2018"
    # ("a goal of less than 8.5%, relaxed from 8.0% in the previous edition", "lowered from below 7.5 % to below 7.0 %")
    r"|\b(?:lowered|raised|reduced|increased|changed|moved|down|up|relaxed|tightened|loosened|eased) from"
    r"(?: the| a| an)?(?: (?:below|under|less than|above|over|at least))?\s*$"
    # the value a new one takes the place of, and the other value in parentheses beside it: "the treatment target is now
    # below 130/80 mm Hg rather than below 140/90 mm Hg (or below 150/90 mm Hg for those aged 80 or older)"
    r"|\b(?:rather than|instead of)(?: the| a| an)?(?: (?:below|under|less than|above|over|at least))?\s*$"
    rf"|{_REPLACED_PARENTHESIS}(?:below|under|less than|above|over|at least)?\s*$"
    # ("has lowered the blood pressure at which hypertension is diagnosed from 140/90 to 130/80 mm Hg")
    rf"|\b(?:lowered|raised|reduced|increased|changed|moved|tightened|relaxed) the\b[^.;]{{0,80}}\b{DIAGNOSED_AT} "
    r"from\s*$", re.I)


# a goal tighter than the usual one, stated only by that usual value: "your goal may be set lower than 7% if you are
# young and newly diagnosed" (not "A1C levels lower than the goal of 7% may be acceptable", a goal below 7%)
# ("achieving A1C levels lower than the 7% goal may be acceptable")
BELOW_THE_USUAL = re.compile(r"\b(?:set|be|kept) lower than\s*$|\b(?:lower|higher) than the\s*$", re.I)


# an age the document has replaced bounds no one now: "from 40 through 74 ..., replacing the individual-decision
# approach previously taken for women in their forties", "from your 45th birthday rather than from age 50", "until you
# turn 75, up from the previous upper limit of your 71st birthday", "every five years, instead of every three years for
# people under 50" (or "rather than after three years as before for those under 50"), "start screening at 45 rather
# than waiting until 50" ("instead of" only right before the age or
# before a replaced schedule: "tomosynthesis ... instead of 2D mammography for annual screening of women aged 40 and
# over" names another test for the same people)
REPLACED_AGE = re.compile(
    r"\b(?:previous|previously|formerly|replacing|replaces|(?:up|down) from)\b[^.;,()]*$"
    rf"|{_REPLACED_PARENTHESIS}[^()]*$"
    r"|\b(?:rather than|instead of)\s*$"
    # "start screening at 45 ... rather than waiting until 50"
    r"|\brather than (?:waiting|wait) (?:until|till|to)\s*(?:age\s*)?$"
    # "extends formal risk assessment to everyone aged 30 to 84, rather than starting at forty"
    r"|\b(?:rather than|instead of) (?:starting|beginning|stopping|ending) (?:at|from)\s*(?:age\s*)?$"
    # ("you will next be invited in five years' time, whatever your age, rather than after three years as before for
    # those under 50")
    # ("now recalled every five years, rather than three-yearly for those under 50 as in the sixth edition")
    # ("screened every five years, rather than at three-yearly intervals for those under 50 as in the 2019 edition")
    r"|\b(?:instead of|rather than) (?:at )?(?:every|once|after|the previous|the old"
    r"|[\w-]*(?:yearly|annual(?:ly)?|monthly))\b"
    r"[^.;,()]*$", re.I)


# an interval named only as the one not to use (or in a reason, :data:`IN_A_REASON`): "every 2 to 4 years rather than
# annually", "a routine interval of two years is preferred over annual testing"
# ("the panel did not support annual testing", "the recommended interval has been lengthened from yearly")
REJECTED_INTERVAL = re.compile(
    r"(?:(?:rather than|instead of)(?: at)?|preferred over|in place of|(?:did|does|do) not support"
    r"|(?:now )?(?:replaces|replacing|supersedes)|(?:lengthened|shortened|changed|extended|moved) from)\s*$", re.I)
# ... or as the one whose harm is the reason: "testing at two-year intervals is preferred, as annual testing increases
# false-positive results"
HARMFUL_INTERVAL_AFTER = re.compile(r"\s*(?:testing|screening|tests|screens|scans)?\s*(?:increases|adds|leads to"
                                    r"|causes|doubles|raises|brings)\b", re.I)
