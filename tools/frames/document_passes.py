"""Passes over a whole document's frames, after each sentence has been read (:func:`extract.document_frames`): an
edition's change list yields to the document's own recommendations, a quality measure of a conversation and a pathway
that leaves the test to a decision expect an individual decision, a higher risk defined in a sentence of its own
becomes the threshold of the recommendations that name it, and the one test a document names (or says its screening
is) is the test of schedules that name none."""

from __future__ import annotations

import re

from clinrag.tools.frames import lexicon, rules
from clinrag.tools.frames.schema import RECOMMEND_LIKE, Frame, Quantity


def change_notes_yield(frames: list[Frame]) -> list[Frame]:
    """Without the frames of an edition's list of changes that the document's own recommendations contradict: the
    list summarizes ("What's new: the Board no longer recommends routine aspirin for adults in their fifties"), the
    body states ("For adults aged 40 to 59 ..., the decision ... should be an individual one"), and the body wins for
    the ages the list names."""
    def overlaps(a: Frame, b: Frame) -> bool:
        return (a.population.age_min or 0) <= (b.population.age_max or 200) and (
            b.population.age_min or 0) <= (a.population.age_max or 200)

    in_list = [rules.is_change_list(f.sentence) for f in frames]
    body = [f for f, listed in zip(frames, in_list) if not listed]
    return [f for f, listed in zip(frames, in_list) if not listed or f.population.age_min is None or not any(
        b.intervention == f.intervention and b.test == f.test and b.action != f.action and overlaps(b, f)
        and b.population.age_min is not None for b in body)]


_DENOMINATOR = re.compile(r"^\W*denominator\b", re.I)
_NUMERATOR = re.compile(r"^\W*numerator\b", re.I)


def measure_of_a_conversation(frames: list[Frame]) -> list[Frame]:
    """A quality measure whose numerator counts a conversation ("Numerator: patients in the denominator with a
    documented discussion of the benefits and harms of low-dose aspirin") expects an individual decision for the
    people of its denominator, not the intervention itself."""
    numerators = [f for f in frames if _NUMERATOR.match(f.sentence)]
    if not numerators or any(f.action != "individual_decision" for f in numerators):
        return frames
    return [f.model_copy(update={"action": "individual_decision"})
            if _DENOMINATOR.match(f.sentence) and f.action in RECOMMEND_LIKE else f for f in frames]


_IDENTIFY_STEP = re.compile(r"^\W*step \w+\W+identify\b", re.I)
# the test is the person's to choose (not a shared decision-making visit before a test the pathway orders, as lung
# screening pathways hold)
_CHOICE = re.compile(r"\b(?:choice|chooses?|opts? (?:in|for))\b", re.I)


def pathway_of_a_decision(frames: list[Frame]) -> list[Frame]:
    """A pathway whose first step identifies who is eligible ("Step 1, identify who is eligible: men aged 50 to 70
    ...") and whose later steps leave the test to a decision made together ("Step 2, talk through benefits and harms
    ..., because testing is the man's choice") offers those people that decision, not the test itself."""
    decided = any(f.action == "individual_decision" and f.population.age_min is None and f.population.age_max is None
                  and not _IDENTIFY_STEP.match(f.sentence) and not f.population.criteria
                  and _CHOICE.search(f.sentence) for f in frames)
    if not decided:
        return frames
    return [f.model_copy(update={"action": "individual_decision"})
            if _IDENTIFY_STEP.match(f.sentence) and f.action in RECOMMEND_LIKE and not f.thresholds else f
            for f in frames]


# a definition of the higher risk a recommendation names, in a sentence of its own: "For this recommendation, the
# College defines higher ASCVD risk as an estimated 10-year risk of 20% or more", "For this purpose, the panel defines
# higher risk as ...", "higher ASCVD risk is defined as ...", "Higher risk is generally taken to mean ...", "higher
# risk means ..."
RISK_DEFINITION = re.compile(
    r"\bdefine[sd]? (?:a |the )?(?:higher|high|elevated) (?:[\w-]+ ){0,3}risk as\b"
    r"|\b(?:higher|high|elevated) (?:[\w-]+ ){0,3}risk (?:is|was) (?:generally |usually )?(?:defined|taken to mean"
    r"|taken as)\b"
    # "For this purpose, higher risk means an estimated 10-year ASCVD risk of 7.5% or more"
    r"|\b(?:higher|high|elevated) (?:[\w-]+ ){0,3}risk (?:here |generally |usually )?means\b", re.I)
# a recommendation for people at that risk: "might be considered for select adults aged 40 to 70 years who are at
# higher cardiovascular risk" (not "at increased risk of bleeding"), "in selected adults ... whose cardiovascular risk
# is high"
_NAMES_HIGHER_RISK = re.compile(r"\b(?:higher|high|elevated) (?:cardiovascular |ASCVD |CVD )?risk\b"
                                r"|\b(?:cardiovascular |ASCVD |CVD )?risk is (?:high|higher|elevated)\b", re.I)


def with_defined_risk(frames: list[Frame], thresholds: list[Quantity]) -> list[Frame]:
    """Frames with a separately defined higher risk (``thresholds``, the risk levels of its definition) as the
    threshold of the recommendations that name it: they go to every frame whose sentence names a higher risk and
    states no threshold, and the definition ("Higher risk is generally taken to mean a 10-year risk of 7.5% or more")
    is no recommendation of its own. Without such a recommendation the frames are unchanged."""
    if not thresholds:  # most documents define no higher risk: nothing to search
        return frames
    named = {id(f) for f in frames if not f.thresholds and _NAMES_HIGHER_RISK.search(f.sentence)
             and not RISK_DEFINITION.search(f.sentence)}
    if not named:
        return frames
    return [f.model_copy(update={"thresholds": thresholds}) if id(f) in named else f
            for f in frames if not RISK_DEFINITION.search(f.sentence)]


# what a document's screening is, in a sentence of its own: "Cervical screening checks a small sample of cells from your
# cervix for the human papillomavirus (HPV)", "Bowel screening uses a home test kit", "The screening test looks for ..."
SCREENING_DEFINED = re.compile(
    r"^\W*(?:[\w-]+ ){0,2}screening(?: test)? (?:checks|looks|tests|uses|is an? (?:\w+ )?test)\b", re.I)


def defined_test(sentence: str, intervention: str | None) -> str | None:
    """The one test of ``intervention`` a sentence that says what the screening is names (:data:`SCREENING_DEFINED`),
    else None."""
    if not intervention or not SCREENING_DEFINED.search(sentence):
        return None
    named = {label for _, _, label in lexicon.tests(sentence, intervention)}
    return named.pop() if len(named) == 1 else None


def with_defined_test(frames: list[Frame], test: str | None) -> list[Frame]:
    """A document's schedules that name no test, as schedules of the one test the document names: the test its
    recommendations name when they name only one ("The test now counts as abnormal when it finds 120 micrograms of
    haemoglobin per gram" of a FIT programme beside "invites them every other year"), else the test it says its
    screening is (``test``: "Cervical screening checks ... for HPV" beside "a cervical screening test every five
    years"). A document whose recommendations name several tests says which each schedule is, and nothing changes."""
    named = {f.test for f in frames if f.test}
    if named:  # the recommendations' own test, or none where they name several
        test = named.pop() if len(named) == 1 else None
    if test is None:
        return frames
    return [f.model_copy(update={"test": test})
            if f.interval_months and not f.test and f.intervention in lexicon.TESTS else f for f in frames]
