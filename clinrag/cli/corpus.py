"""``clinrag corpus add | replace | retire``: change the corpus held in PostgreSQL, one transaction per command.

They need ``CLINRAG_DATABASE_URL`` and a corpus loaded there (``clinrag index build --store postgres``). The
embedded store has no such commands: it is rebuilt whole (atomically, from the corpus file) by ``clinrag index
build``. Questions running meanwhile see the corpus before or after a command, never part of it (docs/scale.md).
"""

from __future__ import annotations

import argparse

EMBEDDED_MESSAGE = ("`clinrag corpus {command}` changes the corpus in PostgreSQL and CLINRAG_DATABASE_URL is not set; "
                    "an embedded index is changed by editing the corpus file and running `clinrag index build`, "
                    "which rebuilds it atomically")


def _url(command: str) -> str:
    from clinrag.paths import database_url

    url = database_url()
    if not url:
        raise ValueError(EMBEDDED_MESSAGE.format(command=command))
    return url


def cmd_add(args: argparse.Namespace) -> int:
    from clinrag.tools.index.pg_living import add_documents

    done = add_documents(_url("add"), args.file)
    print(f"added {', '.join(done['documents'])} ({done['passages']} passages; corpus generation "
          f"{done['generation']})")
    return 0


def cmd_replace(args: argparse.Namespace) -> int:
    from clinrag.tools.index.pg_living import replace_document

    done = replace_document(_url("replace"), args.old_doc_id, args.file)
    print(f"{done['documents'][0]} replaces {done['replaced']}, now superseded ({done['passages']} passages; "
          f"corpus generation {done['generation']})")
    return 0


def cmd_retire(args: argparse.Namespace) -> int:
    from clinrag.tools.index.pg_living import retire_document

    done = retire_document(_url("retire"), args.doc_id)
    print(f"retired {done['retired']} ({done['passages']} passages out of retrieval; corpus generation "
          f"{done['generation']})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the commands to the ``corpus`` command group (created by ``clinrag.cli.pubmed`` for ``corpus build``)."""
    corpus_p = sub.choices["corpus"]
    corpus_sub = next(a for a in corpus_p._actions if isinstance(a, argparse._SubParsersAction))
    add_p = corpus_sub.add_parser("add", help="add the documents of a JSONL file to the corpus in PostgreSQL")
    add_p.add_argument("file", metavar="FILE", help="JSONL documents (the corpus schema); new doc_ids")
    add_p.set_defaults(func=cmd_add)
    replace_p = corpus_sub.add_parser("replace", help="add a new version of a document; the old one is superseded")
    replace_p.add_argument("old_doc_id", metavar="OLD_DOC_ID", help="the current version being replaced")
    replace_p.add_argument("file", metavar="FILE", help="JSONL with exactly one document: the new version")
    replace_p.set_defaults(func=cmd_replace)
    retire_p = corpus_sub.add_parser("retire", help="take a document out of retrieval")
    retire_p.add_argument("doc_id", metavar="DOC_ID")
    retire_p.set_defaults(func=cmd_retire)
