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


def test_the_fallback_says_why_just_before_the_notice(graph, monkeypatch):
    answer = answer_with(graph, monkeypatch, "All women should start screening at 30.")
    head, notice, tail = answer.rpartition(NOT_MEDICAL_ADVICE)
    assert notice and tail == ""
    assert f"\n\n{NOTE}: none of the 1 sentence(s) of the generated answer could be kept (cites nothing" in head
    assert head.endswith("the sources' own sentences are shown instead.\n\n")


def test_a_fallback_shaped_for_studies_also_says_why(monkeypatch):
    """Abstract evidence falls back to the answer shaped for studies, with the same note (node called directly,
    with a local fake index)."""
    from types import SimpleNamespace

    from langgraph.runtime import Runtime
    from test_study_answer import QUESTION, abstract

    from clinrag.context import Context
    from clinrag.graph.state import State
    from clinrag.nodes import answer as answer_node

    scripted(monkeypatch, None, ["Vitamin D halves hip fractures in everyone."])
    monkeypatch.setattr(answer_node, "index_of", lambda ctx: SimpleNamespace(docs={}, frames_for=lambda doc_id: []))
    evidence = [abstract("pmid:1", 2009, "Vitamin D and fractures: a randomized trial",
                         "Vitamin D supplementation reduced the risk of hip fracture (HR 0.82, 95% CI 0.70-0.96).")]
    out = answer_node.answer(State(question=QUESTION, evidence=evidence),
                             Runtime(context=Context(chat_model="fake:scripted")))
    assert "Reported a benefit:" in out["answer"] and f"\n\n{NOTE}: none of the 1 sentence(s)" in out["answer"]
    assert out["answer"].endswith(NOT_MEDICAL_ADVICE)
