"""clinrag's own MCP server: the ``clinrag_evidence_map`` tool with structured output, through the MCP SDK's own
client: in-process, over stdio (``clinrag mcp`` spawned) and over streamable HTTP (``/mcp`` of ``clinrag serve``)."""

from __future__ import annotations

import os

import anyio
import pytest
from mcp import Client, StdioServerParameters
from test_serve import CLINRAG, LUNG, running_serve

from clinrag.options import MAX_QUESTION_CHARS
from clinrag.schema import AskResult
from clinrag.server.mcp_server import TOOL_NAME, build_mcp

EMERGENCY = "I have crushing chest pain right now. Should I take an aspirin?"


async def exercise(server) -> dict:
    """List the tools and call the evidence map three ways (answer, abstention, bad question)."""
    async with Client(server, read_timeout_seconds=300) as client:
        tools = (await client.list_tools()).tools
        return {
            "tools": tools,
            "answer": await client.call_tool(TOOL_NAME, {"question": LUNG}),
            "as_of": await client.call_tool(TOOL_NAME, {"question": LUNG, "as_of": "2015-06-01"}),
            "abstain": await client.call_tool(TOOL_NAME, {"question": EMERGENCY}),
            "empty": await client.call_tool(TOOL_NAME, {"question": "  "}),
            "too_long": await client.call_tool(TOOL_NAME, {"question": "a" * (MAX_QUESTION_CHARS + 1)}),
        }


def check(outcome: dict) -> None:
    (tool,) = [t for t in outcome["tools"] if t.name == TOOL_NAME]
    assert "not medical advice" in tool.description and "abstain" in tool.description.lower()
    schema = tool.input_schema
    assert set(schema["properties"]) == {"question", "as_of", "corpus"} and schema["required"] == ["question"]
    assert "published clinical guidance" in schema["properties"]["question"]["description"]
    assert set(tool.output_schema["properties"]) == set(AskResult.model_json_schema()["properties"])
    assert set(tool.output_schema["required"]) == set(AskResult.model_json_schema()["required"])

    answer = outcome["answer"]
    assert not answer.is_error, answer.content
    result = AskResult.model_validate(answer.structured_content)
    assert result.decision == "answer" and {"uspstf-lung-2021", "acs-lung-2023"} <= {e["doc_id"] for e in
                                                                                    result.evidence}
    text = answer.content[0].text
    assert "decision: answer" in text and "uspstf-lung-2021" in text
    assert "disagreements: 1\n- disagreement on eligibility" in text
    assert "not medical advice" in text
    then = AskResult.model_validate(outcome["as_of"].structured_content)  # the guidance in force on that date
    assert {e["doc_id"]: e["status"] for e in then.evidence} == {"uspstf-lung-2013": "current"}

    abstain = outcome["abstain"]
    assert AskResult.model_validate(abstain.structured_content).abstain_reason == "out_of_scope"
    assert "decision: abstain" in abstain.content[0].text and "out_of_scope" in abstain.content[0].text

    for bad, words in (("empty", "empty"), ("too_long", "maximum")):
        assert outcome[bad].is_error and words in outcome[bad].content[0].text
        assert "Traceback" not in outcome[bad].content[0].text


def test_tool_in_process(guideline_index):
    check(anyio.run(exercise, build_mcp()))


def test_tool_reads_another_corpus_and_reports_a_bad_one(guideline_index, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_id": "x"}\n')

    async def call():
        async with Client(build_mcp(), read_timeout_seconds=120) as client:
            return await client.call_tool(TOOL_NAME, {"question": LUNG, "corpus": str(bad)})

    result = anyio.run(call)
    assert result.is_error and "bad.jsonl:1" in result.content[0].text


@pytest.mark.integration
def test_tool_over_stdio(guideline_index, tmp_path):
    """``clinrag mcp`` spawned by the SDK's stdio client, with the test session's index (nothing rebuilt)."""
    env = {k: v for k, v in os.environ.items() if k.startswith(("CLINRAG_", "HF_", "TRANSFORMERS_", "LANGSMITH_",
                                                                  "LANGCHAIN_", "XDG_"))}
    params = StdioServerParameters(command=str(CLINRAG), args=["mcp"], env=env, cwd=str(tmp_path))
    check(anyio.run(exercise, params))


def test_tool_refuses_corpus_paths_when_told_to(guideline_index, tmp_path):
    """The HTTP mount's setting (``CLINRAG_ALLOW_CORPUS_PATHS`` unset): ``corpus`` is refused before it is read."""

    async def call():
        async with Client(build_mcp(allow_corpus_paths=False), read_timeout_seconds=120) as client:
            return (await client.call_tool(TOOL_NAME, {"question": LUNG, "corpus": str(tmp_path / "any.jsonl")}),
                    await client.call_tool(TOOL_NAME, {"question": LUNG}))

    refused, answered = anyio.run(call)
    assert refused.is_error and "CLINRAG_ALLOW_CORPUS_PATHS=1" in refused.content[0].text
    assert not answered.is_error


@pytest.mark.integration
def test_tool_over_streamable_http_at_serve_mcp(guideline_index, tmp_path):
    async def with_corpus(url: str):
        async with Client(url, read_timeout_seconds=120) as client:
            return await client.call_tool(TOOL_NAME, {"question": LUNG, "corpus": str(tmp_path / "any.jsonl")})

    with running_serve(tmp_path) as url:
        check(anyio.run(exercise, f"{url}/mcp"))
        refused = anyio.run(with_corpus, f"{url}/mcp")  # over HTTP, corpus paths are off by default
    assert refused.is_error and "CLINRAG_ALLOW_CORPUS_PATHS" in refused.content[0].text
