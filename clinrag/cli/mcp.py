"""``clinrag mcp``: clinrag's MCP server over stdio (one tool, ``clinrag_evidence_map``, with structured output)."""

from __future__ import annotations

import argparse

from clinrag.cli.common import common_parent, context_from_args, ensure_index


def cmd_mcp(args: argparse.Namespace) -> int:
    from clinrag.server.mcp_server import run_stdio
    from clinrag.server.service import ClinragService

    ctx = context_from_args(args)
    ensure_index(ctx)  # before the client's first call; a build is said on stderr (stdout is the protocol)
    run_stdio(ClinragService(ctx))
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser | None = None) -> None:
    mcp = sub.add_parser("mcp", parents=[common or common_parent()],
                         help="serve the clinrag_evidence_map MCP tool over stdio (for MCP clients)")
    mcp.set_defaults(func=cmd_mcp)
