"""Live status lines while a question runs: clinrag's custom stream events (``clinrag.graph.events``) in rich.

Every string from the corpus or the question is escaped (``rich.markup.escape``): corpus text prints as text.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from clinrag.context import Context
from clinrag.graph.events import when_label
from clinrag.run import stream_run, to_result
from clinrag.schema import AskResult

MAX_DOCS_LISTED = 8


def _cite(doc_id: str) -> str:
    return escape(f"[{doc_id}]")  # literal brackets, not rich markup


def _status(item: dict) -> str:
    if item.get("status") == "superseded":
        return f"[red]superseded by {escape(str(item.get('superseded_by')))}[/red]"
    return "[green]current[/green]"


def event_lines(event: dict) -> list[str]:
    """Rich-markup lines for one event; unknown events (another tool's) give none."""
    kind = event.get("type", "")
    if kind == "clinrag.follow_up":
        return [f"[cyan]follow-up[/cyan] read as: {escape(event['resolved'])}"]
    if kind == "clinrag.scope":
        if event["in_scope"]:
            return ["[green]in scope[/green]: searching the corpus"]
        return [f"[yellow]out of scope[/yellow] ({escape(str(event.get('category')))}): {escape(event['reason'])}"]
    if kind == "clinrag.evidence":
        items = event["items"]
        docs = {i["doc_id"]: i for i in items}
        lines = [f"evidence: {len(items)} passages from {len(docs)} documents"]
        lines += [f"  {escape(str(i['org']))} {_cite(i['doc_id'])} {escape(when_label(i))}, "
                  f"{_status(i)}, "
                  f"support {i['support_score']:.2f}" for i in list(docs.values())[:MAX_DOCS_LISTED]]
        return lines
    if kind == "clinrag.contradictions":
        flagged = event["flagged"]
        typed = event.get("disagreements") or []
        between = sum(d.get("kind") == "disagreement" for d in typed)
        lines = [f"disagreements (recommendation frames): {between} between organizations, {len(typed) - between} "
                 f"changes between versions; NLI: {len(flagged)} of {event['document_pairs']} document pairs flagged"]
        lines += [f"  [yellow]![/yellow] {_cite(e['doc_a'])} vs {_cite(e['doc_b'])} score {e['score']:.2f}"
                  for e in flagged[:3]]
        return lines
    if kind == "clinrag.support":
        verdict = "answering" if event["decision"] == "answer" else "[yellow]abstaining: not supported[/yellow]"
        return [f"support {event['support']:.2f} (threshold {event['threshold']:.3f}): {verdict}"]
    return []


def print_event(console: Console, event: dict) -> None:
    for line in event_lines(event):
        console.print(f"[dim]>[/dim] {line}", highlight=False, soft_wrap=True)  # one line per step, unwrapped


def ask_live(question: str, context: Context | None = None, console: Console | None = None) -> AskResult:
    """Answer one question, printing each step's status line as it happens."""
    from clinrag.graph import graph

    console = console or Console()
    state = stream_run(graph, {"question": question}, context, on_event=lambda event: print_event(console, event))
    return to_result(state)
