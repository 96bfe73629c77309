"""Which tests a recommendation names, each with its own interval when it has one (:func:`test_options`: "colonoscopy
every 10 years or FIT annually" is two options), and supplemental imaging recommended "in addition to" an examination
with an interval of its own (:func:`added_to`)."""

from __future__ import annotations

import re

from clinrag.tools.frames import intervals, lexicon
from clinrag.tools.frames.schema import Interval

# "breast MRI every year in addition to annual mammography": the examination it adds to, with an interval of its
# own, is a second recommendation for the same people
_ADDED_TO = re.compile(r"\bin addition to\s+[^,;.()]{1,40}", re.I)


# a reason closing the sentence names no test of the recommendation: "... every 5 years, because a negative HPV result
# in older women means a very low risk" (not "because you are now aged 50 to 74, you are invited ...", which goes on)
_TRAILING_REASON = re.compile(r",\s+because\b[^,;]*$", re.I)
# another check's schedule in a list of orders: "HbA1c every 3 months until the individual target is reached, then
# every 6 months; urine albumin-to-creatinine ratio and eGFR once a year; lipid profile once a year"
_OTHER_CHECK = re.compile(r"\b(?:urine albumin|albumin-to-creatinine|eGFR|lipid (?:profile|panel)s?|serum creatinine"
                          r"|retinal (?:screening|exam\w*|photograph\w*)|eye exam\w*|foot (?:exam\w*|check\w*))\b",
                          re.I)
_A1C = re.compile(r"\b(?:Hb)?A1c\b", re.I)
# where the next part of such a list begins
_NEXT_PART = re.compile(r"(;|,\s+(?:while|whereas)\b)", re.I)


def _without_other_checks(text: str) -> str:
    """``text`` without the parts after a semicolon (or ", while") that schedule another check and not the A1C
    ("the risk estimate should be repeated every 4 to 6 years, while treated patients need a lipid panel 4 to 12
    weeks after starting")."""
    first, *rest = _NEXT_PART.split(text)
    kept = [first]
    for separator, part in zip(rest[::2], rest[1::2]):
        if not (_OTHER_CHECK.search(part) and not _A1C.search(part)):
            kept += [separator, part]
    return "".join(kept)


def test_options(text: str, intervention: str) -> list[tuple[str | None, Interval | None]]:
    """(test, interval) per option. Enumerated tests are split only when at least two carry their own interval:
    "every N" intervals belong to the test before them (and to tests joined to it by "or": "CT colonography or
    flexible sigmoidoscopy every five years"), adjectives ("annual FIT") to the test right after, and an interval
    followed by "with" to every test up to the next interval ("every 5 years with HPV testing alone or with
    co-testing, or every 3 years with cytology")."""
    text = _without_other_checks(_TRAILING_REASON.sub("", _REPLACED_TEST.sub(" ", text)))
    tests = lexicon.tests(text, intervention)
    ivs = intervals.interval_spans(text)
    labels = list(dict.fromkeys(t[2] for t in tests))
    each = len(ivs) == 1 and re.search(r"\beach(?:\s+(?:\w+ed|done|given|taken))?\s*$", text[: ivs[0][0]])
    if len(labels) >= 2 and each:
        # "CT colonography or sigmoidoscopy, each every 5 years", "..., each repeated every 5 years"
        return [(label, ivs[0][2]) for label in labels]
    if len(labels) >= 2 and len(ivs) >= 2:
        owned: dict[str, list[Interval]] = {}
        for k, (s, e, iv, where) in enumerate(ivs):
            before = [t for t in tests if t[1] <= s]
            after = [t for t in tests if t[0] >= e]
            if re.match(r"\s+(?:with|using|by)\b", text[e:]) and after:
                until = ivs[k + 1][0] if k + 1 < len(ivs) else len(text)
                for t in [t for t in after if t[1] <= until] or after[:1]:
                    owned.setdefault(t[2], []).append(iv)
                continue
            # "a FIT yearly, a stool DNA test every 3 years": an adjective's word right after its test, before a comma
            # or "or", is that test's adverb
            adverb = where == "pre" and before and not text[before[-1][1] : s].strip() and re.match(
                r"\s*(?:[,;)]|or\b|and\b|$)", text[e:])
            # ("Colonoscopy remains a ten-yearly test; FIT ...": not across a semicolon)
            if where == "pre" and after and after[0][0] - e <= 25 and ";" not in text[e : after[0][0]] and not adverb:
                owner = after[0]
            else:
                owner = before[-1] if before else (after[0] if after else None)
            if owner:
                owned.setdefault(owner[2], []).append(iv)
            # "CT colonography or flexible sigmoidoscopy every five years": tests joined by "or" share it
            chain = before[:-1] if owner is not None and before and owner is before[-1] else []
            joined = owner
            for t in reversed(chain):  # (a test with an interval of its own, "annual FIT or ...", keeps it)
                if joined is None or t[2] in owned or not re.fullmatch(r"\s*(?:,|or|and|,\s*or)\s*",
                                                                        text[t[1] : joined[0]]):
                    break
                owned.setdefault(t[2], []).append(iv)
                joined = t
        if len(owned) >= 2:
            return [(label, intervals.span_interval(owned[label])) for label in labels if label in owned]
    # one interval for every test ("... once every 36 months, regardless of which test is used") names none of them
    test = None if _ANY_TEST.search(text) else (labels[0] if labels else None)
    return [(test, intervals.span_interval([iv for *_, iv, _ in ivs]))]


# a test that another replaces: one named as unavailable ("If primary HPV testing is unavailable, order cervical
# cytology every three years instead", "where HPV testing is not yet available, cytology at 3-year intervals is
# acceptable", "if the laboratory cannot provide primary HPV testing, ...") or replaced "in place of" another
_REPLACED_TEST = re.compile(r"\b(?:if|when|where)\s+[^,;]{0,60}?\b(?:is|are)\s+(?:unavailable|not (?:yet )?available"
                          r"|declined|not possible|not feasible|contraindicated)\b[^,;]*"
                          # ("if the laboratory cannot provide primary HPV testing, order cytology alone every 3 years")
                          r"|\b(?:if|when|where)\s+[^,;]{0,40}?\b(?:cannot|can't|can not|does not|do not|is unable to)"
                          r" (?:provide|offer|perform|process|run|supply)\b[^,;]*"
                          # the test another one replaces: "primary testing for hrHPV in place of cytology-based
                          # screening" (up to the test's name: "in place of conventional digital mammography for
                          # annual screening" keeps its interval)
                          # ("now uses a test for high-risk human papillomavirus (hrHPV) rather than cytology")
                          r"|\b(?:in place of|instead of|replacing|rather than)\s+(?:[\w()-]+\s+){0,3}?[\w()-]*?"
                          r"(?:tests?|testing"
                          r"|cytology|smears?|mammography|mammograms?|colonoscopy|FIT|sigmoidoscopy)\b", re.I)


_ANY_TEST = re.compile(r"\b(?:regardless of|irrespective of|whatever|whichever) (?:which |the )?(?:screening )?"
                       r"(?:test|method|modality|option)", re.I)


def added_to(text: str, intervention: str) -> tuple[str, str, Interval] | None:
    """(the text without the phrase, the intervention added to, its interval) when supplemental imaging is
    recommended "in addition to" an examination with an interval of its own; None otherwise."""
    if intervention != lexicon.SUPPLEMENTAL or not (m := _ADDED_TO.search(text)):
        return None
    other, spans = lexicon.intervention(m.group(0)), intervals.interval_spans(m.group(0))
    if other in (None, intervention) or not spans:
        return None
    return f"{text[: m.start()]} {text[m.end() :]}", other, intervals.span_interval([iv for *_, iv, _ in spans])
