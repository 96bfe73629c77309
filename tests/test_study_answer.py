"""Abstract corpora get an answer shaped for studies: years, design and size, grouped by the direction of each
finding, opposite findings on the same outcome listed; no versions, no grade-I note."""

from __future__ import annotations

from clinrag import NOT_MEDICAL_ADVICE
from clinrag.schema import EvidenceItem
from clinrag.study_answer import design_and_size, study_answer

QUESTION = "Does vitamin D supplementation reduce hip fracture risk in older adults?"


def abstract(doc_id: str, year: int, title: str, text: str) -> EvidenceItem:
    return EvidenceItem(doc_id=doc_id, passage_id=f"{doc_id}-0", org="PubMed", title=title, issued=None, year=year,
                        status="current", source_type="abstract", score=1.0, support_score=0.7, text=text)


def test_design_and_size_are_read_when_stated():
    assert design_and_size("In this randomized controlled trial we enrolled 1,203 participants.") == \
        "randomized trial, 1,203 participants"
    assert design_and_size("We describe the disease.") == ""


def test_studies_are_grouped_by_direction_with_years_and_no_guideline_notes():
    evidence = [
        abstract("pmid:1", 2009, "Vitamin D and fractures: a randomized trial",
                 "We randomized 2,000 women aged 70 and older. Vitamin D supplementation reduced the risk of hip "
                 "fracture (HR 0.82, 95% CI 0.70-0.96)."),
        abstract("pmid:2", 2016, "Vitamin D in older adults: a cohort study",
                 "In a cohort of 5,000 adults, there was no significant difference in the risk of hip fracture "
                 "between vitamin D users and non-users."),
    ]
    answer = study_answer(QUESTION, evidence)
    assert "(2009; randomized trial, 2,000 women)" in answer and "(2016; cohort study, 5,000 adults)" in answer
    assert answer.index("Reported a benefit:") < answer.index("[pmid:1]") < answer.index("Reported no effect:")
    assert answer.index("Reported no effect:") < answer.index("[pmid:2]")
    assert "opposite directions" in answer and "[pmid:1] (benefit) vs [pmid:2] (no effect)" in answer
    assert "undated" not in answer and "grade I" not in answer and "versions" not in answer
    assert answer.endswith(NOT_MEDICAL_ADVICE)


def test_only_result_sentences_of_abstracts_go_to_nli():
    from clinrag.nodes.contradiction_check import sentences_for_nli

    methods = "Children were included in the study if they had a diagnosis of celiac disease by biopsy."
    result = "Vitamin D supplementation reduced the risk of hip fracture (HR 0.82, 95% CI 0.70-0.96)."
    guideline = EvidenceItem(doc_id="g", passage_id="g-0", org="USPSTF", title="t", issued="2018-04-17",
                             status="current", source_type="guideline", score=1.0, support_score=0.7, text="x")
    evidence = [abstract("pmid:1", 2009, "t", methods + " " + result), guideline]
    framed = {"A framed sentence."}
    abstracts = {e.doc_id for e in evidence if e.source_type == "abstract"}
    out = sentences_for_nli({"pmid:1": [methods, result], "g": [methods, "A framed sentence."]}, framed, abstracts)
    assert out == {"pmid:1": [result], "g": [methods]}
