"""The abstract-corpus gate evaluation's pieces: the leave-out rule, the summary and the per-source weight."""

from clinrag.evals.abstract_gate import abstract_weight, at_threshold, left_out, lowest_safe_threshold, summarize
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


def _rows(answerable_supports, unanswerable_supports):
    return ([{"answerable": True, "decision": "answer", "support": s, "found_own": True} for s in answerable_supports]
            + [{"answerable": False, "decision": "answer", "support": s, "found_own": False}
               for s in unanswerable_supports])


def test_a_threshold_turns_low_support_answers_into_abstentions_only():
    rows = _rows([0.8, 0.6], [0.65, 0.4]) + [{"answerable": False, "decision": "abstain", "support": 0.9,
                                              "found_own": False}]
    decided = at_threshold(rows, 0.62)
    assert [r["decision"] for r in decided] == ["answer", "abstain", "answer", "abstain", "abstain"]


def test_lowest_safe_threshold_is_the_first_grid_point_reaching_the_target():
    rows = _rows([0.9, 0.8], [0.3, 0.5, 0.61])
    assert lowest_safe_threshold(rows, target=1.0) == 0.615  # above the highest unanswerable support 0.61
    assert lowest_safe_threshold(rows, target=0.6) == 0.505  # two of three abstain from 0.505 on
    assert lowest_safe_threshold(_rows([0.9], [1.0]), target=1.0) is None


def _evidence(source_type, support):
    from clinrag.schema import EvidenceItem

    return EvidenceItem(doc_id="d", passage_id="d#0", org="X", title="t", issued=None, status="current",
                        source_type=source_type, score=0.0, support_score=support, text="x")


def test_each_passage_meets_the_threshold_of_its_source_type():
    from clinrag.context import Context
    from clinrag.graph.state import State
    from clinrag.nodes.support_gate import support_gate

    ctx = Context(support_threshold=0.5, abstract_support_threshold=0.7)
    assert ctx.support_threshold_for("abstract") == 0.7 and ctx.support_threshold_for("guideline") == 0.5
    assert ctx.supported([_evidence("guideline", 0.6)])
    assert not ctx.supported([_evidence("abstract", 0.6)])
    assert ctx.supported([_evidence("abstract", 0.6), _evidence("guideline", 0.55)])

    class Run:
        context = ctx

    out = support_gate(State(question="q", evidence=[_evidence("abstract", 0.6)]), Run())
    assert out["decision"] == "abstain" and "threshold 0.700 for abstracts" in out["reason"]
    assert support_gate(State(question="q", evidence=[_evidence("abstract", 0.71)]), Run())["decision"] == "answer"
