"""Corpora, indexes, splits and questions of the answerability models' training and evaluation.

Everything is cached under :func:`cache_dir` (``~/.cache/clinrag/answerability``). Splits are fixed before
training: ``bucket(key) = int(sha1(key)[:8], 16) % 10``; bucket 0 is test, bucket 1 dev, 2-9 train (MedQuAD keyed by
the lowercased focus, PubMedQA by PMID, BioASQ by question id). What the data are and why:
:mod:`clinrag.tools.retrieval.train_answerability`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "clinrag" / "answerability"


def bucket(key: str) -> int:
    return int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) % 10


def split_of(key: str) -> str:
    b = bucket(key)
    return "test" if b == 0 else "dev" if b == 1 else "train"


# ---------------------------------------------------------------- indexes (reuse vectors already computed)

def write_index(dst: Path, corpus_path: Path, passages, vectors: np.ndarray, per_passage: list[list[str]],
                sentence_vectors: np.ndarray, copy_from: Path | None = None) -> Path:
    """Write an index folder :meth:`CorpusIndex.load` accepts, from vectors computed elsewhere."""
    import faiss

    from clinrag.documents import load_documents
    from clinrag.tools.index.bm25 import write_bm25
    from clinrag.tools.index.store import VECTORS_FILE, _manifest, embedding_text, make_faiss_index
    from clinrag.tools.index.text import content_tokens

    docs = load_documents(corpus_path)
    tmp = dst.with_name(dst.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    index = make_faiss_index(vectors, "flat")
    faiss.write_index(index, str(tmp / "index.faiss"))
    np.save(tmp / VECTORS_FILE, vectors.astype(np.float32))
    np.save(tmp / "sentences.npy", sentence_vectors.astype(np.float32))
    (tmp / "sentences.json").write_text(json.dumps(per_passage))
    for name in ("corpus_texts.json", "corpus_texts.npy", "frames.jsonl", "pair_scores.npz"):
        if copy_from is not None and (copy_from / name).is_file():
            shutil.copy(copy_from / name, tmp / name)
    if not (tmp / "corpus_texts.json").is_file():
        (tmp / "corpus_texts.json").write_text("[]")
        np.save(tmp / "corpus_texts.npy", np.zeros((0, vectors.shape[1]), dtype=np.float32))
    write_bm25(tmp, [content_tokens(embedding_text(p)) for p in passages])
    with (tmp / "passages.jsonl").open("w", encoding="utf-8") as fh:
        for p in passages:
            fh.write(p.model_dump_json() + "\n")
    (tmp / "manifest.json").write_text(json.dumps(_manifest(docs, corpus_path, len(passages), index), indent=2))
    shutil.rmtree(dst, ignore_errors=True)
    tmp.rename(dst)
    return dst


def reuse_index(corpus_path: Path, dst: Path) -> Path:
    """An index for ``corpus_path`` at ``dst`` from any earlier index of the same corpus and encoder under
    ``index_root()`` (older index formats included: only vectors are reused), else built from scratch."""
    from clinrag.documents import corpus_hash, load_documents
    from clinrag.paths import index_root
    from clinrag.schema import Passage
    from clinrag.tools.index.embeddings import embedding_model_id
    from clinrag.tools.index.store import build_index, stale_reason

    docs = load_documents(corpus_path)
    if stale_reason(dst, docs) is None:
        return dst
    digest = corpus_hash(docs)
    for src in sorted(index_root().glob("*/manifest.json")):
        manifest = json.loads(src.read_text())
        if manifest.get("corpus_hash") != digest or manifest.get("embedding_model") != embedding_model_id():
            continue
        src = src.parent
        if not all((src / n).is_file() for n in ("index.faiss", "passages.jsonl", "sentences.npy", "sentences.json")):
            continue
        import faiss

        vectors = faiss.read_index(str(src / "index.faiss"))
        vectors = vectors.reconstruct_n(0, vectors.ntotal)
        with (src / "passages.jsonl").open(encoding="utf-8") as fh:
            passages = [Passage.model_validate_json(line) for line in fh]
        per_passage = json.loads((src / "sentences.json").read_text())
        return write_index(dst, corpus_path, passages, vectors, per_passage, np.load(src / "sentences.npy"), src)
    return build_index(corpus_path, dst, pair_scores=False)


def medquad_corpus() -> Path:
    from clinrag.evals.chr_data import medquad_documents, write_corpus

    return write_corpus(medquad_documents(), cache_dir() / "corpora" / "medquad.jsonl")


def pubmedqa_corpus() -> Path:
    """The PQA-L abstract corpus the README's examples use (``clinrag pubmed`` writes it), else CHR's."""
    from clinrag.evals.chr_data import pubmedqa_documents, write_corpus

    home = Path.home() / ".cache" / "clinrag" / "corpora" / "pubmedqa.jsonl"
    if home.is_file():
        return home
    return write_corpus(pubmedqa_documents(), cache_dir() / "corpora" / "pubmedqa.jsonl")


def bioasq_questions(split: str = "test", limit: int = 300) -> list[dict]:
    """BioASQ questions of ``split`` (by question id) that have snippets, at most ``limit``, in id order."""
    from clinrag.paths import data_dir

    folder = data_dir() / "mirage"
    snippets: dict[str, list[dict]] = {}
    with (folder / "bioasq_snippets.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            snippets.setdefault(rec["qid"], []).append(rec)
    out = []
    with (folder / "bioasq_questions.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if split_of(rec["id"]) == split and snippets.get(rec["id"]):
                out.append({**rec, "snippets": snippets[rec["id"]]})
    return sorted(out, key=lambda r: r["id"])[:limit]


def bioasq_index(dst: Path, questions: list[dict]) -> tuple[Path, dict[str, set[str]]]:
    """A corpus of every snippet of ``questions`` (one document per distinct snippet text), its index, and the
    relevant doc ids per question id."""
    from clinrag.documents import load_documents
    from clinrag.evals.chr_data import write_corpus
    from clinrag.schema import Document
    from clinrag.tools.index.embeddings import embed_texts
    from clinrag.tools.index.store import chunk_document, embedding_text, stale_reason
    from clinrag.tools.index.text import split_sentences

    ids: dict[str, str] = {}
    docs, relevant = [], {}
    for q in questions:
        for s in q["snippets"]:
            text = " ".join(s["text"].split())
            if not text:
                continue
            if text not in ids:
                ids[text] = f"bioasq:{s['pmid']}-{len(ids)}"
                docs.append(Document(doc_id=ids[text], source_type="abstract", org="PubMed",
                                     title=f"PMID {s['pmid']}", pmid=str(s["pmid"]), text=text))
            relevant.setdefault(q["id"], set()).add(ids[text])
    corpus = write_corpus(docs, cache_dir() / "corpora" / "bioasq_test.jsonl")
    if stale_reason(dst, load_documents(corpus)) is None:
        return dst, relevant
    passages = [p for d in docs for p in chunk_document(d)]
    per_passage = [split_sentences(p.text) for p in passages]
    texts = [embedding_text(p) for p in passages] + [s for sents in per_passage for s in sents]
    unique = list(dict.fromkeys(texts))
    vecs = embed_texts(unique, show_progress=True, label="embedding BioASQ snippets")
    lookup = {t: v for t, v in zip(unique, vecs)}
    vectors = np.stack([lookup[embedding_text(p)] for p in passages])
    sentence_vectors = np.stack([lookup[s] for sents in per_passage for s in sents])
    return write_index(dst, corpus, passages, vectors, per_passage, sentence_vectors), relevant


def question_vectors(name: str, questions: list[str]) -> np.ndarray:
    """MiniLM vectors of ``questions``, cached in ``cache_dir()/questions-NAME.npz`` (keyed by the text list)."""
    from clinrag.tools.index.embeddings import embed_texts

    path = cache_dir() / f"questions-{name}.npz"
    key = hashlib.sha1("\n".join(questions).encode()).hexdigest()
    if path.is_file():
        with np.load(path) as z:
            if str(z["key"]) == key:
                return z["vectors"]
    vectors = embed_texts(questions, show_progress=True, label=f"embedding {name} questions")
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, key=key, vectors=vectors)
    return vectors


# ---------------------------------------------------------------- questions and labels

def medquad_questions(index) -> list[dict]:
    """One question per MedQuAD answer document of ``index``: its text, focus, qtype, positive rows, split."""
    from clinrag.paths import data_dir

    records = {}
    with (data_dir() / "medquad" / "medquad.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            records[rec["qid"]] = rec
    rows_of: dict[str, list[int]] = {}
    for i, p in enumerate(index.passages):
        rows_of.setdefault(p.doc_id, []).append(i)
    out = []
    for doc_id, rows in rows_of.items():
        rec = records.get(doc_id.removeprefix("medquad:").split(".")[0])
        if rec is None:
            continue
        focus = rec["focus"].strip().lower()
        out.append({"id": doc_id, "question": rec["question"].strip(), "focus": focus, "qtype": rec["qtype"],
                    "rows": rows, "split": split_of(focus)})
    return out


def pubmedqa_questions(index) -> list[dict]:
    rows_of: dict[str, list[int]] = {}
    for i, p in enumerate(index.passages):
        rows_of.setdefault(p.doc_id, []).append(i)
    return [{"id": doc_id, "question": index.docs[doc_id].title, "focus": doc_id, "qtype": "",
             "rows": rows, "split": split_of(index.docs[doc_id].pmid or doc_id)}
            for doc_id, rows in rows_of.items()]
