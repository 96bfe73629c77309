"""``clinrag serve``: the web page, the HTTP API and the MCP tool (``/mcp``) on uvicorn, over the CLI's Context.

Bound to a non-loopback address it refuses to start (exit 2, one line) unless ``CLINRAG_API_TOKEN`` is set; with a
token, API and MCP calls need ``Authorization: Bearer <token>`` (see ``clinrag.server.security``)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from clinrag.cli.common import common_parent, context_from_args, ensure_index

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def serve_environment(args: argparse.Namespace) -> dict[str, str]:
    """The ``CLINRAG_*`` variables through which every worker process builds the same Context as this command
    (options given on the command line; the rest already come from the environment or the defaults)."""
    env = {"CLINRAG_SERVE_HOST": args.host}
    if args.corpus:
        env["CLINRAG_CORPUS_PATH"] = str(Path(args.corpus).resolve())
    if args.index_dir:
        env["CLINRAG_INDEX_DIR"] = str(Path(args.index_dir).resolve())
    if args.chat_model:
        env["CLINRAG_CHAT_MODEL"] = args.chat_model
    if args.db:
        env["CLINRAG_CHAT_DB"] = str(Path(args.db).expanduser().resolve())
    return env


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from clinrag.server.security import TOKEN_VARIABLE, AccessSettings, is_loopback

    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    access = AccessSettings.from_env()  # a malformed CLINRAG_RATE_LIMIT stops here, before the index is loaded
    if not access.token and not is_loopback(args.host):
        raise ValueError(f"refusing to serve on {args.host} without an access token: set {TOKEN_VARIABLE} "
                         "(callers then send 'Authorization: Bearer <token>'), or bind 127.0.0.1")
    ctx = context_from_args(args)
    ensure_index(ctx)  # once, here: N workers then only load it (and a first build is said on stderr)
    os.environ.update(serve_environment(args))
    log_level = "info" if getattr(args, "verbose", False) else "warning"
    needs = "; API and MCP calls need the access token" if access.token else ""
    print(f"clinrag serving on http://{args.host}:{args.port} (page at /, API at /api, MCP at /mcp){needs}",
          flush=True)
    if args.workers == 1:
        from clinrag.server.app import create_app

        uvicorn.run(create_app(ctx, host=args.host, access=access), host=args.host, port=args.port, log_level=log_level)
    else:
        uvicorn.run("clinrag.server.app:create_app", factory=True, host=args.host, port=args.port,
                    workers=args.workers, log_level=log_level)
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser | None = None) -> None:
    serve = sub.add_parser("serve", parents=[common or common_parent()],
                           help="serve the web page, the HTTP API (/api) and the MCP tool (/mcp)")
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to bind (default: {DEFAULT_HOST}, loopback; others need CLINRAG_API_TOKEN)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})")
    serve.add_argument("--workers", type=int, default=1,
                       help="worker processes; each loads the models and the index once (default: 1)")
    serve.add_argument("--db", help="SQLite database of the chat threads (default: CLINRAG_CHAT_DB or the user data "
                                    "directory, as clinrag chat)")
    serve.set_defaults(func=cmd_serve)
