"""``clinrag eval guideline-drift``, ``calibrate`` and ``abstract-gate``: the guideline benchmark, its thresholds,
and the support gate on an abstract corpus."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from clinrag.cli.common import context_from_args, ensure_index, selected_cases
from clinrag.options import ANSWERABILITY_MODELS


def cmd_guideline_drift(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from clinrag.evals.guideline_drift import DATASET_NAME, load_cases, passed, results_payload, run_experiment

    ctx = context_from_args(args)
    cases = selected_cases(load_cases, args)
    if not cases:
        return 2
    ensure_index(ctx)
    console = Console()

    def report_upload(sync, experiment: str) -> None:
        console.print(f"LangSmith: dataset {sync.name} ({'created' if sync.created else 'updated'}; examples: "
                      f"{sync.examples_created} new, {sync.examples_updated} changed, {sync.examples_unchanged} "
                      f"unchanged); experiment {experiment}", highlight=False, soft_wrap=True)

    rows = run_experiment(cases, ctx, upload=args.upload, dataset_name=args.dataset or DATASET_NAME,
                          on_upload=report_upload)
    payload = results_payload(rows)
    per_split = payload["metrics"]
    splits = list(per_split)
    table = Table(title=f"guideline-drift ({len(rows)} cases, support threshold {ctx.support_threshold})")
    table.add_column("metric")
    for s in splits:
        table.add_column(s)
    for key in per_split[splits[0]]:
        table.add_row(key, *[str(per_split[s][key]) for s in splits])
    console.print(table)
    failures = [r for r in rows if not passed(r)]
    for r in failures:
        console.print(Text.assemble(("FAIL ", "red"), f"{r['example'].id} {r['example'].inputs['question']!r}: "
                      f"decision={r['outputs'].get('decision')}/{r['outputs'].get('abstain_reason')} "
                      f"{'; '.join(r['comments'])}"))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(payload, indent=2))
    return 0 if not failures else 1


def cmd_calibrate(args: argparse.Namespace) -> int:
    from clinrag.evals.calibrate import calibrate
    from clinrag.evals.guideline_drift import load_cases

    ctx = context_from_args(args)
    ensure_index(ctx)
    result = calibrate(load_cases(args.cases, args.split), ctx)
    text = json.dumps({"split": args.split, **result}, indent=2)
    print(text)
    if args.json_out:
        Path(args.json_out).write_text(text)
    return 0


def cmd_abstract_gate(args: argparse.Namespace) -> int:
    from clinrag.evals.abstract_gate import evaluate, format_report

    report = evaluate(limit=args.limit, model=args.model)
    print(format_report(report))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def register(eval_sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    drift = eval_sub.add_parser("guideline-drift", parents=[common], help="the guideline-drift benchmark")
    drift.add_argument("--cases", help="cases JSONL in LangSmith example format (default: the built-in benchmark)")
    drift.add_argument("--split", choices=["canonical", "holdout", "all"], default="all")
    drift.add_argument("--json-out", help="write metrics and per-case results as JSON")
    drift.add_argument("--upload", action="store_true", help="upload dataset and experiment (needs LANGSMITH_API_KEY)")
    drift.add_argument("--dataset", help="LangSmith dataset name for --upload (default: clinrag-guideline-drift)")
    drift.set_defaults(func=cmd_guideline_drift)
    calib = eval_sub.add_parser("calibrate", parents=[common], help="choose support and scope thresholds on a split")
    calib.add_argument("--cases", help="cases JSONL (default: the built-in guideline-drift benchmark)")
    calib.add_argument("--split", choices=["canonical", "holdout", "all"], default="canonical")
    calib.add_argument("--json-out", help="write the chosen thresholds as JSON")
    calib.set_defaults(func=cmd_calibrate)
    gate = eval_sub.add_parser("abstract-gate", help="the support gate on a leave-out PubMedQA abstract corpus: "
                               "choose the abstract weight and threshold on calibration, report test and vitamin D")
    gate.add_argument("--limit", type=int, help="at most this many questions per split (a quick look)")
    gate.add_argument("--json-out", help="write the report, with every question's row, as JSON")
    gate.add_argument("--model", choices=ANSWERABILITY_MODELS,
                      help="the answerability model behind p_answers (default: the shipped one)")
    gate.set_defaults(func=cmd_abstract_gate)
