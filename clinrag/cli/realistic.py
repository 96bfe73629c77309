"""``clinrag eval realistic``: questions as people type them, with today's behaviour as the baseline."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from clinrag.cli.common import context_from_args, ensure_index, selected_cases


def cmd_realistic(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from clinrag.evals.realistic import failure_line, load_cases, passed, per_split, results_payload, run_experiment

    ctx = context_from_args(args)
    cases = selected_cases(load_cases, args)
    if not cases:
        return 2
    ensure_index(ctx)
    rows = run_experiment(cases, ctx, understanding=True)
    baseline = None if args.no_baseline else run_experiment(cases, ctx, understanding=False)
    metrics, base = per_split(rows), per_split(baseline) if baseline else {}
    table = Table(title=f"realistic questions ({len(rows)} cases; baseline = question understanding off)")
    table.add_column("metric")
    for s in metrics:
        table.add_column(s)
        if base:
            table.add_column(f"{s} baseline")
    for key in next(iter(metrics.values())):
        cells = []
        for s in metrics:
            cells += [str(metrics[s][key])] + ([str(base[s][key])] if base else [])
        table.add_row(key, *cells)
    console = Console()
    console.print(table)
    failures = [r for r in rows if not passed(r)]
    for r in failures:
        console.print(Text.assemble(("FAIL ", "red"), failure_line(r)))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results_payload(rows, baseline), indent=2, ensure_ascii=False))
    return 0 if not failures else 1


def register(eval_sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = eval_sub.add_parser("realistic", parents=[common], help="questions as people type them, vs the baseline")
    p.add_argument("--cases", help="cases JSONL in LangSmith example format (default: the built-in benchmark)")
    p.add_argument("--split", choices=["canonical", "holdout", "all"], default="all")
    p.add_argument("--json-out", help="write metrics (new and baseline) and per-case results as JSON")
    p.add_argument("--no-baseline", action="store_true", help="skip the run with question understanding off")
    p.set_defaults(func=cmd_realistic)
