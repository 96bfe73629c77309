"""docs/usage.md: every ``python`` and ``bash`` block runs as written and prints what it promises.

Python blocks run as a user would copy them; bash blocks run line by line through ``clinrag.cli.main.main`` in this
process (the console script's entry point; ``tests/test_chat_cli.py`` runs the script itself across restarts).
Three stand-ins: the address ``http://127.0.0.1:2024`` is replaced by
the test session's ``langgraph dev`` server, LangSmith is the recording stand-in (conftest ``langsmith_api``),
and ``init_chat_model`` returns a scripted tool-calling model. ``json`` blocks must parse. A block preceded by
``<!-- docs-test: not run (...) -->`` is skipped; exactly one is (the server command the fixture runs itself).
"""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

REPO_ROOT = Path(__file__).resolve().parents[1]
USAGE = REPO_ROOT / "docs" / "usage.md"
DOCS_ADDRESS = "http://127.0.0.1:2024"
BLOCK = re.compile(r"(?:<!-- docs-test: (?P<skip>[^\n]*?) -->\n)?```(?P<lang>\w+)\n(?P<code>.*?)```", re.S)

# A distinctive piece of each runnable block -> what its output must contain.
EXPECTED = {
    "create_agent(": "clinrag.evidence",
    "evidence_tool.invoke(": "answer ['uspstf-lung-2021', 'acs-lung-2023']",
    "graph.stream(question": "clinrag.support {'support':",
    'clinrag ask "How did': "[uspstf-crc-2016] issued 2016-06-15, superseded by uspstf-crc-2021",
    "chat.invoke(": "What does the USPSTF recommend for prostate cancer screening? In 2012?",
    "clinrag chat --list": "prostate\t2 questions",
    "RemoteGraph(": "answer: USPSTF uspstf-lung-2021, ACS acs-lung-2023",
    "ask_clinrag(": "'decision': 'answer'",
    "--upload": "LangSmith: dataset clinrag-guideline-drift (created; examples: 41 new, 0 changed, 0 unchanged)",
    "upload_dataset(": "clinrag-guideline-drift 65 0 0",
}


@dataclass
class Block:
    lang: str
    code: str
    line: int
    skip: str | None

    @property
    def key(self) -> str | None:
        keys = [k for k in EXPECTED if k in self.code]
        return keys[0] if len(keys) == 1 else None


def usage_blocks() -> list[Block]:
    text = USAGE.read_text(encoding="utf-8")
    return [Block(m["lang"], m["code"], text.count("\n", 0, m.start("code")) + 1, m["skip"])
            for m in BLOCK.finditer(text)]


def runnable() -> list[Block]:
    return [b for b in usage_blocks() if b.lang in {"python", "bash"} and not b.skip]


def test_every_block_is_run_or_says_why():
    blocks = usage_blocks()
    assert {b.lang for b in blocks} <= {"python", "bash", "json"}
    skipped = [b for b in blocks if b.skip]
    assert len(skipped) == 1 and "langgraph dev" in skipped[0].code and skipped[0].skip.startswith("not run (")
    keys = [b.key for b in runnable()]
    assert None not in keys and sorted(keys) == sorted(EXPECTED), "each runnable block has exactly one expectation"
    for b in blocks:
        if b.lang == "json":
            json.loads(b.code)


class ScriptedToolCaller(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


def scripted_chat_model(*args, **kwargs):
    return ScriptedToolCaller(messages=iter([
        AIMessage("", tool_calls=[{"name": "clinrag_evidence", "id": "call-1",
                                   "args": {"question": "When should average-risk women start mammography?"}}]),
        AIMessage("USPSTF [uspstf-breast-2024] and ACS [acs-breast-2015] differ on the starting age."),
    ]))  # fmt: skip


def _run_shell_lines(code: str, monkeypatch, capsys) -> str:
    """A bash block, line by line, through ``clinrag.cli.main.main`` (what the console script calls), in this process so
    the models stay loaded. Lines may be ``export K=V``, ``clinrag ...`` or ``printf '...' | clinrag ...``; anything
    else fails the test, so the docs cannot grow a command this runner does not check."""
    from clinrag.cli.main import main

    out = []
    for line in code.replace("\\\n", " ").splitlines():
        tokens = shlex.split(line, comments=True)
        if not tokens:
            continue
        if tokens[0] == "export":
            name, value = tokens[1].split("=", 1)
            monkeypatch.setenv(name, value)
            continue
        stdin = ""
        if "|" in tokens:
            pipe = tokens.index("|")
            assert tokens[0] == "printf" and pipe == 2, line
            stdin, tokens = tokens[1].encode().decode("unicode_escape"), tokens[pipe + 1:]
        assert tokens[0] == "clinrag", f"not a clinrag command: {line}"
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        assert main(tokens[1:]) == 0, line
        out.append(capsys.readouterr().out)
    return "".join(out)


@pytest.mark.integration
@pytest.mark.parametrize("block", runnable(), ids=lambda b: f"usage.md:{b.line}")
def test_usage_block_runs(block, request, monkeypatch, tmp_path, capsys, guideline_index):
    code = block.code
    if DOCS_ADDRESS in code:
        monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)  # a developer's key is not sent to the local server
        code = code.replace(DOCS_ADDRESS, request.getfixturevalue("studio").url)
    if "LANGSMITH_API_KEY" in code:
        request.getfixturevalue("langsmith_api")
    if "init_chat_model(" in code:
        monkeypatch.setattr("langchain.chat_models.init_chat_model", scripted_chat_model)
    if block.lang == "bash":
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # chat threads
        monkeypatch.delenv("CLINRAG_CHAT_DB", raising=False)
        out = _run_shell_lines(code, monkeypatch, capsys)
    else:
        exec(compile(code, f"{USAGE}:{block.line}", "exec"), {"__name__": "docs_usage"})
        out = capsys.readouterr().out
    assert EXPECTED[block.key] in out, out[-3000:]
