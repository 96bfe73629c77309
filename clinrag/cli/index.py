"""``clinrag index build``: validate a corpus and (re)build its index, in a folder or in PostgreSQL."""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_index_build(args: argparse.Namespace) -> int:
    from clinrag.documents import load_documents
    from clinrag.paths import BUILTIN_CORPUS
    from clinrag.tools.index.store import build_index, default_index_dir, stale_reason

    corpus = Path(args.corpus) if args.corpus else BUILTIN_CORPUS
    if _store_kind(args, corpus) == "postgres" and args.index_dir:
        raise ValueError("--index-dir names an embedded index folder; the postgres store loads the database")
    index_dir = Path(args.index_dir) if args.index_dir else default_index_dir(corpus)
    if _store_kind(args, corpus) == "postgres":
        return _load_postgres(args, corpus, index_dir)
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


def _store_kind(args: argparse.Namespace, corpus: Path) -> str:
    """Where this build goes: the Context's corpus store (``--store``, else CLINRAG_CORPUS_STORE, else auto)."""
    from clinrag.context import Context
    from clinrag.tools.index.corpus_store import store_kind

    overrides = {"corpus_path": str(corpus.resolve())}
    if args.store:
        overrides["corpus_store"] = args.store
    return store_kind(Context(**overrides))


def _load_postgres(args: argparse.Namespace, corpus: Path, index_dir: Path) -> int:
    """Build the embedded index (reused when up to date; ``--ray`` builds it on Ray) and bulk-load it into the
    database of CLINRAG_DATABASE_URL in one transaction (docs/scale.md, "Corpus in PostgreSQL")."""
    from clinrag.documents import corpus_hash, load_documents
    from clinrag.paths import database_url
    from clinrag.tools.index.pg_load import load_corpus
    from clinrag.tools.index.pg_schema import connect, corpus_name, loaded_corpus, where

    url = database_url()
    if args.if_stale:
        with connect(url, autocommit=True) as conn:
            loaded = loaded_corpus(conn)
            generation = _generation(conn) if loaded else 0
        if loaded and loaded.get("name") == corpus_name(corpus):
            if generation:
                print(f"the corpus in {where(url)} was changed by `clinrag corpus` commands ({generation} so far); "
                      "not reloading it from the file (run without --if-stale to replace it)")
                return 0
            if loaded.get("hash") == corpus_hash(load_documents(corpus)):
                print(f"corpus in {where(url)} is up to date")
                return 0
    if args.ray or args.address:
        from clinrag.tools.index.ray_build import build_index_ray

        build_index_ray(corpus, index_dir, address=args.address, show_progress=True,
                        pair_scores=not args.no_pair_scores)
    done = load_corpus(url, corpus, show_progress=True, pair_scores=not args.no_pair_scores)
    print(f"corpus {corpus_name(corpus)} loaded into {where(url)}: {done['documents']} documents, "
          f"{done['passages']} passages, {done['sentences']} sentences, {done['pairs']} sentence pairs "
          f"({done['seconds']:.2f} s in the database)")
    return 0


def _generation(conn) -> int:
    from clinrag.tools.index.pg_schema import SCHEMA

    row = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row else 0


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
    build_p.add_argument("--store", choices=("auto", "embedded", "postgres"),
                         help="where the index goes (default: CLINRAG_CORPUS_STORE, else auto): postgres loads it into "
                              "the database of CLINRAG_DATABASE_URL (docs/scale.md)")
    build_p.set_defaults(func=cmd_index_build)
