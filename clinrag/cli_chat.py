"""``clinrag chat`` on the command line: an interactive chat whose threads persist in SQLite."""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_chat(args: argparse.Namespace) -> int:
    from clinrag.chat import chat_db_path, chat_graph, list_threads, new_thread_name, run_chat
    from clinrag.cli import _context

    db_path = Path(args.db).expanduser() if args.db else chat_db_path()
    if args.list:
        with chat_graph(db_path) as graph:
            threads = list_threads(graph)
        for name, questions in threads.items():
            print(f"{name}\t{questions} questions")
        if not threads:
            print(f"no threads in {db_path}")
        return 0
    return run_chat(args.thread or new_thread_name(), _context(args), db_path)


def register(subparsers, common_parent: argparse.ArgumentParser) -> None:
    chat = subparsers.add_parser(
        "chat", parents=[common_parent],
        help="interactive chat; threads persist in SQLite (CLINRAG_CHAT_DB or $XDG_DATA_HOME/clinrag/threads.sqlite)",
    )  # fmt: skip
    chat.add_argument("--thread", help="thread name: resumes it if it exists (default: a new thread named by the time)")
    chat.add_argument("--db", help="SQLite database of the threads (default: CLINRAG_CHAT_DB or the user data directory)")
    chat.add_argument("--list", action="store_true", help="list the saved threads and exit")
    chat.set_defaults(func=cmd_chat)
