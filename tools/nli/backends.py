"""Sentence-pair NLI backends behind one small interface.

A backend maps sentence pairs (premise, hypothesis) to probabilities (p_entailment, p_neutral,
p_contradiction). Two ship here:

* ``lexical``: an explicitly named baseline of negation, direction words and numeric mismatch. It is a
  stand-in until a trained model is the default, and it fails on pairs written to avoid such cues.
* any Hugging Face sequence-classification NLI model, by local path (labels read from ``config.id2label``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from clinrag.options import NLI_BACKENDS
from clinrag.tools.index.text import content_tokens


class NLIBackend(Protocol):
    name: str

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        """Array of shape (len(pairs), 3): p_entailment, p_neutral, p_contradiction; rows sum to 1."""
        ...


_NEGATION = re.compile(
    r"\b(not|no|never|none|neither|nor|without|against|cannot|can't|don't|doesn't|isn't|aren't|shouldn't|"
    r"discouraged|insufficient|ineffective|unnecessary|stop|stopped|avoid)\b",
    re.I,
)
_DIRECTION_PAIRS = [
    ("increase", "decrease"), ("increased", "decreased"), ("increases", "decreases"), ("raise", "lower"),
    ("higher", "lower"), ("more", "less"), ("greater", "smaller"), ("improve", "worsen"), ("improved", "worsened"),
    ("benefit", "harm"), ("effective", "ineffective"), ("associated", "unassociated"), ("start", "stop"),
    ("begin", "stop"), ("annual", "biennial"), ("annually", "biennially"), ("earlier", "later"),
    ("recommends", "discourages"), ("reduced", "increased"), ("reduces", "increases"),
]
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")


def _direction_conflict(a: set[str], b: set[str]) -> bool:
    return any((x in a and y in b and x not in b and y not in a) or (y in a and x in b and y not in b and x not in a)
               for x, y in _DIRECTION_PAIRS)


class LexicalNLI:
    """Baseline: cue words and numbers, no learning. Only meaningful on pairs that share a subject."""

    name = "lexical"
    fingerprint = "lexical:1"  # bump when the rules change: pair scores stored with an index are keyed by it

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        out = np.zeros((len(pairs), 3))
        for i, (a, b) in enumerate(pairs):
            ta, tb = set(content_tokens(a)), set(content_tokens(b))
            words_a = set(re.findall(r"[a-z]+", a.lower()))
            words_b = set(re.findall(r"[a-z]+", b.lower()))
            overlap = len(ta & tb) / max(1, len(ta | tb))
            signals = []
            if bool(_NEGATION.search(a)) != bool(_NEGATION.search(b)):
                signals.append(0.6)
            if _direction_conflict(words_a, words_b):
                signals.append(0.5)
            nums_a, nums_b = set(_NUMBER.findall(a)), set(_NUMBER.findall(b))
            if nums_a and nums_b and nums_a != nums_b:
                signals.append(0.55 * (1 - len(nums_a & nums_b) / len(nums_a | nums_b)))
            p_con = 1 - np.prod([1 - s for s in signals]) if signals else 0.0
            p_con *= min(1.0, 0.5 + overlap * 2)  # cues only count between sentences about the same thing
            p_ent = (1 - p_con) * min(1.0, overlap * 1.5)
            out[i] = (p_ent, 1 - p_con - p_ent, p_con)
        return out


class HFSequenceClassificationNLI:
    """Any local Hugging Face sequence-classification NLI model (entailment/neutral/contradiction labels)."""

    def __init__(self, path: str | Path, batch_size: int = 32, max_length: int = 256):
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.name = self.fingerprint = f"hf:{Path(path).resolve()}"
        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        self.model = AutoModelForSequenceClassification.from_pretrained(str(path), local_files_only=True).eval()
        self.batch_size, self.max_length = batch_size, max_length
        self.columns = self._label_columns(self.model.config.id2label)

    @staticmethod
    def _label_columns(id2label: dict) -> list[int]:
        """Model output column for entailment, neutral, contradiction, matched by label name."""
        names = {int(i): str(label).lower() for i, label in id2label.items()}
        wanted = []
        for key in ("entail", "neutral", "contradict"):
            match = [i for i, n in names.items() if key in n]
            if len(match) != 1:
                raise ValueError(
                    f"NLI model labels {sorted(names.values())} must name entailment, neutral and contradiction "
                    "once each"
                )
            wanted.append(match[0])
        return wanted

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros((0, 3))
        rows = []
        with self._torch.inference_mode():
            for start in range(0, len(pairs), self.batch_size):
                batch = pairs[start : start + self.batch_size]
                enc = self.tokenizer(
                    [a for a, _ in batch], [b for _, b in batch], padding=True, truncation=True,
                    max_length=self.max_length, return_tensors="pt",
                )
                probs = self.model(**enc).logits.softmax(-1)[:, self.columns]
                rows.append((probs / probs.sum(-1, keepdim=True)).numpy())
        return np.concatenate(rows)


BACKENDS = NLI_BACKENDS


def get_nli_backend(spec: str = "cross-encoder") -> NLIBackend:
    """A named backend (``lexical``, and the models trained here: ``feature``, ``cross-encoder``,
    ``two-stage``) or a path to a local Hugging Face NLI model folder; loaded once per process.

    The cross-encoder runs on ONNX Runtime (exported once from the shipped weights) unless
    ``CLINRAG_MODEL_RUNTIME=torch``; ``cross-encoder-torch`` names the fp32 torch model explicitly."""
    if spec in ("cross-encoder", "two-stage"):
        from clinrag.tools.index.embeddings import model_runtime

        return _load_backend(spec, model_runtime())
    return _load_backend(spec, None)


@lru_cache(maxsize=8)
def _load_backend(spec: str, runtime: str | None) -> NLIBackend:
    if spec == "lexical":
        return LexicalNLI()
    if spec in BACKENDS:
        from clinrag.tools.nli.trained import TwoStageNLI, load_feature_model

        if spec == "feature":
            return load_feature_model()
        cross_encoder = _cross_encoder(torch=spec == "cross-encoder-torch" or runtime == "torch")
        return TwoStageNLI(load_feature_model(), cross_encoder) if spec == "two-stage" else cross_encoder
    if not Path(spec).is_dir():
        raise ValueError(f"NLI backend {spec!r}: expected one of {', '.join(BACKENDS)} "
                         "or a local Hugging Face model folder")
    return HFSequenceClassificationNLI(spec)


def get_stance_backend(nli_spec: str = "cross-encoder") -> NLIBackend:
    """The model that reads evidence against a claim for the stance score between abstracts
    (:mod:`clinrag.tools.nli.stance`): the stance model trained here (``tools/nli/train_stance.py``) whenever the
    NLI backend is one of the models trained here; the named backend itself when it is ``lexical`` or a local
    Hugging Face folder (a baseline, or a model the user brought, is used everywhere it is named). ONNX Runtime
    unless ``CLINRAG_MODEL_RUNTIME=torch``."""
    if nli_spec not in BACKENDS or nli_spec == "lexical":
        return get_nli_backend(nli_spec)
    from clinrag.tools.index.embeddings import model_runtime

    return _load_stance(torch=nli_spec == "cross-encoder-torch" or model_runtime() == "torch")


def _load_stance(torch: bool) -> NLIBackend:
    """The stance model on torch or ONNX Runtime (each loader keeps its one instance)."""
    if torch:
        from clinrag.tools.nli.cross_encoder import load_stance_model

        return load_stance_model()
    from clinrag.tools.index.onnx_models import load_onnx_stance

    return load_onnx_stance()


def _cross_encoder(torch: bool):
    if torch:
        from clinrag.tools.nli.cross_encoder import load_cross_encoder

        return load_cross_encoder()
    from clinrag.tools.index.onnx_models import load_onnx_cross_encoder

    return load_onnx_cross_encoder()
