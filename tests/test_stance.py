"""Stance toward the question: two studies disagree when one supports what is asked and the other refutes it
(the real stance model, on ONNX Runtime as the contradiction check runs it)."""

from __future__ import annotations

import numpy as np
import pytest

from clinrag.tools.nli.backends import get_nli_backend, get_stance_backend
from clinrag.tools.nli.stance import (
    about_the_claim,
    claim_of,
    stance_graph,
    stance_opposition,
    support_probabilities,
)

QUESTION = "Does vitamin D supplementation reduce the risk of hip fracture in older adults?"
REDUCED = "Vitamin D supplementation reduced the risk of hip fracture in older adults."
ALSO_REDUCED = "Vitamin D supplementation reduced the risk of hip fracture in adults over 70."
NOT_REDUCED = "Vitamin D supplementation did not reduce the risk of hip fracture in older adults."
UNRELATED = "Patients were excluded if they had received chemotherapy within 6 months."


LOWERED = "Daily vitamin D lowered hip fracture incidence among participants aged 65 and over."
NO_DIFFERENCE = "There was no significant difference in hip fracture rates between the vitamin D and placebo groups."


@pytest.fixture(scope="module")
def backend(guideline_index):  # the index build exports the encoder: the query path's ONNX runtime
    return get_stance_backend("cross-encoder")


def test_the_stance_model_serves_the_trained_backends_and_a_named_baseline_serves_itself(guideline_index):
    from clinrag.tools.index.onnx_models import OnnxStance

    assert isinstance(get_stance_backend("cross-encoder"), OnnxStance)
    assert get_stance_backend("two-stage") is get_stance_backend("cross-encoder")
    assert get_stance_backend("lexical") is get_nli_backend("lexical")


def test_stance_model_onnx_agrees_with_torch(guideline_index):
    from clinrag.tools.nli.cross_encoder import load_stance_model

    pairs = [(REDUCED, claim_of(QUESTION)), (NOT_REDUCED, claim_of(QUESTION)), (UNRELATED, claim_of(QUESTION))]
    np.testing.assert_allclose(get_stance_backend("cross-encoder").predict(pairs), load_stance_model().predict(pairs),
                               atol=5e-3)


def test_a_paraphrased_benefit_scores_well_above_a_null_finding(backend):
    """"lowered hip fracture incidence" is not worded like the claim; it still reads as more supportive than "did
    not reduce" or "no significant difference" (which read as refuting)."""
    lowered, not_reduced, no_difference = support_probabilities(backend, [LOWERED, NOT_REDUCED, NO_DIFFERENCE],
                                                                 claim_of(QUESTION))
    assert lowered > not_reduced + 0.15 and lowered > no_difference + 0.15
    assert not_reduced < 0.1 and no_difference < 0.1


def test_claim_of_turns_a_yes_no_question_into_a_statement():
    assert claim_of("Does vitamin D reduce fracture risk?") == "vitamin D reduce fracture risk"
    assert claim_of("  Are statins safe in pregnancy?? ") == "statins safe in pregnancy"
    assert claim_of("Aspirin for primary prevention") == "Aspirin for primary prevention"


def test_opposition_is_the_distance_between_stances():
    assert stance_opposition(0.9, 0.2) == pytest.approx(0.7)
    assert stance_opposition(0.3, 0.3) == 0.0


def test_sentences_not_about_the_claim_do_not_take_part():
    kept = about_the_claim([REDUCED, UNRELATED], claim_of(QUESTION))
    assert kept == [REDUCED]


def test_opposite_findings_score_higher_than_agreeing_ones(backend):
    edges, salience = stance_graph({"pmid:1": [REDUCED], "pmid:2": [NOT_REDUCED], "pmid:3": [ALSO_REDUCED]},
                                   QUESTION, backend)
    score = {frozenset((e.doc_a, e.doc_b)): e.score for e in edges}
    assert all(e.basis == "stance" for e in edges) and len(edges) == 3
    assert score[frozenset(("pmid:1", "pmid:2"))] > 0.4 > 0.2 > score[frozenset(("pmid:1", "pmid:3"))]
    assert score[frozenset(("pmid:3", "pmid:2"))] > 0.3
    assert salience["pmid:2"] > salience["pmid:1"] and salience["pmid:2"] > salience["pmid:3"]
    top = edges[0]
    assert {top.sentence_a, top.sentence_b} & {NOT_REDUCED}


def test_a_study_without_a_sentence_about_the_question_gets_no_edge(backend):
    edges, salience = stance_graph({"pmid:1": [REDUCED], "pmid:9": [UNRELATED]}, QUESTION, backend)
    assert edges == [] and salience == {"pmid:1": 0.0, "pmid:9": 0.0}
