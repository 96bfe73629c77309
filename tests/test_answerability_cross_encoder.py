"""The answerability cross-encoder: shipped weights, ONNX = torch, known pairs, the support-score combination and
the shared top-layer trainer."""

from __future__ import annotations

import numpy as np
import pytest

from clinrag.tools.retrieval import answerability
from clinrag.tools.retrieval.answerability import (
    AnswerProbabilities,
    CrossEncoderAnswerability,
    MLPAnswerability,
    get_answerability_model,
    support_scores,
)
from clinrag.tools.retrieval.answerability_cross_encoder import (
    CROSS_ENCODER_FILE,
    WEIGHTS_DIR,
    load_torch_cross_encoder,
)

# (question, a passage that answers it, a passage that shares its words but does not answer it, p_answer, p_other);
# the probabilities are the shipped weights' (torch), pinned so that a retrained model is noticed
PAIRS = [
    ("What are the symptoms of type 2 diabetes?",
     "Symptoms of type 2 diabetes include increased thirst, frequent urination, blurred vision and tiredness. "
     "Some people have no symptoms for years.",
     "Type 2 diabetes is caused by insulin resistance. Obesity and physical inactivity raise the risk of type 2 "
     "diabetes.",
     0.704, 0.4793),
    ("At what age should average-risk adults start colorectal cancer screening?",
     "The USPSTF recommends screening for colorectal cancer in all adults aged 45 to 49 years. Screening continues "
     "through age 75.",
     "Colorectal cancer screening with colonoscopy requires bowel preparation the day before; average-risk adults "
     "are usually sedated during the procedure.",
     0.9112, 0.0734),
    ("Does vitamin D supplementation reduce fracture risk in older adults?",
     "Daily vitamin D supplementation did not reduce the incidence of hip or nonvertebral fractures among adults "
     "aged 70 years or older.",
     "Vitamin D supplementation changed the number of regulatory T cells in older adults with kidney disease.",
     0.974, 0.948),
]


def test_shipped_weights_load_and_hold_only_the_trained_layers():
    from safetensors.numpy import load_file

    path = WEIGHTS_DIR / CROSS_ENCODER_FILE
    assert path.stat().st_size < 10_000_000
    from clinrag.tools.retrieval.train_answerability_cross_encoder import CE_FROZEN_LAYERS

    shipped = load_file(str(path))
    trained = tuple(f"bert.encoder.layer.{i}." for i in range(CE_FROZEN_LAYERS, 6))
    assert all(k.startswith((*trained, "bert.pooler.", "classifier.")) for k in shipped)
    assert any(k.startswith(trained[0]) for k in shipped)
    assert all(v.dtype == np.float16 for v in shipped.values())
    assert shipped["classifier.weight"].shape == (2, 384)
    model = load_torch_cross_encoder()
    p = model.predict([("a question?", "a passage."), ("another question?", "")])
    assert p.shape == (2, 2) and np.allclose(p.sum(1), 1.0)


@pytest.mark.parametrize(("question", "answers", "other", "p_answer", "p_other"), PAIRS)
def test_answering_passage_scores_above_one_that_shares_its_words(question, answers, other, p_answer, p_other):
    p = load_torch_cross_encoder().predict([(question, answers), (question, other)])[:, 1]
    assert p[0] > p[1]  # the vitamin-D pair only narrowly: the model card's limits
    assert p == pytest.approx([p_answer, p_other], abs=2e-3)


def test_onnx_export_matches_torch(tmp_path):
    from clinrag.tools.index.onnx_models import (
        ANSWERABILITY_ONNX_FILE,
        OnnxAnswerability,
        answerability_source,
        export_answerability,
    )

    path = export_answerability(tmp_path)
    assert path == tmp_path / ANSWERABILITY_ONNX_FILE
    mtime = path.stat().st_mtime_ns
    assert export_answerability(tmp_path) == path and path.stat().st_mtime_ns == mtime  # same weights: reused
    assert "answerability-cross-encoder=" in answerability_source()
    pairs = [(q, a) for q, a, _, _, _ in PAIRS] + [(q, o) for q, _, o, _, _ in PAIRS]
    pairs.append(("Is this long?", "word " * 400))  # truncated to MAX_LENGTH on both runtimes
    onnx = OnnxAnswerability(path).predict(pairs)
    torch = load_torch_cross_encoder().predict(pairs)
    np.testing.assert_allclose(onnx, torch, atol=1e-4)
    assert OnnxAnswerability(path).predict([]).shape == (0, 2)


def test_factory_is_a_closed_set():
    assert isinstance(get_answerability_model("mlp"), MLPAnswerability)
    ce = get_answerability_model("cross-encoder")
    assert isinstance(ce, CrossEncoderAnswerability) and ce.top_n == answerability.CROSS_ENCODER_TOP_N
    assert get_answerability_model().name == answerability.ANSWERABILITY_MODEL
    with pytest.raises(ValueError, match="answerability model"):
        get_answerability_model("bm25")


def test_support_combines_the_cross_encoder_with_the_absolute_score(guideline_index, monkeypatch):
    """support = w * p + (1 - w) * absolute on the cross-encoder's top-N rows; absolute beyond them."""
    from clinrag.tools.index.embeddings import embed_texts
    from clinrag.tools.index.text import content_tokens
    from clinrag.tools.retrieval.hybrid import hybrid_search

    monkeypatch.setenv("CLINRAG_MODEL_RUNTIME", "torch")  # the reference runtime; ONNX agreement is tested above
    monkeypatch.setattr(answerability, "ANSWERABILITY_MODEL", "cross-encoder")
    question = "At what age should average-risk adults start colorectal cancer screening?"
    results = hybrid_search(guideline_index, question)
    rows = [s.row for s in results]
    cos = np.array([s.sentence_cosine for s in results])
    q = embed_texts([question])[0]
    terms = content_tokens(question)
    model = CrossEncoderAnswerability(top_n=3)
    absolute = support_scores(guideline_index, q, rows, terms, cos, weight=0.0)
    probs = AnswerProbabilities(guideline_index, question, q, terms, ranked=rows, model=model)
    p = probs.of(rows)
    assert np.all(np.isfinite(p[:3])) and np.all(np.isnan(p[3:]))  # only the top-N are scored
    expected = model.probability(guideline_index, question, q, rows[:3], None)
    assert p[:3] == pytest.approx(expected, abs=1e-6)
    for w in (0.25, 1.0):
        combined = support_scores(guideline_index, q, rows, terms, cos, weight=w, question=question,
                                  probabilities=probs)
        assert combined[:3] == pytest.approx(w * expected + (1 - w) * absolute[:3])
        assert combined[3:] == pytest.approx(absolute[3:])
        assert np.all((combined >= 0) & (combined <= 1))
    with pytest.raises(ValueError, match="question text"):
        support_scores(guideline_index, q, rows, terms, cos, weight=0.5,
                       probabilities=AnswerProbabilities(guideline_index, None, q, terms, model=model))


def test_hybrid_support_runs_the_cross_encoder_once_per_question(guideline_index, monkeypatch):
    from clinrag.tools.retrieval.hybrid import hybrid_search

    monkeypatch.setenv("CLINRAG_MODEL_RUNTIME", "torch")
    monkeypatch.setattr(answerability, "ANSWERABILITY_MODEL", "cross-encoder")
    monkeypatch.setattr(answerability, "ANSWERABILITY_WEIGHT", 0.5)
    calls = []
    real = CrossEncoderAnswerability.predict_pairs
    monkeypatch.setattr(CrossEncoderAnswerability, "predict_pairs",
                        lambda self, pairs: (calls.append(len(pairs)), real(self, pairs))[1])
    results = hybrid_search(guideline_index, "When should average-risk women start mammography?")
    supports = [s.support for s in results]
    assert calls == [min(len(results), answerability.CROSS_ENCODER_TOP_N)]  # one batch, bounded
    assert all(0 <= v <= 1 for v in supports)


def test_the_shared_trainer_trains_a_two_way_head(tmp_path):
    from safetensors.numpy import load_file

    from clinrag.tools.nli.train_cross_encoder import train_top_layers
    from clinrag.tools.retrieval.answerability_cross_encoder import ID2LABEL, CrossEncoderAnswerability

    pairs = [(q, a) for q, a, _, _, _ in PAIRS] + [(q, o) for q, _, o, _, _ in PAIRS]
    labels = np.array([1, 1, 1, 0, 0, 0])
    seen = []
    report = train_top_layers(pairs, labels, pairs, lambda probs: (seen.append(probs.shape), 0.5)[1], 0.02,
                              tmp_path / "ce.safetensors", ID2LABEL, 64, log=lambda m: None)
    assert report["epochs"] and report["n_train"] == 6 and seen[0] == (6, 2)
    assert load_file(str(tmp_path / "ce.safetensors"))["classifier.weight"].shape == (2, 384)
    assert CrossEncoderAnswerability(tmp_path / "ce.safetensors").predict(pairs[:1]).shape == (1, 2)
