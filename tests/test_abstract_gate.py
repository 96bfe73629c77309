"""The abstract-corpus gate evaluation's pieces: the leave-out rule, the summary and the per-source weight."""

from clinrag.evals.abstract_gate import abstract_weight, left_out, summarize
from clinrag.tools.retrieval import answerability


def test_left_out_is_deterministic_and_splits_about_half():
    pmids = [str(20_000_000 + i) for i in range(400)]
    first = [left_out(p) for p in pmids]
    assert first == [left_out(p) for p in pmids]
    assert 150 < sum(first) < 250


def test_summary_counts_answers_and_abstentions():
    rows = [{"answerable": True, "decision": "answer", "support": 0.8, "found_own": True},
            {"answerable": True, "decision": "abstain", "support": 0.4, "found_own": False},
            {"answerable": False, "decision": "abstain", "support": 0.3, "found_own": False},
            {"answerable": False, "decision": "answer", "support": 0.6, "found_own": False}]
    s = summarize(rows)
    assert (s["answer_rate"], s["abstention_rate"], s["balanced_accuracy"]) == (0.5, 0.5, 0.5)
    assert s["own_abstract_found"] == 0.5 and abs(s["median_support_unanswerable"] - 0.45) < 1e-9


def test_abstract_weight_applies_to_abstracts_only_and_is_restored():
    before = answerability.ABSTRACT_ANSWERABILITY_WEIGHT
    with abstract_weight(0.75):
        assert answerability.source_weight("abstract") == 0.75
        assert answerability.source_weight("guideline") == answerability.ANSWERABILITY_WEIGHT
    assert answerability.ABSTRACT_ANSWERABILITY_WEIGHT == before
