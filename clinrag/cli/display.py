"""Rich terminal rendering of a result: the evidence map, then the answer."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from clinrag.context import Context
from clinrag.schema import AskResult


def print_result(
    result: AskResult, console: Console | None = None, contradiction_threshold: float | None = None
) -> None:
    """The evidence map (documents in a flagged contradiction marked '!'), the contradictions, the answer."""
    console = console or Console()
    if result.evidence:
        threshold = Context().contradiction_threshold if contradiction_threshold is None else contradiction_threshold
        flagged = {d for c in result.contradictions if c.score >= threshold for d in (c.doc_a, c.doc_b)}
        table = Table(title="Evidence map", show_lines=False)
        for col in ("org", "doc_id", "issued", "status", "score", "support", "contradiction"):
            table.add_column(col)
        for e in result.evidence:
            status = "[red]superseded[/red]" if e["status"] == "superseded" else "[green]current[/green]"
            flag = f"{e['contradiction_salience']:.2f}" + (" [yellow]![/yellow]" if e["doc_id"] in flagged else "")
            table.add_row(e["org"], e["doc_id"], e["issued"] or "-", status, f"{e['score']:.4f}",
                          f"{e['support_score']:.2f}", flag)
        console.print(table)
    if result.contradictions:
        ctable = Table(title="Contradictions (cross-document sentence pairs)")
        for col in ("docs", "score", "sentence pair"):
            ctable.add_column(col)
        for c in result.contradictions[:5]:
            ctable.add_row(f"{c.doc_a}\n{c.doc_b}", f"{c.score:.2f}", f"{c.sentence_a}\n{c.sentence_b}")
        console.print(ctable)
    title = "Answer" if result.decision == "answer" else f"Abstained ({result.abstain_reason})"
    border = "green" if result.decision == "answer" else "yellow"
    console.print(Panel(Text(result.answer), title=title, border_style=border))
