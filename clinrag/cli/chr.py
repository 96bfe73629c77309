"""``clinrag eval chr``: Contrastive Hypothesis Retrieval and its baselines on MIRAGE.

    clinrag eval chr --benchmark medqa --select diagnosis --retriever chr,hyde,dense --hypotheses oracle
    clinrag eval chr --benchmark mmlu --retriever all --hypotheses options --limit 50 --json-out out.json
    clinrag eval chr --benchmark medqa --hypotheses llm --chat-model openai:gpt-4o-mini --retriever all
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from clinrag.options import RETRIEVERS

# Kept literal so that building the parser imports nothing heavy; checked against the modules in the tests.
BENCHMARK_CHOICES = ("medqa", "medmcqa", "mmlu", "pubmedqa", "bioasq")
RETRIEVER_CHOICES = RETRIEVERS
HYPOTHESIS_CHOICES = ("llm", "options", "oracle")


def register(eval_subparsers, common_parent: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """Add ``chr`` to ``clinrag eval``. ``common_parent`` is unused: this command's corpus default differs."""
    p = eval_subparsers.add_parser(
        "chr", help="CHR and its baselines on MIRAGE (MedQA, MedMCQA, MMLU-Med, PubMedQA*, BioASQ)")
    p.add_argument("--benchmark", choices=BENCHMARK_CHOICES, default="medqa")
    p.add_argument("--mirage", help="MIRAGE benchmark JSON (default: <data dir>/mirage/benchmark_rebuilt.json)")
    p.add_argument("--select", choices=["all", "diagnosis"], default="all",
                   help="diagnosis: stems asking for the most likely diagnosis / cause / etiology")
    p.add_argument("--limit", type=int, help="first N questions (after --select)")
    p.add_argument("--retriever", default=None,
                   help=f"comma-separated among {','.join(RETRIEVER_CHOICES)}, or 'all' (default: the Context's, chr)")
    p.add_argument("--hypotheses", choices=HYPOTHESIS_CHOICES,
                   help="llm (needs --chat-model) | options (LLM-free) | oracle (upper bound); default llm with a "
                        "chat model, else options")
    p.add_argument("--lam", type=float, help="CHR lambda (default: the Context's chr_lambda, 1.0)")
    p.add_argument("--pool", type=int, help="CHR first-stage pool and rrf depth (default: candidate_pool, 50)")
    p.add_argument("-k", type=int, default=5, help="passages retrieved and read (default 5)")
    p.add_argument("--rrf-k", type=int, help="rrf constant (default 60)")
    p.add_argument("--hyde-generations", type=int, help="HyDE passages per question with a chat model (default 1)")
    p.add_argument("--multi-queries", type=int, help="rrf reformulations per question with a chat model (default 3)")
    p.add_argument("--corpus", help="'medquad' | 'pubmedqa' | a clinrag corpus JSONL (default: pubmedqa for "
                                    "PubMedQA*, else the MedQuAD disease descriptions)")
    p.add_argument("--index-dir", help="index folder (default: per corpus, under CLINRAG_INDEX_ROOT or the cache)")
    p.add_argument("--chat-model", help="init_chat_model string for hypotheses, expansions and answers")
    p.add_argument("--json-out", help="write metrics and per-case results as JSON")
    p.add_argument("--upload", action="store_true", help="upload dataset and experiment (needs LANGSMITH_API_KEY)")
    p.set_defaults(func=cmd_eval_chr)
    return p


def settings_from(args: argparse.Namespace):
    from clinrag.context import Context
    from clinrag.evals.chr_pipeline import HarnessSettings

    ctx = Context(**({"chat_model": args.chat_model} if args.chat_model else {}))
    names = args.retriever or ctx.retriever
    retrievers = list(RETRIEVER_CHOICES) if names == "all" else [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in retrievers if n not in RETRIEVER_CHOICES]
    if unknown or not retrievers:
        raise ValueError(f"unknown retriever(s) {unknown or names!r}; "
                         f"choose among {', '.join(RETRIEVER_CHOICES)} or 'all'")
    mode = args.hypotheses or ("llm" if ctx.chat_model else "options")
    if mode == "llm" and not ctx.chat_model:
        raise ValueError("--hypotheses llm needs a chat model (--chat-model or CLINRAG_CHAT_MODEL)")
    for name in ("limit", "k", "pool", "rrf_k", "hyde_generations", "multi_queries"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1 (got {value})")
    return HarnessSettings(
        retrievers=list(dict.fromkeys(retrievers)), hypotheses=mode,
        lam=ctx.chr_lambda if args.lam is None else args.lam, pool=args.pool or ctx.candidate_pool, k=args.k,
        rrf_k=args.rrf_k or ctx.rrf_k, hyde_generations=args.hyde_generations or ctx.hyde_generations,
        multi_queries=args.multi_queries or ctx.multi_queries, chat_model=ctx.chat_model,
    )


def cmd_eval_chr(args: argparse.Namespace) -> int:
    from clinrag.evals.chr import json_payload, markdown_table, report, run_experiment, write_json
    from clinrag.evals.chr_data import built_corpus, default_corpus_name, ensure_index, load_mirage, select

    settings = settings_from(args)
    questions = select(load_mirage(args.benchmark, args.mirage), args.select)[: args.limit]
    if not questions:
        print(f"clinrag: no {args.benchmark} questions for --select {args.select}", file=sys.stderr)
        return 2
    corpus = args.corpus or default_corpus_name(args.benchmark)
    corpus_path = built_corpus(corpus) if corpus in ("medquad", "pubmedqa") else Path(corpus).resolve()
    index = ensure_index(corpus_path, args.index_dir)
    print(f"{args.benchmark} ({args.select}): {len(questions)} questions; corpus {corpus_path.name} "
          f"({len(index.docs)} documents, {len(index.passages)} passages); hypotheses: {settings.hypotheses}",
          flush=True)
    start = time.perf_counter()
    rows = run_experiment(questions, index, settings, upload=args.upload)
    result = report(rows, settings, corpus_doc_ids=set(index.docs))
    print(markdown_table(result))
    print(f"\n{len(questions)} questions x {len(settings.retrievers)} retriever(s) "
          f"in {time.perf_counter() - start:.0f} s")
    if args.json_out:
        write_json(args.json_out, json_payload(rows, result))
    return 0
