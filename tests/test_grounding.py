"""Answers that cannot misstate a number: scripted chat models that misstate an age, swap two organizations'
intervals, turn a grade I into "recommends against" and cite a document that was not retrieved; every one is
caught, replaced by the source's own sentences, and the answer says so."""

from __future__ import annotations

import pytest
from test_graph import run, scripted

from clinrag import NOT_MEDICAL_ADVICE

BREAST = "When should average-risk women start mammography, and do the organizations agree?"
NOTE = "Checked against the cited documents"


def answer_with(graph, monkeypatch, text: str, question: str = BREAST) -> str:
    scripted(monkeypatch, None, [text])
    out = run(graph, question, chat_model="fake:scripted")
    assert out["decision"] == "answer" and NOT_MEDICAL_ADVICE in out["answer"]
    return out["answer"]


def test_a_faithful_answer_is_kept_as_written(graph, monkeypatch):
    text = ("The USPSTF recommends biennial screening mammography for women aged 40 to 74 years (grade B) "
            "[uspstf-breast-2024]. The ACS recommends annual screening from age 45 [acs-breast-2015].")
    answer = answer_with(graph, monkeypatch, text)
    assert answer.startswith(text) and NOTE not in answer


@pytest.mark.parametrize("misstatement, reason", [
    # a misstated start age (the USPSTF says 40 to 74)
    ("The USPSTF recommends biennial screening mammography for women aged 45 to 74 years [uspstf-breast-2024].",
     "states 45"),
    # two organizations' intervals swapped (USPSTF biennial, ACS annual from 45)
    ("The USPSTF recommends annual screening mammography for women aged 40 to 74 [uspstf-breast-2024].",
     "interval of 12 months"),
    # grade I (insufficient evidence) turned into a recommendation against
    ("The USPSTF recommends against screening mammography in women aged 75 and older [uspstf-breast-2024].",
     "'against'"),
    # a document that was not retrieved
    ("ACOG recommends screening from age 40 [acog-breast-2030].", "a document that was not retrieved"),
    # a claim without a citation
    ("All women should start screening at 30.", "cites nothing"),
])
def test_every_misstatement_is_caught_and_replaced(graph, monkeypatch, misstatement, reason):
    answer = answer_with(graph, monkeypatch, misstatement)
    assert misstatement not in answer
    assert NOTE in answer and reason in answer
    if "acog-breast-2030" not in misstatement and "[" in misstatement:
        # replaced by the source's own line: its organization, issue date and status, quoted and cited
        assert "- USPSTF, Breast Cancer Screening (2024), issued 2024-04-30, current:" in answer


def test_swapped_intervals_between_two_organizations(graph, monkeypatch):
    swapped = ("The USPSTF recommends annual screening mammography for women aged 40 to 74 [uspstf-breast-2024]. "
               "The ACR recommends biennial screening mammography from age 40 [acr-breast-2021].")
    answer = answer_with(graph, monkeypatch, swapped)
    assert "2 sentence(s)" in answer and "interval of 12 months" in answer and "interval of 24 months" in answer
