"""Which sentences the answer quotes for a document (``clinrag/evidence_text.py``), with the real MiniLM."""

from __future__ import annotations

from clinrag.evidence_text import key_sentences

NARRATIVE = ("Compared with its 2016 recommendation, the 2024 USPSTF recommendation moved the starting age for "
             "screening mammography from 50 to 40 for all average-risk women. Under the earlier 2016 USPSTF "
             "recommendation, screening at ages 40 to 49 had been an individual decision.")
RECOMMENDATIONS = [
    "The USPSTF recommends biennial screening mammography for women aged 40 to 74 years (grade B).",
    "The USPSTF concluded in 2024 that the evidence is insufficient to assess the benefits and harms of screening "
    "mammography in women aged 75 and older (grade I).",
]


def test_a_guideline_is_quoted_by_what_it_recommends_not_by_a_retrieved_narrative_of_its_earlier_version():
    chosen = key_sentences("When should average-risk women start mammography?", [NARRATIVE], RECOMMENDATIONS)
    assert RECOMMENDATIONS[0] in chosen
    assert not any("2016" in s for s in chosen)


def test_a_question_about_change_is_quoted_from_the_retrieved_passages():
    chosen = key_sentences("How did the USPSTF mammography starting age change since 2016?", [NARRATIVE],
                           RECOMMENDATIONS)
    assert chosen and all(s in NARRATIVE for s in chosen)


def test_without_recommendation_sentences_on_the_question_the_passages_are_quoted():
    assert key_sentences("When should average-risk women start mammography?", [NARRATIVE], None) == [
        s for s in key_sentences("When should average-risk women start mammography?", NARRATIVE) if s]
    off_topic = ["The ACP advises clinicians to stop colorectal cancer screening after age 75."]
    chosen = key_sentences("When should average-risk women start mammography?", [NARRATIVE], off_topic)
    assert chosen and all(s in NARRATIVE for s in chosen)
