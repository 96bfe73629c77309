"""The trained answerability score: shipped weights, known pairs, the combined support's range."""

from __future__ import annotations

import numpy as np
import pytest

from clinrag.tools.index.embeddings import embed_texts
from clinrag.tools.index.text import content_tokens
from clinrag.tools.retrieval import answerability
from clinrag.tools.retrieval.answerability import (
    FEATURE_DIM,
    WEIGHTS_PATH,
    AnswerProbabilities,
    answer_probability,
    get_answerability_model,
    load_model,
    pair_features,
    support_scores,
)
from clinrag.tools.retrieval.hybrid import hybrid_search, support_score, term_coverage

# (question, sentences of a passage that answers it, sentences of one that does not, p_answer, p_other); the
# non-answering passage is on the same subject where possible (causes for a symptoms question). Coverage is
# held equal (0.3) so that the vectors alone decide.
PAIRS = [
    ("What are the symptoms of type 2 diabetes?",
     ["Symptoms of type 2 diabetes include increased thirst, frequent urination, blurred vision and tiredness.",
      "Some people have no symptoms for years."],
     ["Type 2 diabetes is caused by insulin resistance.", "Obesity and physical inactivity raise the risk."],
     0.1528, 0.0039),
    ("At what age should average-risk adults start colorectal cancer screening?",
     ["The USPSTF recommends screening for colorectal cancer in all adults aged 45 to 49 years.",
      "Screening continues through age 75."],
     ["Colonoscopy requires bowel preparation the day before.", "Sedation is usually given during the procedure."],
     0.9970, 0.0114),
    ("Does vitamin D supplementation reduce fracture risk in older adults?",
     ["Daily vitamin D supplementation did not reduce the incidence of hip or nonvertebral fractures among adults "
      "aged 70 years or older."],
     ["Programmed cell death occurs in lace plant leaves and is regulated by mitochondria."],
     0.9851, 0.1088),
]


def test_shipped_weights_load():
    model = load_model()
    assert WEIGHTS_PATH.stat().st_size < 2_000_000
    assert model.w1.shape == (FEATURE_DIM, 64) and model.b1.shape == (64,) and model.w2.shape == (64,)
    assert model.mean.shape == model.scale.shape == (FEATURE_DIM,) and np.all(model.scale > 0)
    p = model.predict(np.zeros((2, FEATURE_DIM)))
    assert p.shape == (2,) and np.all((p >= 0) & (p <= 1))


@pytest.mark.parametrize(("question", "answers", "other", "p_answer", "p_other"), PAIRS)
def test_answering_passage_scores_above_non_answering(question, answers, other, p_answer, p_other):
    q = embed_texts([question])[0]
    p = load_model().predict(pair_features(q, [embed_texts(answers), embed_texts(other)], np.array([0.3, 0.3])))
    assert p[0] > p[1]
    assert p == pytest.approx([p_answer, p_other], abs=2e-3)


def test_features_of_a_one_sentence_passage():
    q = embed_texts(["When should lung cancer screening start?"])[0]
    s = embed_texts(["Annual low-dose CT screening is recommended for adults aged 50 to 80 who smoke."])
    x = pair_features(q, [s], np.array([0.25]))[0]
    cos = float(s[0] @ q)
    assert x.shape == (FEATURE_DIM,)
    assert x[768] == pytest.approx(cos, abs=1e-5) and x[769] == pytest.approx(cos, abs=1e-5)  # best = second
    assert x[770] == pytest.approx(cos, abs=1e-5) and x[771] == pytest.approx(0.25)
    assert x[:384].sum() == pytest.approx(cos, abs=1e-4)  # q * s sums to the cosine


@pytest.mark.parametrize("question", ["At what age should colorectal cancer screening start?",
                                      "Which running shoes are best for a marathon?"])
def test_combined_support_is_absolute_and_in_range(guideline_index, question):
    results = hybrid_search(guideline_index, question)
    rows = [s.row for s in results]
    cos = np.array([s.sentence_cosine for s in results])
    q = embed_texts([question])[0]
    terms = content_tokens(question)
    today = [support_score(float(c), term_coverage(guideline_index, terms, r)) for c, r in zip(cos, rows)]
    assert support_scores(guideline_index, q, rows, terms, cos, weight=0.0) == pytest.approx(today)
    p = answer_probability(guideline_index, q, rows, [term_coverage(guideline_index, terms, r) for r in rows])
    mlp = AnswerProbabilities(guideline_index, question, q, terms, model=get_answerability_model("mlp"))
    for w in (0.25, 0.5, 1.0):
        combined = support_scores(guideline_index, q, rows, terms, cos, weight=w, probabilities=mlp)
        assert np.all((combined >= 0) & (combined <= 1))
        assert combined == pytest.approx(w * p + (1 - w) * np.array(today))


def test_model_separates_covered_from_unrelated_questions(guideline_index):
    def best_p(question: str) -> float:
        results = hybrid_search(guideline_index, question)
        rows = [s.row for s in results]
        terms = content_tokens(question)
        cov = [term_coverage(guideline_index, terms, r) for r in rows]
        return float(answer_probability(guideline_index, embed_texts([question])[0], rows, cov).max())

    covered, unrelated = (best_p("At what age should colorectal cancer screening start?"),
                          best_p("Which running shoes are best for a marathon?"))
    assert covered > 0.99
    # Not near 0: the model's unrelated-question probabilities are poorly calibrated (MODEL_CARD.md, limits).
    assert unrelated == pytest.approx(0.3016, abs=0.02) and unrelated < covered / 3


def test_hybrid_support_follows_the_default_weight(guideline_index, monkeypatch):
    question = "When should average-risk women start mammography?"
    today = [s.support for s in hybrid_search(guideline_index, question)]
    monkeypatch.setattr(answerability, "ANSWERABILITY_WEIGHT", 1.0)
    with_model = [s.support for s in hybrid_search(guideline_index, question)]
    assert today != with_model and all(0 <= v <= 1 for v in with_model)
