"""Index builds with the embedding fanned out over Ray (``clinrag index build --ray [--address ADDRESS]``).

The build is ``build_index``'s (same validation, chunking, frames, BM25, pair scores, atomic swap, same files);
only its two bulk steps, embedding the passages and embedding the sentences, run as Ray Data ``map_batches`` over
a pool of actors. Each actor holds one MiniLM encoder on ONNX Runtime, loaded once from the export's bytes, its graph
and its weights file (shipped through Ray, so remote workers need a base ``clinrag`` install and no shared folder,
no torch), and encodes a batch per call, exactly as the single-process encoder does (same pooling and
normalization; vectors equal within float error, tests/test_ray_build.py). Without an address a local Ray is
started with 2 CPUs; with one (``ray://...`` or ``HOST:PORT``), the build joins that cluster. Ray is the extra
``clinrag[scale]``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from clinrag.tools.index.embeddings import EMBEDDING_DIM

RAY_STEPS = ("embedding passages", "embedding sentences")
"""The ``embed_texts`` labels of the bulk steps of ``build_index`` that run on Ray."""
BATCH_SIZE = 256
"""Texts per ``map_batches`` batch (one actor call)."""
LOCAL_CPUS = 2


class EncoderActor:
    """One MiniLM encoder on ONNX Runtime per Ray actor: loaded once, then called on batches of texts.

    ``model`` is the exported ONNX graph's bytes and ``weights`` its weights file, ``(name as the graph refers to
    it, bytes)``, or None for an export that holds its weights; ``tokenizer`` the tokenizer JSON beside it;
    ``threads`` the ONNX Runtime threads of this actor (its CPUs)."""

    def __init__(self, model: bytes, weights: tuple[str, bytes] | None, tokenizer: str, threads: int = 1):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        from clinrag.tools.index.onnx_models import ENCODER_MAX_LENGTH, OnnxEncoder

        opts = ort.SessionOptions()
        opts.intra_op_num_threads, opts.inter_op_num_threads = threads, 1
        if weights is not None:  # the file the graph names, from memory (ONNX Runtime copies it into the session)
            name, data = weights
            opts.add_external_initializers_from_files_in_memory([name], [data], [len(data)])
        tok = Tokenizer.from_str(tokenizer)
        tok.enable_truncation(max_length=ENCODER_MAX_LENGTH)
        tok.enable_padding(pad_id=0, pad_token="[PAD]")
        self.encoder = OnnxEncoder.__new__(OnnxEncoder)  # the single-process encoder's code, on these bytes
        self.encoder.session = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
        self.encoder.tokenizer = tok

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        texts = [str(t) for t in batch["text"]]
        return {"i": batch["i"], "vector": self.encoder.encode(texts)}


def _encoder_files() -> tuple[bytes, tuple[str, bytes] | None, str]:
    """The current ONNX encoder export (made first by the build): its graph, its weights file (name, bytes; None
    for an export that holds its weights) and its tokenizer."""
    from clinrag.tools.index.onnx_models import ENCODER_FILE, TOKENIZER_FILE, _copy_tokenizer, onnx_dir, weights_file

    folder = onnx_dir()
    if not (folder / TOKENIZER_FILE).is_file():
        _copy_tokenizer(folder)
    weights = weights_file(folder / ENCODER_FILE)
    return ((folder / ENCODER_FILE).read_bytes(), (weights.name, weights.read_bytes()) if weights.is_file() else None,
            (folder / TOKENIZER_FILE).read_text(encoding="utf-8"))


def ray_embed(texts: list[str], actors: int, threads_per_actor: int = 1, label: str = "embedding") -> np.ndarray:
    """Unit-normalized float32 embeddings of ``texts`` (shape (n, 384), in order), computed by ``actors`` Ray
    actors over ``map_batches``. Ray must be initialized."""
    import ray

    if not texts:
        return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
    model, weights, tokenizer = _encoder_files()
    ds = ray.data.from_items([{"i": i, "text": t} for i, t in enumerate(texts)])
    vectors = ds.map_batches(
        EncoderActor, fn_constructor_args=(model, weights, tokenizer, threads_per_actor), batch_size=BATCH_SIZE,
        batch_format="numpy", compute=ray.data.ActorPoolStrategy(size=actors), num_cpus=threads_per_actor,
    )  # fmt: skip
    out = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
    seen = 0
    for batch in vectors.iter_batches(batch_size=None, batch_format="numpy"):
        out[batch["i"]] = batch["vector"]
        seen += len(batch["i"])
    if seen != len(texts):
        raise RuntimeError(f"{label}: Ray returned {seen} vectors for {len(texts)} texts")
    return out


@contextmanager
def ray_session(address: str | None = None) -> Iterator[int]:
    """Ray for the build: the cluster at ``address``, else a local Ray with 2 CPUs (an already initialized Ray is
    used as it is). Yields the CPUs available; shuts down only a Ray it started."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: install clinrag[scale] (pip install 'clinrag[scale]')") from None
    started = not ray.is_initialized()
    if started:
        env = {k: v for k, v in os.environ.items() if k.startswith(("CLINRAG_", "HF_", "TRANSFORMERS_"))}
        kwargs = {"address": address} if address else {"num_cpus": LOCAL_CPUS, "include_dashboard": False}
        ray.init(**kwargs, runtime_env={"env_vars": env}, log_to_driver=False, configure_logging=False)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))
    finally:
        if started:
            ray.shutdown()


def build_index_ray(corpus_path: Path | str, index_dir: Path | str | None = None, address: str | None = None,
                    **build_kwargs) -> Path:
    """``build_index`` with the passage and sentence embedding on Ray (see the module docstring); the other
    arguments are ``build_index``'s. Returns the index folder."""
    from clinrag.tools.index import store

    with ray_session(address) as cpus:
        single = store.embed_texts

        def embed(texts: list[str], show_progress: bool = False, label: str = "embedding") -> np.ndarray:
            if label not in RAY_STEPS:
                return single(texts, show_progress=show_progress, label=label)
            if show_progress:
                store._print_status(f"{label} on Ray: {len(texts)} texts, {cpus} actors")
            return ray_embed(list(texts), actors=cpus, label=label)

        store.embed_texts = embed  # build_index looks the function up in its module at each call
        try:
            return store.build_index(corpus_path, index_dir, **build_kwargs)
        finally:
            store.embed_texts = single
