"""The disagreement benchmark: its dataset (counts, doc ids, gold values backed by the corpus text) and its scoring
(facet-level frames path, facet-agnostic NLI path) on hand-made results."""

from __future__ import annotations

import argparse
import itertools
import json
import re
import uuid

import pytest

from clinrag.documents import load_documents
from clinrag.evals.cases import builtin_path
from clinrag.evals.disagreements import FACETS, Case, load_cases, predicted_pairs, score_case, summarize
from clinrag.evals.disagreements_experiment import results_payload, run_experiment

TOPICS = {"breast-cancer-screening", "colorectal-cancer-screening", "prostate-cancer-screening",
          "cervical-cancer-screening", "lung-cancer-screening", "aspirin-primary-prevention",
          "statin-primary-prevention", "hypertension-thresholds", "diabetes-glycemic-targets"}


@pytest.fixture(scope="module")
def cases():
    return load_cases()


@pytest.fixture(scope="module")
def corpus():
    return {d.doc_id: d for d in load_documents()}


SYNTHETIC_CORPUS = builtin_path("synthetic_guidelines.jsonl")
SYNTHETIC_CASES = builtin_path("disagreements_synthetic.jsonl")


@pytest.fixture(scope="module", params=["built-in", "synthetic"])
def dataset(request, cases, corpus):
    """(name, cases, documents by id) of the built-in benchmark and of the synthetic corpora written blind (whose
    annotators wrote values in their own words: "every 5 years" for "every five years")."""
    if request.param == "built-in":
        return request.param, cases, corpus
    return request.param, load_cases(SYNTHETIC_CASES), {d.doc_id: d for d in load_documents(SYNTHETIC_CORPUS)}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _gold_pairs(case: Case):
    o = case.outputs
    return [("disagreement", p) for p in o.disagreements] + [("change", p) for p in o.changes] + \
           [("agreeing", p) for p in o.agreeing_pairs] + [("unscored", p) for p in o.unscored_pairs]


# ---------------------------------------------------------------- the dataset


def test_counts_splits_and_topics(cases):
    canonical = [c for c in cases if c.metadata["split"] == "canonical"]
    holdout = [c for c in cases if c.metadata["split"] == "holdout"]
    assert len(canonical) >= 30 and len(holdout) >= 12
    assert len(canonical) + len(holdout) == len(cases)
    assert {c.metadata["topic"] for c in canonical} == TOPICS
    assert {c.metadata["topic"] for c in holdout} == TOPICS
    assert len({c.id for c in cases}) == len(cases)
    assert len({c.inputs.question for c in cases}) == len(cases)
    assert load_cases(split="holdout") == holdout
    for split in (canonical, holdout):  # honest "no disagreement / no change" answers are part of each split
        assert any(c.metadata["expect"] == "none" for c in split)
        assert any(c.outputs.changes for c in cases)


def test_doc_ids_exist_and_match_the_topic(dataset):
    _, cases, corpus = dataset
    for c in cases:
        for d in c.outputs.docs:
            assert d in corpus, (c.inputs.question, d)
            assert corpus[d].topic == c.metadata["topic"], (c.inputs.question, d)
        for _, p in _gold_pairs(c):
            assert set(p.docs) <= set(c.outputs.docs), (c.inputs.question, p.docs)
            assert p.facet in c.outputs.facets, (c.inputs.question, p.facet)


def test_gold_values_are_in_the_document_text(dataset):
    """Every gold value is backed by its document: the quote is in its text, and so is every number of the value
    (built-in: values are written with the document's numbers)."""
    name, cases, corpus = dataset
    checked = 0
    for c in cases:
        for _, p in _gold_pairs(c):
            for v in getattr(p, "values", []):
                assert v.doc_id in p.docs
                text = _norm(corpus[v.doc_id].text)
                assert _norm(v.quote) in text, (v.doc_id, v.quote)
                for number in re.findall(r"\d+(?:\.\d+)?", v.value) if name == "built-in" else []:
                    assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text), (v.doc_id, v.value, number)
                checked += 1
    assert checked > 100


def test_gold_is_consistent(dataset):
    """Each (facet, pair) has one label; values of disagreements and changes differ, of agreeing pairs are equal;
    changes link two versions of one organization's guidance (older first), disagreements do not (built-in: the
    values of an agreeing pair are written alike)."""
    name, cases, corpus = dataset

    def lineage(a: str, b: str) -> bool:
        d = corpus[a].superseded_by
        while d:
            if d == b:
                return True
            d = corpus[d].superseded_by
        return False

    for c in cases:
        keys = [(p.facet, frozenset(p.docs)) for _, p in _gold_pairs(c)]
        assert len(keys) == len(set(keys)), c.inputs.question
        for label, p in _gold_pairs(c):
            if label == "unscored":
                continue
            a, b = p.values
            assert [a.doc_id, b.doc_id] == p.docs
            if name == "built-in":
                assert (a.value == b.value) == (label == "agreeing"), (c.inputs.question, p)
            if label == "change":
                assert lineage(*p.docs), p.docs
            elif label == "disagreement":
                assert not lineage(*p.docs) and not lineage(*reversed(p.docs)), p.docs
        expect = "conflict" if c.outputs.disagreements or c.outputs.changes else "none"
        assert c.metadata["expect"] == expect


def test_known_facts(cases):
    """Spot checks of the gold against what the corpus says."""
    by_q = {c.inputs.question: c for c in cases}
    start = by_q["Do the USPSTF, ACS, ACR and ACOG agree on the age to start screening mammography for average-risk "
                 "women?"].outputs
    assert {frozenset(p.docs) for p in start.agreeing_pairs} >= {frozenset({"uspstf-breast-2024", "acog-breast-2024"})}
    assert all("acs-breast-2015" in p.docs for p in start.disagreements) and len(start.disagreements) == 3
    change = by_q["How did the USPSTF breast cancer screening recommendation change between 2016 and 2024?"].outputs
    assert [(p.facet, p.docs) for p in change.changes] == [("start_age", ["uspstf-breast-2016", "uspstf-breast-2024"])]
    statins = by_q["How did the USPSTF statin recommendation for primary prevention change between 2016 and 2022?"]
    assert not statins.outputs.changes and statins.metadata["expect"] == "none"


# ---------------------------------------------------------------- scoring on hand-made results

A, B, C, D, X = "doc-a", "doc-b", "doc-c", "doc-a-old", "doc-x"


def _case(**outputs) -> Case:
    base = {"docs": [A, B, C, D], "facets": ["start_age", "interval"], "disagreements": [], "agreeing_pairs": [],
            "changes": [], "unscored_pairs": []}
    return Case(id=uuid.uuid4(), inputs={"question": "q?"}, outputs={**base, **outputs},
                metadata={"split": "canonical"})


def _pair(facet, a, b, kind=None):
    return {"facet": facet, "kind": kind, "docs": [a, b]}


def _dis(facet, *doc_values, kind="disagreement"):
    return {"kind": kind, "facet": facet, "intervention": "x", "population": "p",
            "values": [{"doc_id": d, "org": None, "issued": None, "status": None, "value": v} for d, v in doc_values]}


@pytest.fixture
def toy():
    return _case(
        disagreements=[_pair("start_age", A, B, "disagreement"), _pair("interval", A, C, "disagreement")],
        agreeing_pairs=[_pair("start_age", A, C), _pair("interval", A, B)],
        changes=[_pair("start_age", D, A, "change")],
        unscored_pairs=[_pair("start_age", B, C)],
    )


def test_predicted_pairs_are_cross_doc_pairs_with_different_values():
    pairs = predicted_pairs([_dis("start_age", (A, "40"), (B, "45"), (C, "40"), (A, "40 ")),
                             _dis("interval", (A, "24"), (A, "12"))])
    assert pairs == {("start_age", frozenset({A, B})): "disagreement",
                     ("start_age", frozenset({B, C})): "disagreement"}


def test_predicted_pairs_are_the_pairs_a_disagreement_names_when_it_names_them():
    row = _dis("action", (A, "recommend (ages 45-49)"), (B, "recommend (ages 45-75)"), (C, "discourage"))
    row["pairs"] = [(A, C), (B, C)]  # A and B differ in wording only
    assert predicted_pairs([row]) == {("action", frozenset({A, C})): "disagreement",
                                      ("action", frozenset({B, C})): "disagreement"}


def test_perfect_frames_result(toy):
    result = {"disagreements": [_dis("start_age", (A, "40"), (B, "45")), _dis("interval", (A, "24"), (C, "12")),
                                _dis("start_age", (D, "50"), (A, "40"), kind="change")]}
    s = score_case(toy, result, threshold=0.5)["frames"]
    assert (s["gold"], s["hit"], s["gold_changes"], s["change_hit"]) == (2, 2, 1, 1)
    assert (s["predicted"], s["correct"], s["false_flags"], s["kind_errors"]) == (3, 3, 0, 0)
    assert s["missed"] == [] and s["false"] == []


def test_frames_false_flags_off_scope_unscored_and_kinds(toy):
    result = {"disagreements": [
        _dis("start_age", (A, "40"), (B, "45"), (C, "41")),  # A-B hit, A-C agreeing -> false, B-C unscored
        _dis("interval", (A, "24"), (B, "12")),  # agreeing on interval -> false flag
        _dis("start_age", (D, "50"), (A, "40")),  # the change, reported with kind "disagreement"
        _dis("stop_age", (A, "74"), (B, "75")),  # facet the question does not ask -> off scope
        _dis("start_age", (A, "40"), (X, "45")),  # document outside the question -> off scope
        _dis("interval", (B, "24"), (C, "12")),  # in scope, not in gold at all -> false flag
    ]}
    s = score_case(toy, result, threshold=0.5)
    f = s["frames"]
    assert (f["hit"], f["gold"], f["change_hit"]) == (1, 2, 1)
    assert f["predicted"] == 5 and f["correct"] == 2  # B-C start_age is unscored: in neither count
    assert f["false_flags"] == 3 and f["agreeing_flagged"] == 2 and f["off_scope"] == 2
    assert f["kind_errors"] == 1
    assert f["missed"] == ["interval:doc-a~doc-c"]
    assert f["false"] == ["interval:doc-a~doc-b", "interval:doc-b~doc-c", "start_age:doc-a~doc-c"]
    # facet dropped: A-B, A-C, A-D are gold pairs; B-C is unscored on start_age only -> neutral
    p = s["frames_pairs"]
    assert (p["hit"], p["gold"], p["change_hit"], p["gold_changes"]) == (2, 2, 1, 1)
    assert p["false_flags"] == 0 and p["off_scope"] == 1


def test_empty_frames_result_scores_zero_recall(toy):
    s = score_case(toy, {"disagreements": [], "contradictions": []}, threshold=0.5)
    assert s["frames"]["hit"] == 0 and s["frames"]["predicted"] == 0 and s["frames"]["false_flags"] == 0
    assert summarize([s])["frames"]["recall"] == 0.0 and summarize([s])["frames"]["precision"] is None


def test_nli_edges_scored_as_facet_agnostic_pairs():
    case = _case(docs=[A, B, C, D], disagreements=[_pair("start_age", A, B, "disagreement")],
                 agreeing_pairs=[_pair("start_age", A, C), _pair("interval", A, B)],
                 changes=[_pair("start_age", D, A, "change")], unscored_pairs=[_pair("interval", B, C)])
    edges = [
        {"doc_a": A, "doc_b": B, "score": 0.9},  # gold (it agrees on interval, disagrees on start age)
        {"doc_a": C, "doc_b": A, "score": 0.7},  # agreeing pair -> false flag
        {"doc_a": D, "doc_b": A, "score": 0.4},  # the change, but below threshold
        {"doc_a": B, "doc_b": C, "score": 0.8},  # unscored -> neutral
        {"doc_a": A, "doc_b": X, "score": 0.99},  # outside the question's documents
    ]
    s = score_case(case, {"contradictions": edges}, threshold=0.5)["nli"]
    assert (s["hit"], s["gold"], s["change_hit"], s["gold_changes"]) == (1, 1, 0, 1)
    assert (s["predicted"], s["correct"], s["false_flags"], s["agreeing_flagged"], s["off_scope"]) == (2, 1, 1, 1, 1)
    assert s["missed"] == ["doc-a~doc-a-old"] and s["false"] == ["doc-a~doc-c"]
    lower = score_case(case, {"contradictions": edges}, threshold=0.3)["nli"]
    assert lower["change_hit"] == 1
    # the result's own threshold is used when none is given
    assert score_case(case, {"contradictions": edges, "contradiction_threshold": 0.3})["nli"]["change_hit"] == 1


def test_summary_is_micro_averaged_and_counts_clean_no_conflict_answers(toy):
    agree = _case(agreeing_pairs=[_pair("start_age", A, C)])
    s1 = score_case(toy, {"disagreements": [_dis("start_age", (A, "40"), (B, "45"))]}, threshold=0.5)
    s2 = score_case(agree, {"disagreements": [_dis("start_age", (A, "40"), (C, "45"))],
                            "contradictions": [{"doc_a": A, "doc_b": C, "score": 0.9}]}, threshold=0.5)
    s3 = score_case(agree, {"disagreements": []}, threshold=0.5)
    m = summarize([s1, s2, s3])
    assert m["frames"]["recall"] == 0.5  # 1 of toy's 2 disagreement pairs; the others have none
    assert m["frames"]["change_recall"] == 0.0
    assert m["frames"]["precision"] == 0.5 and m["frames"]["false_flags_per_answer"] == round(1 / 3, 4)
    assert m["frames"]["agreeing_flagged"] == 1 and m["frames"]["clean_no_conflict"] == 0.5
    assert m["nli"]["false_flags_per_answer"] == round(1 / 3, 4) and m["nli"]["recall"] == 0.0
    assert m["frames"]["cases_passed"] == 1  # only the clean agreeing case


# ---------------------------------------------------------------- the LangSmith run and the command


def _gold_target(cases):
    """A fake graph: the gold disagreements and changes as typed Disagreements, plus one false NLI edge per case."""
    by_q = {c.inputs.question: c for c in cases}

    def target(inputs):
        c = by_q[inputs["question"]]
        dis = [_dis(p.facet, *[(v.doc_id, v.value) for v in p.values], kind=p.kind)
               for p in c.outputs.disagreements + c.outputs.changes]
        edges = [{"doc_a": a, "doc_b": b, "score": 0.9} for a, b in itertools.combinations(c.outputs.docs, 2)]
        return {"decision": "answer", "disagreements": dis, "contradictions": edges, "contradiction_threshold": 0.5}

    return target


def test_run_experiment_offline_with_a_perfect_frames_target(cases):
    from clinrag.context import Context

    some = [c for c in cases if c.metadata["split"] == "canonical"][:4] + \
           [c for c in cases if c.metadata["split"] == "holdout"][:2]
    rows = run_experiment(some, Context(), target=_gold_target(some))
    assert len(rows) == len(some)
    payload = results_payload(rows)
    assert set(payload["metrics"]) == {"canonical", "holdout", "all"}
    canon = payload["metrics"]["canonical"]
    assert canon["frames"]["recall"] == 1.0 and canon["frames"]["precision"] == 1.0
    assert canon["frames"]["false_flags_per_answer"] == 0.0
    assert canon["nli"]["recall"] == 1.0 and canon["nli"]["false_flags_per_answer"] > 0  # every pair flagged
    assert all(r["scores"]["frames_false_flags"] == 0 for r in rows)
    # one evaluator reports every feedback key; the gold target recalls everything and flags every NLI pair
    assert all(set(r["scores"]) == {"frames_recall", "frames_precision", "frames_false_flags", "frames_change_recall",
                                    "nli_recall", "nli_precision", "nli_false_flags"} for r in rows)
    assert all(r["scores"]["frames_recall"] in (1.0, None) and r["scores"]["frames_precision"] in (1.0, None)
               for r in rows)
    assert sum(r["scores"]["nli_false_flags"] for r in rows) == sum(
        r["detail"]["nli"]["false_flags"] for r in rows) > 0
    assert all(c.startswith(("frames_recall: ", "nli_recall: ")) for r in rows for c in r["comments"])
    json.dumps(payload)


def test_cli_command(tmp_path, monkeypatch, capsys, cases):
    import clinrag.evals.disagreements_experiment as bench
    from clinrag.cli import disagreements as cli
    from clinrag.cli.common import common_parent

    real = bench.run_experiment
    monkeypatch.setattr(bench, "run_experiment", lambda cs, ctx: real(cs, ctx, target=_gold_target(cs)))
    parser = argparse.ArgumentParser()
    eval_sub = parser.add_subparsers(dest="benchmark")
    cli.register(eval_sub, common_parent())
    out = tmp_path / "m.json"
    args = parser.parse_args(["disagreements", "--split", "holdout", "--json-out", str(out)])
    assert args.func(args) == 0
    printed = capsys.readouterr().out
    assert "NLI-only" in printed and "false flags / answer" in printed
    metrics = json.loads(out.read_text())["metrics"]
    assert list(metrics) == ["holdout"] and metrics["holdout"]["frames"]["recall"] == 1.0


def test_facets_match_the_frames_schema():
    frames_schema = pytest.importorskip("clinrag.tools.frames.schema")
    from typing import get_args

    assert set(get_args(frames_schema.Facet)) == set(FACETS)


def test_gold_pairs_retrieved_and_ask_result_objects(toy):
    """An AskResult-like object is read by attribute; retrieval coverage counts gold pairs with both docs returned."""
    from types import SimpleNamespace

    edge = SimpleNamespace(doc_a=A, doc_b=B, score=0.8, sentence_a="", sentence_b="")
    result = SimpleNamespace(decision="answer", evidence=[{"doc_id": A}, {"doc_id": B}], contradictions=[edge])
    s = score_case(toy, result, threshold=0.5)  # no ``disagreements`` attribute yet: the frames path is empty
    assert s["gold_pairs"] == 3 and s["gold_pairs_retrieved"] == 1
    assert s["frames"]["predicted"] == 0 and s["nli"]["hit"] == 1
    assert summarize([s])["gold_pairs_retrieved"] == round(1 / 3, 4)
    assert score_case(toy, {"disagreements": []}, threshold=0.5)["gold_pairs_retrieved"] is None


def test_a_target_that_raises_is_reported_not_scored_silently(cases):
    from clinrag.context import Context

    some = [c for c in cases if c.metadata["split"] == "holdout"][:2]
    good = _gold_target(some)

    def target(inputs):
        if inputs["question"] == some[0].inputs.question:
            raise ImportError("graph half-built")
        return good(inputs)

    rows = run_experiment(some, Context(), target=target)
    by_q = {r["example"].inputs["question"]: r for r in rows}
    assert "graph half-built" in by_q[some[0].inputs.question]["error"]
    assert by_q[some[1].inputs.question]["error"] is None
    assert results_payload(rows)["metrics"]["holdout"]["errors"] == 1


def test_nli_baseline_edges_take_precedence_over_the_graphs_residual_edges(toy):
    residual = [{"doc_a": A, "doc_b": B, "score": 0.9}]
    baseline = [{"doc_a": A, "doc_b": C, "score": 0.9}]
    s = score_case(toy, {"contradictions": residual, "nli_baseline": baseline}, threshold=0.5)["nli"]
    assert s["false"] == [] and s["hit"] == 1 and s["missed"] == ["doc-a~doc-a-old", "doc-a~doc-b"]
    assert score_case(toy, {"contradictions": residual}, threshold=0.5)["nli"]["missed"] == ["doc-a~doc-a-old",
                                                                                           "doc-a~doc-c"]


def test_synthetic_corpora_are_fictional_and_split_into_seen_and_blind():
    """The synthetic guidelines name no real organization and say what they are; each corpus written blind is one
    split: the ones the rules were extended for are canonical, the newest is the holdout."""
    docs = load_documents(SYNTHETIC_CORPUS)
    assert all("(synthetic test guideline)" in d.title for d in docs)
    real = {"USPSTF", "ACS", "ACP", "ACOG", "ACR", "AAFP", "ADA", "NICE", "ESC", "AHA", "ACC", "AUA", "KDIGO"}
    assert not {d.org for d in docs} & real
    cases = load_cases(SYNTHETIC_CASES)
    assert {c.metadata["split"] for c in cases} == {"canonical", "holdout"}
    assert len(load_cases(SYNTHETIC_CASES, split="holdout")) >= 12
