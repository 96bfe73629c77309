"""Rich terminal rendering of a result: the evidence map, then the answer.

Every string that comes from the corpus or the question is escaped (``rich.markup.escape``) or wrapped in
``Text``: a passage holding ``[bold]`` or ``[link=...]`` is printed literally, never as rich markup.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from clinrag.context import Context
from clinrag.evidence_text import FACET_LABELS, value_text
from clinrag.schema import AskResult


def disagreement_table(disagreements: list, kind: str = "disagreement") -> Table | None:
    """Rows = facets of one intervention, columns = organizations (for changes: the versions, oldest first);
    a cell holds the document's value with its stated strength."""
    rows = [d for d in disagreements if d.kind == kind]
    if not rows:
        return None
    columns: list[str] = []
    cells: list[tuple[str, dict[str, list[str]]]] = []
    for d in rows:
        by_col: dict[str, list[str]] = {}
        for v in sorted(d.values, key=lambda v: v.issued or ""):
            col = v.org or "?" if kind == "disagreement" else f"{v.org} {(v.issued or '')[:4]}"
            if col not in columns:
                columns.append(col)
            by_col.setdefault(col, []).append(value_text(v))
        cells.append((f"{FACET_LABELS.get(d.facet, d.facet)}\n{d.intervention}", by_col))
    title = ("Where they differ (recommendation frames)" if kind == "disagreement"
             else "What changed between versions (recommendation frames)")
    table = Table(title=title, show_lines=True)
    table.add_column("facet")
    for col in columns:
        table.add_column(escape(col))
    for label, by_col in cells:
        table.add_row(escape(label), *[escape("; ".join(dict.fromkeys(by_col.get(c, [])))) or "-" for c in columns])
    return table


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
            # corpus text is printed as text: a "[bold]" in an org or doc_id is not rich markup
            issued = e["issued"] or str(e.get("year") or "-")  # abstracts carry a year, not an issue date
            table.add_row(escape(str(e["org"])), escape(str(e["doc_id"])), escape(issued), status, f"{e['score']:.4f}",
                          f"{e['support_score']:.2f}", flag)
        console.print(table)
    for kind in ("disagreement", "change"):
        table = disagreement_table(result.disagreements, kind)
        if table is not None:
            console.print(table)
    threshold = Context().contradiction_threshold if contradiction_threshold is None else contradiction_threshold
    nli_flagged = [c for c in result.contradictions if c.score >= threshold]
    if nli_flagged:
        ctable = Table(title="Other possible contradictions (NLI, not a comparison of recommendations)")
        for col in ("docs", "score", "basis", "sentence pair"):
            ctable.add_column(col)
        for c in nli_flagged[:5]:
            basis = "opposite stance toward the question" if c.basis == "stance" else "sentence pair"
            ctable.add_row(escape(f"{c.doc_a}\n{c.doc_b}"), f"{c.score:.2f}", basis,
                           escape(f"{c.sentence_a}\n{c.sentence_b}"))
        console.print(ctable)
    title = "Answer" if result.decision == "answer" else f"Abstained ({result.abstain_reason})"
    border = "green" if result.decision == "answer" else "yellow"
    console.print(Panel(Text(result.answer), title=title, border_style=border))
