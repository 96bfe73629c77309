"""NLI backends and the contradiction graph."""

from __future__ import annotations

import numpy as np
import pytest

from clinrag.tools.nli.backends import HFSequenceClassificationNLI, LexicalNLI, get_nli_backend
from clinrag.tools.nli.contradiction import contradiction_graph


def test_lexical_baseline_cues():
    nli = LexicalNLI()
    probs = nli.predict([
        ("Aspirin reduces the risk of stroke in adults.", "Aspirin does not reduce the risk of stroke in adults."),
        ("Screening mammography every year from age 40.", "Screening mammography every year from age 50."),
        ("Statins increase the risk of diabetes.", "Statins decrease the risk of diabetes."),
        ("Screening colonoscopy every 10 years.", "Screening colonoscopy every 10 years."),
    ])
    assert probs.shape == (4, 3) and np.allclose(probs.sum(1), 1)
    negation, number, direction, same = probs[:, 2]
    assert negation > 0.5 and number > 0.3 and direction > 0.4
    assert same == 0.0 and probs[3, 0] > 0.9  # identical sentences: entailment, no contradiction


def tiny_nli_model(path, labels):
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "aspirin", "reduces", "stroke", "not", "does"]
    (path / "vocab.txt").write_text("\n".join(vocab))
    BertTokenizerFast(vocab_file=str(path / "vocab.txt")).save_pretrained(path)
    config = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=32, num_labels=3, id2label=dict(enumerate(labels)),
                        label2id={l: i for i, l in enumerate(labels)})
    BertForSequenceClassification(config).save_pretrained(path)
    return path


def test_any_hf_sequence_classification_model_by_path(tmp_path):
    path = tiny_nli_model(tmp_path, ["CONTRADICTION", "ENTAILMENT", "NEUTRAL"])  # order differs from ours
    backend = get_nli_backend(str(path))
    assert isinstance(backend, HFSequenceClassificationNLI) and backend.columns == [1, 2, 0]
    probs = backend.predict([("aspirin reduces stroke", "aspirin does not reduce stroke")] * 3)
    assert probs.shape == (3, 3) and np.allclose(probs.sum(1), 1) and np.allclose(probs[0], probs[2])
    assert backend.predict([]).shape == (0, 3)


def test_hf_backend_rejects_models_without_nli_labels(tmp_path):
    path = tiny_nli_model(tmp_path, ["positive", "negative", "neutral"])
    with pytest.raises(ValueError, match="entailment, neutral and contradiction"):
        HFSequenceClassificationNLI(path)


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ValueError, match="expected one of cross-encoder, feature, two-stage, cross-encoder-torch, "
                                         "lexical or a local Hugging Face"):
        get_nli_backend("/no/such/model")


class ScriptedNLI:
    """Contradiction 0.9 for pairs containing 'never', else 0.1."""

    name = "scripted"

    def predict(self, pairs):
        return np.array([[0.0, 0.1, 0.9] if "never" in a + b else [0.8, 0.1, 0.1] for a, b in pairs])


def test_contradiction_graph_cnt_salience_and_indicative_pair():
    texts = {
        "a": "Statins lower cardiovascular risk in adults. The sky is blue.",
        "b": "Statins never lower cardiovascular risk in adults.",
        "c": "Bananas are yellow fruit.",
    }
    edges, salience = contradiction_graph(texts, ScriptedNLI(), pair_threshold=0.6)
    ab = next(e for e in edges if {e.doc_a, e.doc_b} == {"a", "b"})
    assert ab.score == pytest.approx(0.9)
    assert "never" in ab.sentence_b and ab.sentence_a == "Statins lower cardiovascular risk in adults."
    assert all({e.doc_a, e.doc_b} != {"a", "c"} for e in edges)  # unrelated sentences are never compared
    assert salience["a"] == pytest.approx(0.9 / 2) and salience["b"] == pytest.approx(0.9 / 2)
    assert salience["c"] == 0.0
