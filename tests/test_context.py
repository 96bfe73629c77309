"""The Context: closed sets as choices, defaults from clinrag.options, explicit values over the environment."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import get_type_hints

import pytest

from clinrag import options
from clinrag.context import Context, ContextError
from clinrag.options import NLI_BACKENDS, RETRIEVAL_CONDITIONS, RETRIEVERS


def test_closed_sets_are_the_options_literals():
    hints = get_type_hints(Context)
    assert hints["retriever"] is options.Retriever
    assert hints["retrieval_condition"] == options.RetrievalCondition | None
    assert hints["nli_backend"] is options.NLIBackendName


def test_defaults_come_from_options():
    ctx = Context()
    assert (ctx.k, ctx.candidate_pool, ctx.chr_lambda, ctx.mmr_lambda, ctx.temporal_alpha, ctx.contradiction_pool,
            ctx.pair_similarity_threshold, ctx.contradiction_threshold, ctx.rrf_k) == (
        options.K, options.CANDIDATE_POOL, options.CHR_LAMBDA, options.MMR_LAMBDA, options.TEMPORAL_ALPHA,
        options.CONTRADICTION_POOL, options.PAIR_SIMILARITY_THRESHOLD, options.CONTRADICTION_THRESHOLD, options.RRF_K)
    assert ctx.retriever in RETRIEVERS and ctx.nli_backend in NLI_BACKENDS and ctx.retrieval_condition is None


def test_studio_schema_shows_the_choices():
    from clinrag.graph import graph

    props = graph.get_context_jsonschema()["properties"]
    assert props["retriever"]["enum"] == list(RETRIEVERS) and props["retriever"]["default"] == "chr"
    condition = [s for s in props["retrieval_condition"]["anyOf"] if "enum" in s]
    assert condition and condition[0]["enum"] == list(RETRIEVAL_CONDITIONS)
    assert props["nli_backend"]["enum"] == list(NLI_BACKENDS) and props["nli_backend"]["default"] == "cross-encoder"
    assert props["k"]["default"] == options.K  # the defaults still show in Studio


def test_explicit_values_win_over_the_environment(monkeypatch):
    monkeypatch.setenv("CLINRAG_K", "2")
    monkeypatch.setenv("CLINRAG_RETRIEVER", "dense")
    assert Context().k == 2 and Context().retriever == "dense"  # the environment fills what nobody set
    assert Context(k=6).k == 6  # ... even when the explicit value equals the default
    assert Context(retriever="chr").retriever == "chr"
    assert dataclasses.replace(Context(k=6), chat_model=None).k == 6


def test_studio_configuration_wins_over_the_environment(monkeypatch):
    from clinrag.graph.runtime import context_of

    monkeypatch.setenv("CLINRAG_K", "2")
    runtime = type("Runtime", (), {"context": {"k": 6}})()
    assert context_of(runtime).k == 6
    assert context_of(None).k == 2


def test_environment_values_are_parsed_by_type(monkeypatch):
    monkeypatch.setenv("CLINRAG_CHR_LAMBDA", "0.5")
    monkeypatch.setenv("CLINRAG_RETRIEVAL_CONDITION", "most-contradictory")
    monkeypatch.setenv("CLINRAG_CHAT_MODEL", "none")
    ctx = Context()
    assert ctx.chr_lambda == 0.5 and ctx.retrieval_condition == "most-contradictory" and ctx.chat_model is None


@pytest.mark.parametrize(("field", "value", "choices"), [
    ("retriever", "colbert", RETRIEVERS),
    ("retrieval_condition", "most-recent", RETRIEVAL_CONDITIONS),
    ("nli_backend", "roberta", NLI_BACKENDS),
])
def test_unknown_names_are_refused_with_the_choices(field, value, choices):
    with pytest.raises(ContextError) as raised:
        Context(**{field: value})
    message = str(raised.value)
    assert "\n" not in message and field in message and value in message
    assert all(choice in message for choice in choices)


@pytest.mark.parametrize(("variable", "value"), [
    ("CLINRAG_K", "abc"), ("CLINRAG_CHR_LAMBDA", "high"), ("CLINRAG_RETRIEVER", "colbert"),
    ("CLINRAG_NLI_BACKEND", "/no/such/model"),
])
def test_malformed_variables_name_the_variable(monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ContextError, match=variable):
        Context()
    field = variable.removeprefix("CLINRAG_").lower()
    Context(**{field: getattr(Context.__dataclass_fields__[field], "default")})  # an explicit value is not parsed


def test_a_local_model_folder_is_an_nli_backend(tmp_path, monkeypatch):
    assert Context(nli_backend=str(tmp_path)).nli_backend == str(tmp_path)
    monkeypatch.setenv("CLINRAG_NLI_BACKEND", str(tmp_path))
    assert Context().nli_backend == str(tmp_path)
    with pytest.raises(ContextError, match="Hugging Face"):
        Context(nli_backend=str(tmp_path / "missing"))


def test_cli_flag_wins_over_the_environment(monkeypatch, capsys):
    from clinrag.cli.main import main

    seen = []
    monkeypatch.setenv("CLINRAG_K", "2")
    monkeypatch.setattr("clinrag.cli.ask.ensure_index", lambda ctx: None)
    monkeypatch.setattr("clinrag.run.ask", lambda question, ctx: seen.append(ctx.k) or _Result())
    assert main(["ask", "--json", "-k", "6", "a question"]) == 0
    assert main(["ask", "--json", "a question"]) == 0
    assert seen == [6, 2]


class _Result:
    def model_dump_json(self) -> str:
        return "{}"


def test_malformed_variable_does_not_break_help():
    env = {"CLINRAG_K": "abc", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "clinrag.cli.main", "--help"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0 and "usage: clinrag" in done.stdout and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "clinrag.cli.main", "contradiction", "score", "--help"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and "--batch-size" in done.stdout
