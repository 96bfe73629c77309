"""``clinrag index build``: validate a corpus and (re)build its index."""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_index_build(args: argparse.Namespace) -> int:
    from clinrag.documents import load_documents
    from clinrag.paths import BUILTIN_CORPUS
    from clinrag.tools.index.store import build_index, default_index_dir, stale_reason

    corpus = Path(args.corpus) if args.corpus else BUILTIN_CORPUS
    index_dir = Path(args.index_dir) if args.index_dir else default_index_dir(corpus)
    if args.if_stale:
        reason = stale_reason(index_dir, load_documents(corpus))
        if reason is None:
            print(f"index at {index_dir} is up to date")
            return 0
        print(f"building index at {index_dir}: {reason}")
    if args.ray or args.address:
        from clinrag.tools.index.ray_build import build_index_ray

        out = build_index_ray(corpus, index_dir, address=args.address, show_progress=True,
                              pair_scores=not args.no_pair_scores)
    else:
        out = build_index(corpus, index_dir, show_progress=True, pair_scores=not args.no_pair_scores)
    print(f"index written to {out}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    index_p = sub.add_parser("index", help="manage the passage index")
    index_sub = index_p.add_subparsers(dest="index_command", required=True)
    build_p = index_sub.add_parser("build", help="validate a corpus and (re)build its index")
    build_p.add_argument("--corpus", help="corpus JSONL (default: the built-in guideline corpus)")
    build_p.add_argument("--index-dir", help="where to write the index")
    build_p.add_argument("--if-stale", action="store_true", help="only build when missing, stale or foreign")
    build_p.add_argument("--no-pair-scores", action="store_true",
                         help="skip the index-time NLI scores of sentence pairs (the contradiction check then scores "
                              "pairs when questions meet them)")
    build_p.add_argument("--ray", action="store_true",
                         help="embed passages and sentences on Ray actors (clinrag[scale]; docs/scale.md)")
    build_p.add_argument("--address", help="the Ray cluster to join (implies --ray; default: a local Ray, 2 CPUs)")
    build_p.set_defaults(func=cmd_index_build)
