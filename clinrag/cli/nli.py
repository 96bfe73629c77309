"""``clinrag nli train|eval`` and ``clinrag contradiction score``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clinrag.options import NLI_BACKENDS


def cmd_train(args: argparse.Namespace) -> int:
    from clinrag.tools.nli.data import build_training_data
    from clinrag.tools.nli.train_cross_encoder import train_cross_encoder
    from clinrag.tools.nli.train_feature import new_training_dir, train_feature_model, write_report
    from clinrag.tools.nli.trained import MODEL_DIR

    if args.replace_shipped:
        out = MODEL_DIR
    else:
        out = Path(args.out).expanduser() if args.out else new_training_dir()
        if out.resolve() == MODEL_DIR.resolve():
            print(f"clinrag nli train: {out} is the shipped model folder; pass --replace-shipped to overwrite it",
                  file=sys.stderr)
            return 2
    print(f"writing the trained models to {out}" + (" (replacing the shipped models)" if args.replace_shipped else ""),
          file=sys.stderr)
    report: dict = {}
    if args.stage in ("feature", "both"):
        print("stage 1: feature MLP", file=sys.stderr)
        report["feature"] = train_feature_model(out, seed=args.seed)
    if args.stage in ("cross-encoder", "both"):
        print(f"stage 2: cross-encoder, budget {args.budget_minutes} min", file=sys.stderr)
        data = build_training_data(seed=args.seed)
        report["cross_encoder"] = train_cross_encoder(data["train"], data["val"], args.budget_minutes, out,
                                                      seed=args.seed, log=lambda m: print(m, file=sys.stderr),
                                                      frozen_layers=args.frozen_layers, lr=args.lr)
    if args.stage == "stance":
        from clinrag.tools.nli.train_stance import train_stance_model

        print(f"stance model, budget {args.budget_minutes} min", file=sys.stderr)
        report["stance"] = train_stance_model(args.budget_minutes, out, seed=args.seed,
                                              log=lambda m: print(m, file=sys.stderr))
    write_report(report, out)
    print(json.dumps(report, indent=2))
    print(f"models and training.json written to {out}", file=sys.stderr)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from clinrag.evals.nli import evaluate_backend
    from clinrag.tools.nli.backends import get_nli_backend

    rows = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True)) as progress:
        for spec in args.backend:
            task = progress.add_task(f"{spec}: loading the model and the evaluation sets", total=None)

            def on_progress(stage: str, done: int, total: int, task=task, spec=spec) -> None:
                progress.update(task, description=f"{spec}: {stage} pairs", completed=done, total=total)

            rows.append(evaluate_backend(get_nli_backend(spec), progress=on_progress) | {"spec": spec})
            progress.update(task, description=f"{spec}: done")
    table = Table(title="NLI backends, macro-F1 unless noted (SciFact dev, HealthVer test, NLI4CT Gold_test)")
    columns = {"scifact_support_vs_contradict_f1": "SciFact S vs C", "scifact_3way_f1": "SciFact 3-way",
               "healthver_test_3way_f1": "HealthVer 3-way", "nli4ct_gold_f1": "NLI4CT E vs C",
               "scifact_document_auroc": "SciFact doc AUROC", "seconds": "s"}
    table.add_column("backend", no_wrap=True)
    for title in columns.values():
        table.add_column(title, justify="right")
    for row in rows:
        table.add_row(row["spec"], *[str(row.get(k)) for k in columns])
    Console(width=max(120, Console().width)).print(table)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"metrics": rows}, indent=2))
    return 0


def cmd_threshold(args: argparse.Namespace) -> int:
    from clinrag.evals.nli import pair_threshold_curve

    result = pair_threshold_curve(keep=args.keep)
    print(json.dumps(result, indent=2))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from clinrag.context import Context
    from clinrag.tools.nli.backends import get_nli_backend

    source = sys.stdin if args.pairs == "-" else open(args.pairs, encoding="utf-8")
    pairs = []
    with source:
        for lineno, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                pairs.append((str(row["a"]), str(row["b"])))
            except (json.JSONDecodeError, KeyError, TypeError):
                print(f"clinrag: {args.pairs}:{lineno}: expected a JSON object with string fields 'a' and 'b'",
                      file=sys.stderr)
                return 2
    backend = get_nli_backend(args.backend or Context().nli_backend)
    for start in range(0, len(pairs), args.batch_size):
        for p in backend.predict(pairs[start : start + args.batch_size]):
            print(json.dumps({"p_entailment": round(float(p[0]), 6), "p_neutral": round(float(p[1]), 6),
                              "p_contradiction": round(float(p[2]), 6)}), flush=True)
    return 0


def register(sub) -> None:
    # Defaults come from clinrag.options (no Context here: a malformed CLINRAG_* variable must not break --help).
    backends = ", ".join(NLI_BACKENDS)
    nli = sub.add_parser("nli", help="train and evaluate the contradiction (NLI) models")
    nli_sub = nli.add_subparsers(dest="nli_command", required=True)
    train = nli_sub.add_parser("train", help="reproduce the shipped NLI and stance models from the data directory")
    train.add_argument("--stage", choices=["feature", "cross-encoder", "both", "stance"], default="both",
                       help="both = the two NLI stages; stance = the stance model between abstracts "
                            "(tools/nli/train_stance.py)")
    train.add_argument("--budget-minutes", type=float, default=30.0,
                       help="CPU budget of the cross-encoder or stance stage")
    train.add_argument("--seed", type=int, default=13)
    train.add_argument("--frozen-layers", type=int, default=4,
                       help="MiniLM layers kept as shipped (of 6; NLI cross-encoder only)")
    train.add_argument("--lr", type=float, default=1e-4, help="NLI cross-encoder learning rate")
    where = train.add_mutually_exclusive_group()
    where.add_argument("--out", help="output folder (default: a new folder under $XDG_DATA_HOME/clinrag/nli-training, "
                                     "printed)")
    where.add_argument("--replace-shipped", action="store_true",
                       help="write into the packaged model folder, replacing the shipped models")
    train.set_defaults(func=cmd_train)
    ev = nli_sub.add_parser("eval", help="print the NLI metrics of one or more backends")
    ev.add_argument("--backend", nargs="+", default=["lexical", "feature", "cross-encoder", "two-stage"],
                    help=f"backends to evaluate: {backends}, or local Hugging Face NLI model folders "
                         "(default: lexical feature cross-encoder two-stage)")
    ev.add_argument("--json-out", help="write the metrics as JSON")
    ev.set_defaults(func=cmd_eval)

    thr = nli_sub.add_parser("threshold", help="tune the sentence-pair cosine threshold on SciFact train")
    thr.add_argument("--keep", type=float, default=0.8, help="share of claim-rationale pairs to keep")
    thr.add_argument("--json-out", help="write the curve as JSON")
    thr.set_defaults(func=cmd_threshold)

    contradiction = sub.add_parser("contradiction", help="sentence-pair contradiction scoring")
    c_sub = contradiction.add_subparsers(dest="contradiction_command", required=True)
    score = c_sub.add_parser(
        "score", help='JSONL {"a", "b"} in, JSONL {"p_entailment", "p_neutral", "p_contradiction"} out')
    score.add_argument("--pairs", required=True, help="JSONL file, or - for stdin")
    score.add_argument("--backend", help=f"{backends}, or a local Hugging Face NLI model folder "
                                         "(default: CLINRAG_NLI_BACKEND, else cross-encoder)")
    score.add_argument("--batch-size", type=int, default=32, help="pairs per model call (default 32)")
    score.set_defaults(func=cmd_score)
