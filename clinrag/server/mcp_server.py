"""clinrag's own MCP server: one tool, ``clinrag_evidence_map``, with a structured result.

Unlike the ``/mcp`` endpoint of ``langgraph dev`` (which returns a Python repr of the graph state), this tool
returns the ``clinrag ask --json`` object as MCP structured content, with its JSON schema as the tool's output
schema (``clinrag.schema.AskResult``), plus a short text summary for models that read text only: the decision, the
abstain reason, the cited doc_ids and how many disagreements were found.

Input: ``question`` (str, at most ``MAX_QUESTION_CHARS`` characters), optional ``as_of`` (``YYYY-MM-DD``: only
documents issued by then, each with its status on that date) and optional ``corpus`` (path of a corpus JSONL on
the server's machine; default: the server's corpus; over HTTP only with ``CLINRAG_ALLOW_CORPUS_PATHS=1``).
Errors a caller can fix (empty or over-long question, malformed date, unreadable or refused corpus) come back as
tool errors (``isError``) with a one-line message.

``clinrag mcp`` serves it over stdio; ``clinrag serve`` mounts it at ``/mcp`` (streamable HTTP, stateless, so it
works across ``--workers``).
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from clinrag.options import MAX_QUESTION_CHARS
from clinrag.schema import AskResult
from clinrag.server.security import CORPUS_PATHS_VARIABLE
from clinrag.server.service import ClinragService, RequestError, parse_question

TOOL_NAME = "clinrag_evidence_map"
TOOL_DESCRIPTION = (
    "Evidence map of published clinical guidelines for one question (screening and prevention guidance in the "
    "built-in corpus): one entry per organization with the document's issue date and status (current or "
    "superseded), the quoted sentences, typed disagreements between organizations or versions, and the answer "
    "grounded in them with [doc_id] citations. Abstains, with the reason, on questions outside the corpus or "
    "without enough support (and points emergencies to emergency care). Reports what published guidance says; "
    "not medical advice."
)
INSTRUCTIONS = (
    "clinrag reports what published clinical guidelines say, organization by organization, with dates, "
    "superseded versions, disagreements and abstentions. It does not give individual medical advice."
)


CORPUS_REFUSED = (f"the 'corpus' input is turned off on this server (it reads a path on the server's machine); "
                  f"leave it out, or start the server with {CORPUS_PATHS_VARIABLE}=1")


def build_mcp(service: ClinragService | None = None, *, allow_corpus_paths: bool = True) -> MCPServer:
    """An ``MCPServer`` whose tool runs questions through ``service`` (default: one over the default Context).

    ``allow_corpus_paths``: whether the tool takes the ``corpus`` input, which reads any file the server's user can
    read. ``clinrag mcp`` (stdio: the client runs the server as itself) keeps it; the HTTP mount of ``clinrag serve``
    turns it off unless ``CLINRAG_ALLOW_CORPUS_PATHS=1``. Turned off, a call with ``corpus`` is a tool error."""
    service = service or ClinragService()
    server = MCPServer("clinrag", title="clinrag evidence map", description=TOOL_DESCRIPTION,
                       instructions=INSTRUCTIONS, log_level="WARNING")

    def clinrag_evidence_map(
        question: Annotated[str, Field(
            description="A question about published clinical guidance, e.g. 'When should average-risk women "
            f"start mammography?' (at most {MAX_QUESTION_CHARS} characters).")],
        as_of: Annotated[str | None, Field(
            description="Optional date YYYY-MM-DD: the guidance as it stood then (only documents issued by then, "
            "each labelled with its status on that date).")] = None,
        corpus: Annotated[str | None, Field(
            description="Optional path of a corpus JSONL on the server's machine (default: the server's corpus).")]
        = None,
    ) -> Annotated[CallToolResult, AskResult]:
        """Run one question through clinrag; structured content = the AskResult, text = a short summary."""
        from clinrag.documents import CorpusError

        if corpus and not allow_corpus_paths:
            raise ToolError(CORPUS_REFUSED)
        try:
            q = parse_question({"question": question, "as_of": as_of})
            result, notes = service.ask(q, corpus=corpus)
        except (RequestError, CorpusError) as e:
            raise ToolError(str(e)) from None
        return CallToolResult(content=[TextContent(type="text", text=summary(result, notes))],
                              structured_content=result)

    server.add_tool(
        clinrag_evidence_map, name=TOOL_NAME, title="Clinical guideline evidence map", description=TOOL_DESCRIPTION,
        annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                    open_world_hint=False),
    )
    return server


def summary(result: dict, notes: list[str] | None = None) -> str:
    """A few lines for a reader (the MCP text content): decision, abstain reason, cited doc_ids, disagreements."""
    lines = [f"decision: {result['decision']}"]
    if result["decision"] == "abstain":
        lines.append(f"abstain reason: {result.get('abstain_reason')} - {result.get('reason') or ''}".rstrip(" -"))
    cited = list(dict.fromkeys(e["doc_id"] for e in result.get("evidence") or []))
    lines.append("cited: " + (", ".join(cited) if cited else "none"))
    disagreements = result.get("disagreements") or []
    lines.append(f"disagreements: {len(disagreements)}" + "".join(
        f"\n- {d['kind']} on {d['facet']} of {d['intervention']}: "
        + "; ".join(f"{v['org']} {v['value']} [{v['doc_id']}]" for v in d["values"]) for d in disagreements))
    lines.extend(f"note: {n}" for n in notes or [])
    lines.append("Published-guideline evidence, not medical advice.")
    return "\n".join(lines)


def run_stdio(service: ClinragService | None = None) -> None:
    """Serve the tool over stdio until the client closes it (stdout carries the protocol only)."""
    build_mcp(service).run("stdio")
