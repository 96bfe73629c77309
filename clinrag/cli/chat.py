"""``clinrag chat`` on the command line: an interactive chat whose threads persist in SQLite."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from clinrag.cli.common import context_from_args, ensure_index

if TYPE_CHECKING:  # rich, LangChain and the chat graph load only when a chat runs (not for `clinrag ask`)
    from langchain_core.messages import AnyMessage
    from rich.console import Console

    from clinrag.context import Context


def print_transcript(console: Console, messages: list[AnyMessage]) -> None:
    from rich.markup import escape

    for m in messages:
        who = "[bold cyan]you[/bold cyan]" if m.type == "human" else "[bold green]clinrag[/bold green]"
        console.print(f"{who}> {escape(str(m.content))}", highlight=False)


def _read_turn(console: Console) -> str:
    from rich.markup import escape

    text = console.input("[bold cyan]you>[/bold cyan] ")
    if not sys.stdin.isatty():
        console.print(escape(text), highlight=False)  # piped input: keep the transcript readable
    return text


def run_chat(
    thread: str, context: Context | None = None, db_path: Path | None = None, console: Console | None = None,
    read_line: Callable[[], str] | None = None,
) -> int:
    """The chat loop: read a turn, show the evidence map forming, print the answer; until /exit or end of input."""
    from rich.console import Console
    from rich.markup import escape

    from clinrag.cli.display import print_result
    from clinrag.cli.live import print_event
    from clinrag.run import InputError, to_result
    from clinrag.threads import COMMANDS, chat_db_path, chat_graph, chat_turn, thread_store, transcript

    console = console or Console()
    read_line = read_line or (lambda: _read_turn(console))
    db_path = db_path or chat_db_path()
    with chat_graph(db_path) as graph:
        earlier = transcript(graph, thread)
        if earlier:
            turns = sum(m.type == "human" for m in earlier)
            console.print(f"Resuming thread [bold]{escape(thread)}[/bold] ({turns} earlier questions):")
            print_transcript(console, earlier)
        else:
            console.print(f"New thread [bold]{escape(thread)}[/bold]. Ask about published screening and prevention "
                          "guidance.")
        console.print(f"[dim]{COMMANDS}[/dim]")
        while True:
            try:
                text = read_line().strip()
            except (EOFError, KeyboardInterrupt):
                break
            if text in {"/exit", "/quit"}:
                break
            if text == "/history":
                print_transcript(console, transcript(graph, thread))
                continue
            if not text:
                continue
            try:
                state = chat_turn(graph, thread, text, context, on_event=lambda event: print_event(console, event))
            except InputError as e:  # a question clinrag cannot take: say why and keep the chat going
                console.print(f"[yellow]{escape(e.message)}[/yellow]")
                continue
            print_result(to_result(state), console)
    console.print(f"[dim]Thread saved in {escape(thread_store(db_path))}; resume with: clinrag chat --thread "
                  f"{escape(thread)}[/dim]")
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from clinrag.threads import chat_db_path, chat_graph, list_threads, new_thread_name, thread_store

    db_path = Path(args.db).expanduser() if args.db else chat_db_path()
    if args.list:
        with chat_graph(db_path) as graph:
            threads = list_threads(graph)
        for name, questions in threads.items():
            print(f"{name}\t{questions} questions")
        if not threads:
            print(f"no threads in {thread_store(db_path)}")
        return 0
    ctx = context_from_args(args)
    ensure_index(ctx)
    return run_chat(args.thread or new_thread_name(), ctx, db_path)


def register(subparsers, common_parent: argparse.ArgumentParser) -> None:
    chat = subparsers.add_parser(
        "chat", parents=[common_parent],
        help="interactive chat; threads persist in SQLite (CLINRAG_CHAT_DB or $XDG_DATA_HOME/clinrag/threads.sqlite)",
    )  # fmt: skip
    chat.add_argument("--thread", help="thread name: resumes it if it exists (default: a new thread named by the time)")
    chat.add_argument("--db",
                      help="SQLite database of the threads (default: CLINRAG_CHAT_DB or the user data directory)")
    chat.add_argument("--list", action="store_true", help="list the saved threads and exit")
    chat.set_defaults(func=cmd_chat)
