"""Errors a user can fix end in one line on stderr and exit status 2, never a traceback; long steps say what they
are doing; training never overwrites the shipped models by default; indexes are keyed by corpus content."""

from __future__ import annotations

import functools
import json
import shutil
import socket

import pytest

from clinrag.cli.main import main
from clinrag.paths import BUILTIN_CORPUS


def one_line_error(capsys, *fragments: str) -> str:
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert "Traceback" not in captured.err and "Traceback" not in captured.out
    assert len(err.splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, err
    return err


def test_chat_model_without_its_package(capsys):
    pytest.importorskip("langchain_community")  # the fallback module that lacks ChatOllama
    try:
        import langchain_ollama  # noqa: F401

        pytest.skip("langchain-ollama is installed")
    except ImportError:
        pass
    assert main(["ask", "--json", "--chat-model", "ollama:llama3.1", "Who should be screened for lung cancer?"]) == 2
    one_line_error(capsys, "ollama:llama3.1", "langchain-ollama")


def test_unknown_chat_model_provider(capsys):
    assert main(["ask", "--chat-model", "nonsense-model", "a question"]) == 2
    one_line_error(capsys, "nonsense-model", "PROVIDER:MODEL")


def test_malformed_environment_variable(monkeypatch, capsys):
    monkeypatch.setenv("CLINRAG_K", "abc")
    assert main(["ask", "--json", "a question"]) == 2
    one_line_error(capsys, "CLINRAG_K", "abc")


def test_unknown_nli_backend_names_the_choices(tmp_path, capsys):
    queries = tmp_path / "queries.txt"
    queries.write_text("aspirin and bleeding\n")
    assert main(["report", "contradictions", "--nli-backend", "roberta", "--queries", str(queries)]) == 2
    one_line_error(capsys, "roberta", "cross-encoder-torch", "lexical")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: connections are refused


def test_unreachable_eutils_server(tmp_path, monkeypatch, capsys):
    from clinrag.pubmed.http import HttpClient

    monkeypatch.setattr("clinrag.pubmed.eutils.HttpClient", functools.partial(HttpClient, max_attempts=2,
                                                                              sleep=lambda s: None))
    url = f"http://127.0.0.1:{_closed_port()}/eutils"
    code = main(["corpus", "build", "pubmed", "--query", "aspirin", "--citations", "none", "--base-url", url,
                 "--out", str(tmp_path / "pm.jsonl")])
    assert code == 2
    one_line_error(capsys, "network error", f"{url}/esearch.fcgi", "refused")
    assert not (tmp_path / "pm.jsonl").exists()


def test_nli_train_never_overwrites_the_shipped_models_by_default(tmp_path, monkeypatch, capsys):
    from clinrag.tools.nli.trained import MODEL_DIR

    written = []
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("clinrag.tools.nli.train_feature.train_feature_model",
                        lambda out, seed: written.append(out) or {"stage": "feature-mlp"})
    assert main(["nli", "train", "--stage", "feature"]) == 0
    out = written[-1]
    assert out != MODEL_DIR and out.is_relative_to(tmp_path / "data" / "clinrag" / "nli-training")
    assert json.loads((out / "training.json").read_text()) == {"feature": {"stage": "feature-mlp"}}
    assert str(out) in capsys.readouterr().err  # the folder is printed

    assert main(["nli", "train", "--stage", "feature", "--out", str(MODEL_DIR)]) == 2
    one_line_error(capsys, "--replace-shipped")
    assert len(written) == 1
    with pytest.raises(SystemExit):
        main(["nli", "train", "--out", str(tmp_path), "--replace-shipped"])  # one or the other


def test_default_index_dir_is_keyed_by_content(tmp_path):
    from clinrag.tools.index.store import default_index_dir

    copy = tmp_path / "elsewhere" / "renamed.jsonl"
    copy.parent.mkdir()
    shutil.copy(BUILTIN_CORPUS, copy)
    assert default_index_dir(copy) == default_index_dir(BUILTIN_CORPUS)
    lines = copy.read_text().splitlines()
    record = json.loads(lines[0])
    record["title"] += " (edited)"
    copy.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    assert default_index_dir(copy) != default_index_dir(BUILTIN_CORPUS)


def test_ask_on_a_new_corpus_says_it_builds_the_index(tmp_path, monkeypatch, capsys):
    built = []
    monkeypatch.setenv("CLINRAG_INDEX_ROOT", str(tmp_path / "index"))
    monkeypatch.setattr("clinrag.tools.index.store.get_index", lambda corpus, index_dir: built.append(corpus))
    monkeypatch.setattr("clinrag.run.ask", lambda question, ctx: type("R", (), {"model_dump_json": lambda s: "{}"})())
    corpus = tmp_path / "new.jsonl"
    shutil.copy(BUILTIN_CORPUS, corpus)
    assert main(["ask", "--json", "--corpus", str(corpus), "a question"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {}  # stdout stays JSON
    assert "building the index for new.jsonl (first use)" in captured.err
    assert built == [str(corpus.resolve())]
