"""The trained NLI backends: data builder, both stages, the two-stage combination and the scorer CLI."""

from __future__ import annotations

import csv
import io
import json
import random
import sys

import numpy as np
import pytest

from clinrag.cli.main import main
from clinrag.tools.nli.data import (
    build_stance_training_data,
    counterfactual,
    healthver_pairs,
    nli4ct_pairs,
    scifact_pairs,
    split_by_group,
)
from clinrag.tools.nli.features import LINGUISTIC_NAMES, linguistic_features, pair_features
from clinrag.tools.nli.trained import FeatureNLI, TwoStageNLI, load_feature_model


@pytest.fixture
def tiny_data(tmp_path):
    """A miniature data directory in the public datasets' formats."""
    (tmp_path / "scifact").mkdir()
    corpus = [{"doc_id": 1, "title": "T", "abstract": ["Aspirin lowers stroke risk.", "Cohort of 500 adults.",
                                                        "Bleeding increased."]}]
    (tmp_path / "scifact" / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in corpus))
    claims = [
        {"id": 1, "claim": "Aspirin lowers stroke risk.", "evidence": {"1": [{"sentences": [0], "label": "SUPPORT"}]},
         "cited_doc_ids": [1]},
        {"id": 2, "claim": "Aspirin reduces bleeding.", "evidence": {"1": [{"sentences": [2], "label": "CONTRADICT"}]},
         "cited_doc_ids": [1]},
        {"id": 3, "claim": "Statins cure cancer.", "evidence": {}, "cited_doc_ids": [1]},
    ]
    (tmp_path / "scifact" / "claims_train.jsonl").write_text("\n".join(json.dumps(c) for c in claims))
    (tmp_path / "nli4ct" / "CT json").mkdir(parents=True)
    trial = {"Clinical Trial ID": "NCT1", "Intervention": ["Arm A: drug X", "Arm B: placebo"],
             "Eligibility": ["Women over 18"], "Results": ["Response 40%"], "Adverse Events": ["Nausea 5%"]}
    (tmp_path / "nli4ct" / "CT json" / "NCT1.json").write_text(json.dumps(trial))
    statements = {"s1": {"Type": "Single", "Section_id": "Results", "Primary_id": "NCT1",
                         "Statement": "Response was 40%.", "Label": "Entailment", "Primary_evidence_index": [0]}}
    (tmp_path / "nli4ct" / "train.json").write_text(json.dumps(statements))
    (tmp_path / "healthver").mkdir()
    with (tmp_path / "healthver" / "healthver_dev.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "evidence", "claim", "label", "topic_ip", "question"])
        w.writerow([1, "Masks reduce spread.", "Masks do not reduce spread.", "Refutes", 7, "q"])
    return tmp_path


def test_data_builder_pairs_and_labels(tiny_data):
    rng = random.Random(0)
    sci = scifact_pairs("train", tiny_data, rng)
    by_label = {(p.hypothesis, p.label) for p in sci}
    assert ("Aspirin lowers stroke risk.", "entailment") in by_label
    assert ("Aspirin reduces bleeding.", "contradiction") in by_label
    assert ("Statins cure cancer.", "neutral") in by_label  # NEI claim vs. its closest cited sentence
    support = next(p for p in sci if p.label == "entailment")
    assert support.premise == "Aspirin lowers stroke risk."  # short premise: the rationale sentence only
    ct = nli4ct_pairs("train", tiny_data, rng)
    assert ct[0].label == "entailment" and ct[0].premise == "Response 40%"
    assert ct[1].label == "neutral" and "Response" not in ct[1].premise  # another section of the trial
    (hv,) = healthver_pairs("dev", tiny_data)
    assert (hv.label, hv.group) == ("contradiction", "healthver:7")


def test_stance_data_never_trains_on_what_is_validated_or_reported(tiny_data, monkeypatch):
    from clinrag.tools.nli import data

    # the NLI cross-encoder's validation topics are the stance model's too; here, topic 4
    monkeypatch.setattr(data, "stance_validation_topics", lambda root, seed: {"healthver:4"})
    with (tiny_data / "healthver" / "healthver_dev.csv").open("a", newline="") as fh:
        csv.writer(fh).writerow([2, "Masks cut spread.", "Masks reduce spread.", "Supports", 4, "q"])
    (tiny_data / "pubmedqa").mkdir()
    rows = [  # sha1 buckets of the PMIDs: "4" -> 0 (reported), "2" -> 1 (validation), "9" and "12" -> 2 (train)
        {"pmid": "4", "question": "Does A help?", "long_answer": "A helped.", "final_decision": "yes"},
        {"pmid": "2", "question": "Does C help?", "long_answer": "C did not help.", "final_decision": "no"},
        {"pmid": "9", "question": "Is B safe?", "long_answer": "B was unsafe.", "final_decision": "no"},
        {"pmid": "12", "question": "Is D safe?", "long_answer": "Unclear.", "final_decision": "maybe"},
    ]
    (tiny_data / "pubmedqa" / "pqal_corpus.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    data = build_stance_training_data(tiny_data)
    train = {(p.premise, p.hypothesis, p.label) for p in data["train"]}
    assert ("B was unsafe.", "B safe", "contradiction") in train  # the question as a claim, as at query time
    assert ("Unclear.", "D safe", "neutral") in train
    assert ("Masks reduce spread.", "Masks do not reduce spread.", "contradiction") in train  # topic 7: train
    premises = {p.premise for p in data["train"]}
    assert not premises & {"A helped.", "C did not help.", "Masks cut spread."}
    assert [(p.premise, p.label) for p in data["val_healthver"]] == [("Masks cut spread.", "entailment")]
    assert [(p.premise, p.label) for p in data["val_pubmedqa"]] == [("C did not help.", "contradiction")]


def test_splits_are_disjoint_by_group(tiny_data):
    pairs = scifact_pairs("train", tiny_data, random.Random(0)) * 5
    train, val = split_by_group(pairs, 0.34, random.Random(1))
    assert val and train and not ({p.group for p in train} & {p.group for p in val})


def test_counterfactuals_flip_direction_or_negate():
    assert counterfactual("Aspirin increases bleeding risk.") == "Aspirin decreases bleeding risk."
    assert counterfactual("Vitamin D is protective.") == "Vitamin D is not protective."
    assert counterfactual("Aspirin bleeding.") is None


def test_linguistic_features_see_negation_direction_and_numbers():
    f = dict(zip(LINGUISTIC_NAMES, linguistic_features("Statins reduce mortality by 20%.",
                                                       "Statins do not increase mortality by 30%.", 0.8)))
    assert f["neg_xor"] == 1.0 and f["direction_conflict"] == 1.0 and f["num_mismatch"] == 1.0
    assert f["cosine"] == 0.8
    u = np.eye(3, 384, dtype=np.float32)[:2]
    x = pair_features(["a b", "c"], ["a", "c d"], u, u)
    assert x.shape == (2, 4 * 384 + len(LINGUISTIC_NAMES))


def test_shipped_feature_model_scores_pairs():
    model = load_feature_model()
    assert isinstance(model, FeatureNLI)
    probs = model.predict([
        ("Aspirin reduced the risk of stroke in adults.", "Aspirin reduces stroke risk in adults."),
        ("Aspirin reduced the risk of stroke in adults.", "The weather in Paris is mild in spring."),
    ])
    assert probs.shape == (2, 3) and np.allclose(probs.sum(1), 1, atol=1e-5)
    assert probs[1, 1] > probs[0, 1]  # the unrelated pair is the more neutral one
    assert model.predict([]).shape == (0, 3)


class Fixed:
    def __init__(self, rows, name):
        self.rows, self.name, self.calls = np.asarray(rows, float), name, []

    def predict(self, pairs):
        self.calls.append(list(pairs))
        return self.rows[: len(pairs)].copy()


def test_two_stage_rescores_only_pairs_past_the_gate():
    first = Fixed([[0.8, 0.1, 0.1], [0.1, 0.1, 0.8], [0.2, 0.2, 0.6]], "first")
    second = Fixed([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]], "second")
    first.fingerprint, second.fingerprint = "f", "s"
    probs = TwoStageNLI(first, second, gate=0.3).predict([("a", "1"), ("b", "2"), ("c", "3")])
    assert second.calls == [[("b", "2"), ("c", "3")]]  # p_contradiction 0.8 and 0.6 pass the gate, 0.1 does not
    assert np.allclose(probs[0], [0.8, 0.1, 0.1])
    assert np.allclose(probs[1], [0.05, 0.05, 0.9]) and np.allclose(probs[2], [0.6, 0.1, 0.3])
    only_first = TwoStageNLI(first, second, gate=0.3).predict([("a", "1")])
    assert np.allclose(only_first[0], [0.8, 0.1, 0.1]) and len(second.calls) == 1  # a pair's score is its own


def test_contradiction_score_cli(capsys, monkeypatch):
    lines = [{"a": "Aspirin reduces stroke.", "b": "Aspirin does not reduce stroke."},
             {"a": "Screening starts at 40.", "b": "Screening starts at 40."}]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(json.dumps(l) for l in lines) + "\n"))
    assert main(["contradiction", "score", "--pairs", "-", "--backend", "lexical"]) == 0
    rows = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2 and set(rows[0]) == {"p_entailment", "p_neutral", "p_contradiction"}
    assert rows[0]["p_contradiction"] > 0.5 and rows[1]["p_contradiction"] == 0.0


def test_contradiction_score_cli_rejects_bad_lines(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"a": "x", "b": "y"}\n{"a": "only a"}\n')
    assert main(["contradiction", "score", "--pairs", str(path), "--backend", "lexical"]) == 2
    assert "pairs.jsonl:2" in capsys.readouterr().err


PAIRS = [
    ("Aspirin reduced the risk of stroke in adults.", "Aspirin reduces stroke risk in adults."),
    ("Aspirin reduced the risk of stroke in adults.", "Aspirin does not reduce stroke risk in adults."),
    ("Masks reduce the spread of the virus.", "The weather in Paris is mild in spring."),
]


def test_cached_activations_reproduce_the_full_cross_encoder():
    """Training runs only the top layers on cached lower-layer states: that must equal the whole model."""
    import torch

    from clinrag.tools.nli.cross_encoder import new_cross_encoder
    from clinrag.tools.nli.data import Pair
    from clinrag.tools.nli.train_cross_encoder import cache_frozen_activations, predict_cached

    torch.manual_seed(0)
    model, tokenizer = new_cross_encoder()
    model.eval()
    pairs = [Pair(premise=a, hypothesis=b, label="neutral", source="t", group="g") for a, b in PAIRS]
    cached = predict_cached(model, cache_frozen_activations(model, tokenizer, pairs))
    with torch.inference_mode():
        enc = tokenizer([a for a, _ in PAIRS], [b for _, b in PAIRS], padding=True, return_tensors="pt")
        full = model(**enc).logits.softmax(-1).numpy()
    np.testing.assert_allclose(cached, full, atol=5e-3)  # fp16 cache


def test_cross_encoder_training_ships_only_the_trained_tensors(tmp_path):
    from safetensors.numpy import load_file

    from clinrag.tools.nli.cross_encoder import CROSS_ENCODER_FILE, FROZEN_LAYERS, CrossEncoderNLI
    from clinrag.tools.nli.data import Pair
    from clinrag.tools.nli.train_cross_encoder import train_cross_encoder

    labels = ["entailment", "contradiction", "neutral"]
    pairs = [Pair(premise=a, hypothesis=b, label=l, source="t", group=str(i))
             for i, ((a, b), l) in enumerate(zip(PAIRS, labels))]
    report = train_cross_encoder(pairs, pairs, budget_minutes=0.02, out_dir=tmp_path, log=lambda m: None)
    assert report["epochs"] and report["n_train"] == 3
    shipped = load_file(str(tmp_path / CROSS_ENCODER_FILE))
    assert all(k.startswith((f"bert.encoder.layer.{FROZEN_LAYERS}.", f"bert.encoder.layer.{FROZEN_LAYERS + 1}.",
                             "bert.pooler.", "classifier.")) for k in shipped)
    assert all(v.dtype == np.float16 for v in shipped.values())
    probs = CrossEncoderNLI(tmp_path / CROSS_ENCODER_FILE).predict(PAIRS)
    assert probs.shape == (3, 3) and np.allclose(probs.sum(1), 1, atol=1e-5)


def test_shipped_cross_encoder_onnx_agrees_with_torch_and_ignores_batch_mates(guideline_index):
    from clinrag.tools.index.onnx_models import OnnxCrossEncoderNLI
    from clinrag.tools.nli.backends import get_nli_backend

    onnx_model = get_nli_backend("cross-encoder")
    assert isinstance(onnx_model, OnnxCrossEncoderNLI)
    torch_probs = get_nli_backend("cross-encoder-torch").predict(PAIRS)
    onnx_probs = onnx_model.predict(PAIRS)
    np.testing.assert_allclose(onnx_probs, torch_probs, atol=5e-3)  # fp16-stored weights, fp32 compute
    alone = np.vstack([onnx_model.predict([pair]) for pair in PAIRS])
    np.testing.assert_allclose(alone, onnx_probs, atol=1e-4)  # a pair's score does not depend on its batch
    assert onnx_probs[1, 2] > onnx_probs[0, 2]  # "does not reduce" contradicts more than the paraphrase


def test_stance_training_from_the_cli_ships_every_layer_and_merges_its_report(tmp_path, monkeypatch):
    from safetensors.numpy import load_file

    from clinrag.tools.nli import train_stance
    from clinrag.tools.nli.cross_encoder import STANCE_FILE, StanceCrossEncoder
    from clinrag.tools.nli.data import Pair

    def tiny(root=None, seed=13):
        texts = [("Vitamin D reduced fractures.", "vitamin D reduce fractures", "entailment"),
                 ("Vitamin D did not reduce fractures.", "vitamin D reduce fractures", "contradiction"),
                 ("Participants were 70 or older.", "vitamin D reduce fractures", "neutral")]
        pairs = [Pair(premise=a, hypothesis=b, label=l, source="t", group=str(i)) for i, (a, b, l) in enumerate(texts)]
        return {"train": pairs, "val_healthver": pairs[:2], "val_pubmedqa": pairs[:2]}

    monkeypatch.setattr(train_stance, "build_stance_training_data", tiny)
    assert main(["nli", "train", "--stage", "stance", "--budget-minutes", "0.02", "--out", str(tmp_path)]) == 0
    shipped = load_file(str(tmp_path / STANCE_FILE))
    assert any(k.startswith("bert.encoder.layer.0.") for k in shipped)  # every layer trained, so every layer ships
    assert not any(k.startswith("bert.embeddings.") for k in shipped)  # the embeddings stay as shipped
    report = json.loads((tmp_path / "training.json").read_text())["stance"]
    assert report["frozen_layers"] == 0 and report["n_train"] == 3
    assert {"healthver_val_auroc", "pubmedqa_bucket1_auroc"} <= set(report["epochs"][0])
    probs = StanceCrossEncoder(tmp_path / STANCE_FILE).predict([("Vitamin D reduced fractures.", "vitamin D")])
    assert probs.shape == (1, 3) and np.isclose(probs.sum(), 1, atol=1e-5)
