"""``clinrag eval disagreements``: typed disagreements (frames path) vs NLI-only contradiction edges."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clinrag.cli.common import context_from_args, selected_cases

# (label, metric key): the frames path and the NLI-only path each read that metric from their own summary.
ROWS = [
    ("recall (frames: facet+pair; NLI: pair)", "recall"),
    ("change recall", "change_recall"),
    ("precision", "precision"),
    ("false flags / answer", "false_flags_per_answer"),
    ("agreeing pairs flagged", "agreeing_flagged"),
    ("clean no-conflict answers", "clean_no_conflict"),
    ("off-scope pairs / answer", "off_scope_per_answer"),
    ("cases passed", "cases_passed"),
]


def cmd_disagreements(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from clinrag.evals.disagreements import load_cases, passed
    from clinrag.evals.disagreements_experiment import results_payload, run_experiment

    ctx = context_from_args(args)
    cases = selected_cases(load_cases, args)
    if not cases:
        return 2
    console = Console()
    rows = run_experiment(cases, ctx)
    payload = results_payload(rows)
    per_split = payload["metrics"]
    splits = list(per_split)
    table = Table(title=f"disagreements ({len(rows)} cases, contradiction threshold {ctx.contradiction_threshold})")
    table.add_column("metric")
    for s in splits:
        table.add_column(f"{s}\nframes", justify="right")
        table.add_column(f"{s}\nNLI-only", justify="right")
    table.add_row("cases", *[str(per_split[s]["n"]) for s in splits for _ in range(2)])
    table.add_row("gold pairs (disagreement / change)",
                  *[f"{per_split[s]['gold_disagreement_pairs']} / {per_split[s]['gold_change_pairs']}"
                    for s in splits for _ in range(2)])
    for label, key in ROWS:
        table.add_row(label, *[str(per_split[s][path][key]) for s in splits for path in ("frames", "nli")])
    table.add_row("pair-level recall (facet dropped)",
                  *[str(per_split[s][path]["recall"]) for s in splits for path in ("frames_pairs", "nli")])
    table.add_row("pair-level precision (facet dropped)",
                  *[str(per_split[s][path]["precision"]) for s in splits for path in ("frames_pairs", "nli")])
    table.add_row("gold pairs with both documents retrieved",
                  *[str(per_split[s]["gold_pairs_retrieved"]) for s in splits for _ in range(2)])
    console.print(table)
    # A case fails a path when that path misses a gold pair or flags a false one.
    failures = [r for r in rows if not passed(r["detail"])]
    errors = [r for r in rows if r.get("error")]
    for r in errors:
        console.print(Text.assemble(("ERROR ", "red"), f"{r['example'].inputs['question']!r}: {r['error']}"),
                      soft_wrap=True)
    for r in rows:
        if r.get("error"):
            continue
        bad = [(label, r["detail"][path]) for label, path in (("frames", "frames"), ("NLI", "nli"))
               if not passed(r["detail"], path)]
        if not bad:
            continue
        console.print(Text.assemble(
            ("FAIL ", "red"), f"[{r['example'].metadata.get('split')}] {r['example'].inputs['question']!r}: ",
            "; ".join(f"{label} missed {s['missed']} false {s['false']}" for label, s in bad),
        ), soft_wrap=True)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(payload, indent=2))
    if errors:
        print(f"clinrag: {len(errors)} of {len(rows)} cases raised (scored as empty answers)", file=sys.stderr)
        return 2
    return 0 if not failures else 1


def register(eval_sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = eval_sub.add_parser("disagreements", parents=[common],
                            help="typed disagreements and changes (frames) vs NLI contradiction edges")
    p.add_argument("--cases", help="cases JSONL in LangSmith example format (default: the built-in benchmark)")
    p.add_argument("--split", choices=["canonical", "holdout", "all"], default="all")
    p.add_argument("--json-out", help="write metrics and per-case results as JSON")
    p.set_defaults(func=cmd_disagreements)
