"""``clinrag eval frames``: field-level precision and recall of the recommendation-frame extractor."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def cmd_frames(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from clinrag.evals.frames import evaluate_frames

    report = evaluate_frames(args.gold)
    splits = [s for s in ("corpus", "written", "holdout", "all") if s in report]
    table = Table(title="recommendation frames: precision / recall per field (holdout = blind written batch)")
    table.add_column("field")
    for s in splits:
        table.add_column(f"{s} ({report[s]['sentences']} sentences)")
    for field in report["all"]["fields"]:
        table.add_row(field, *[f"{report[s]['fields'][field]['precision']:.3f} / "
                               f"{report[s]['fields'][field]['recall']:.3f}" for s in splits])
    Console().print(table)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2))
    return 0


def register(eval_sub: argparse._SubParsersAction) -> None:
    p = eval_sub.add_parser("frames", help="precision/recall of the recommendation frames against the gold set")
    p.add_argument("--gold", help="gold JSONL (default: the built-in evals/data/frames_gold.jsonl)")
    p.add_argument("--json-out", help="write the per-split, per-field figures as JSON")
    p.set_defaults(func=cmd_frames)
