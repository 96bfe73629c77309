"""Finding frames: result-sentence detection, roles, effect measures, direction, and the contradiction score."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clinrag.tools.frames.findings import (
    DIRECTION_WEIGHTS,
    WEIGHTS_DIR,
    direction_disagreement,
    direction_probs,
    extract_findings,
    finding_contradiction,
    load_direction_model,
)
from clinrag.tools.frames.findings_roles import outcomes_match
from clinrag.tools.frames.findings_rules import DIRECTIONS, effect_measure, rule_direction
from clinrag.tools.frames.train_direction import macro_f1

BENEFIT = "Vitamin D supplementation reduced the risk of hip fracture (HR 0.82, 95% CI 0.70-0.96)."
NO_EFFECT = "There was no significant difference in mortality between groups."
HARM = "Treatment increased the risk of bleeding."

# A fixed check set written for this test (not from any dataset): sentence -> direction.
CHECK_SET = [
    (BENEFIT, "benefit"),
    ("Statin therapy significantly lowered all-cause mortality compared with placebo.", "benefit"),
    ("Exercise training improved quality of life in patients with heart failure.", "benefit"),
    ("Aspirin use was associated with a reduced incidence of colorectal cancer.", "benefit"),
    (NO_EFFECT, "no_effect"),
    ("Aspirin did not reduce the risk of cardiovascular events (RR 0.95; 95% CI 0.85 to 1.06).", "no_effect"),
    ("Hydroxychloroquine had no effect on viral clearance.", "no_effect"),
    ("Omega-3 supplementation was not associated with a lower risk of stroke.", "no_effect"),
    (HARM, "harm"),
    ("Smoking was associated with a higher risk of lung cancer (OR 3.1, 95% CI 2.2-4.4).", "harm"),
    ("Patients receiving the drug had more adverse events than those on placebo.", "harm"),
    ("Long-term steroid use increased the incidence of fractures.", "harm"),
]
# Macro-F1 of the shipped weights on CHECK_SET (documented in weights/MODEL_CARD.md); the test fails if the
# weights change what they predict on it.
CHECK_SET_MACRO_F1 = 1.0


def test_benefit_sentence_frame():
    frame = extract_findings(BENEFIT)
    assert frame is not None
    assert frame.direction == "benefit"
    assert frame.effect is not None and "HR 0.82" in frame.effect and "0.70-0.96" in frame.effect
    assert frame.intervention == "Vitamin D supplementation"
    assert frame.outcome == "hip fracture"


def test_no_effect_and_harm_sentences():
    frame = extract_findings(NO_EFFECT)
    assert frame is not None and frame.direction == "no_effect" and frame.outcome == "mortality"
    frame = extract_findings(HARM)
    assert frame is not None and frame.direction == "harm"
    assert frame.intervention == "Treatment" and frame.outcome == "bleeding"


@pytest.mark.parametrize("sentence", ["We enrolled 300 patients.",
                                      "The aim of this study was to determine whether statins reduce mortality.",
                                      "Patients were randomized to aspirin or placebo."])
def test_non_result_sentences_have_no_frame(sentence):
    assert extract_findings(sentence) is None


def test_effect_measures():
    assert effect_measure("The odds ratio was 1.5 (95% CI 1.1-2.0) for fracture.").startswith("odds ratio was 1.5")
    assert effect_measure("Mortality fell (p = 0.03).") == "p = 0.03"
    assert effect_measure("Mortality fell.") is None


def test_rule_direction_uses_outcome_polarity():
    assert rule_direction("Treatment increased survival.") == "benefit"  # a good outcome going up
    assert rule_direction("Treatment increased mortality.") == "harm"
    assert rule_direction("Treatment reduced survival.") == "harm"
    assert rule_direction("Statins lowered mortality but not the risk of stroke.") == "mixed"


def test_disagreement_formula():
    benefit, no_effect = np.eye(4)[0], np.eye(4)[1]
    assert direction_disagreement(benefit, no_effect)[0] == 1.0
    assert direction_disagreement(benefit, benefit)[0] == 0.0
    assert direction_disagreement(benefit, np.eye(4)[3])[0] == 0.5  # mixed half-agrees


def test_outcomes_match():
    assert outcomes_match("risk of hip fracture", "hip fractures") is True
    assert outcomes_match("mortality", "bleeding") is False
    assert outcomes_match(None, "bleeding") is None


def test_shipped_weights_are_small_and_give_documented_check_set_f1():
    assert DIRECTION_WEIGHTS.stat().st_size < 2_000_000
    model = load_direction_model()
    assert tuple(model["classes"].tolist()) == DIRECTIONS
    probs = direction_probs([s for s, _ in CHECK_SET])
    np.testing.assert_allclose(probs.sum(1), 1.0, atol=1e-5)
    gold = [DIRECTIONS.index(label) for _, label in CHECK_SET]
    assert macro_f1(gold, probs.argmax(1), [0, 1, 2]) == pytest.approx(CHECK_SET_MACRO_F1, abs=1e-4)


def test_documented_metrics_file_matches_weights():
    metrics = json.loads((WEIGHTS_DIR / "direction_metrics.json").read_text())
    for split in ("scifact_dev", "healthver_test", "pubmedqa_heldout"):
        assert 0.0 < metrics["splits"][split]["macro_f1"] <= 1.0


def test_finding_contradiction_orders_pairs():
    other_benefit = "Supplementation with vitamin D lowered hip fracture risk in older adults."
    other_null = "Vitamin D supplementation did not reduce the risk of hip fracture."
    assert finding_contradiction(BENEFIT, other_null) > finding_contradiction(BENEFIT, other_benefit)
    assert finding_contradiction(BENEFIT, HARM) > 0.0
