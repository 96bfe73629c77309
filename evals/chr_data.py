"""Data for the CHR harness: MIRAGE questions and the offline retrieval corpora, all read at run time.

* MIRAGE (``<data_dir>/mirage/benchmark_rebuilt.json``): MedQA-US, MedMCQA dev, MMLU-Med, PubMedQA*, BioASQ-Y/N,
  each question with lettered options and the answer letter.
* ``--select diagnosis``: stems whose closing question asks for the most likely diagnosis, cause or etiology
  (:data:`DIAGNOSIS_STEM`, searched in the last 200 characters of the stem; 288 MedQA questions, 73 MMLU-Med,
  75 MedMCQA).
* The disease-description corpus from MedQuAD (CC BY 4.0; the answered collections only: three MedlinePlus
  collections ship without answers). A deterministic subset, because embedding all 16k answers (3.3 M words,
  ~200k sentences) takes hours on two cores: the answers whose question type describes a disease
  (:data:`MEDQUAD_QTYPES`: what it is, its signs and symptoms, its causes), each cut to its first
  :data:`MEDQUAD_MAX_WORDS` words at a sentence end, duplicates (same text) dropped. One document per answer:
  ``org`` is the NIH source, ``title`` the focus and question type.
* PubMedQA abstracts (PubMedQA*): the 1,000 PQA-L records, background/methods/results only. The conclusion
  (``long_answer``) is left out, since it states the answer. PQA-L questions are the articles' titles, and the
  title is kept, so finding the question's own abstract is easy (gold recall@5 is 1.0 for every retriever).

Corpus files are written under ``CLINRAG_INDEX_ROOT/corpora`` (only when their content changes) and indexed
with :func:`clinrag.tools.index.store.build_index` on first use.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path

from pydantic import BaseModel

from clinrag.paths import data_dir, index_root
from clinrag.schema import Document

BENCHMARKS = ("medqa", "medmcqa", "mmlu", "pubmedqa", "bioasq")
DIAGNOSIS_STEM = re.compile(
    r"\bmost (likely|probable) (underlying )?(diagnosis|cause|causal|causative|etiology|etiologic|explanation)\b"
    r"|\b(diagnosis|cause|etiology) (is|was) most (likely|probable)\b",
    re.I,
)
MEDQUAD_QTYPES = ("information", "symptoms", "causes")
MEDQUAD_MAX_WORDS = 120
# GARD's symptom answers open with the same four boilerplate sentences before the phenotype list.
_GARD_BOILERPLATE = re.compile(
    r"(What are the signs and symptoms of [^?]*\?|The Human Phenotype Ontology provides the following list of signs "
    r"and symptoms for [^.]*\.|If the information is available, the table below includes how often the symptom is "
    r"seen in people with this condition\.|You can use the MedlinePlus Medical Dictionary to look up the definitions "
    r"for these medical terms\.|Signs and Symptoms Approximate number of patients \(when available\))\s*"
)
# ...and close with a fixed paragraph on how HPO frequencies are estimated.
_GARD_HPO_NOTE = re.compile(r"\s*The Human Phenotype Ontology \(HPO\) has collected information on how often.*$")
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


class MirageQuestion(BaseModel):
    id: str
    benchmark: str
    question: str
    options: dict[str, str]
    answer: str
    pmids: list[str] = []


def mirage_path() -> Path:
    return data_dir() / "mirage" / "benchmark_rebuilt.json"


def load_mirage(benchmark: str, path: Path | str | None = None) -> list[MirageQuestion]:
    """One MIRAGE benchmark, in file order; clear errors for a missing file or an unknown benchmark."""
    path = Path(path) if path else mirage_path()
    if not path.is_file():
        raise FileNotFoundError(f"{path}: MIRAGE benchmark file not found (set CLINRAG_DATA_DIR or --mirage)")
    data = json.loads(path.read_text(encoding="utf-8"))
    if benchmark not in data:
        raise ValueError(f"unknown benchmark {benchmark!r}; {path.name} has {sorted(data)}")
    return [
        MirageQuestion(id=qid, benchmark=benchmark, question=q["question"], options=q["options"], answer=q["answer"],
                       pmids=[str(p) for p in q.get("PMID", [])])
        for qid, q in data[benchmark].items()
    ]


def is_diagnosis_question(question: str) -> bool:
    return bool(DIAGNOSIS_STEM.search(question.strip()[-200:]))


def select(questions: list[MirageQuestion], selection: str | None) -> list[MirageQuestion]:
    if selection in (None, "all"):
        return questions
    if selection == "diagnosis":
        return [q for q in questions if is_diagnosis_question(q.question)]
    raise ValueError(f"unknown selection {selection!r} (all | diagnosis)")


def _first_words(text: str, max_words: int) -> str:
    """The text cut to at most ``max_words`` words, at the last sentence end when one falls in the second half."""
    words = text.split()
    if len(words) <= max_words:
        return " ".join(words)
    cut = " ".join(words[:max_words])
    ends = [m.end() for m in _SENTENCE_END.finditer(cut + " ")]
    return cut[: ends[-1]] if ends and ends[-1] > len(cut) // 2 else cut


def medquad_documents(path: Path | str | None = None) -> list[Document]:
    """The disease-description subset of MedQuAD as clinrag documents (see the module docstring)."""
    path = Path(path) if path else data_dir() / "medquad" / "medquad.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: MedQuAD not found (set CLINRAG_DATA_DIR)")
    docs, seen_text, seen_ids = [], set(), set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec["qtype"] not in MEDQUAD_QTYPES or not rec["answer"].strip() or not rec["focus"].strip():
                continue
            text = re.sub(r"^Summary\s*:\s*", "", " ".join(rec["answer"].split()))
            text = _first_words(_GARD_HPO_NOTE.sub("", _GARD_BOILERPLATE.sub("", text)), MEDQUAD_MAX_WORDS)
            key = text.lower()
            if len(text.split()) < 5 or key in seen_text:
                continue
            seen_text.add(key)
            doc_id, n = f"medquad:{rec['qid']}", 1
            while doc_id in seen_ids:  # a CancerGov file answers the same question number for several foci
                n += 1
                doc_id = f"medquad:{rec['qid']}.{n}"
            seen_ids.add(doc_id)
            docs.append(Document(
                doc_id=doc_id, source_type="other", org=rec["source"], org_name=f"MedQuAD {rec['collection']}",
                title=f"{rec['focus'].strip()} ({rec['qtype']})", topic=rec["qtype"], text=text, url=rec.get("url"),
            ))
    return docs


def pubmedqa_documents(path: Path | str | None = None) -> list[Document]:
    """PubMedQA PQA-L abstracts without their conclusion, one document per PMID (``pubmed:PMID``)."""
    path = Path(path) if path else data_dir() / "pubmedqa" / "pqal_corpus.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: PubMedQA corpus not found (set CLINRAG_DATA_DIR)")
    docs = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            docs.append(Document(
                doc_id=f"pubmed:{rec['pmid']}", source_type="abstract", org="PubMed", title=rec["question"],
                year=rec.get("year"), pmid=str(rec["pmid"]), text=" ".join(" ".join(rec["contexts"]).split()),
            ))
    return docs


CORPUS_BUILDERS = {"medquad": medquad_documents, "pubmedqa": pubmedqa_documents}


def default_corpus_name(benchmark: str) -> str:
    """PubMedQA* retrieves from its abstracts; every other benchmark from the MedQuAD disease descriptions."""
    return "pubmedqa" if benchmark == "pubmedqa" else "medquad"


def write_corpus(docs: list[Document], path: Path) -> Path:
    """Write a corpus JSONL, leaving an identical file untouched (its index stays valid)."""
    payload = "".join(d.model_dump_json(exclude_none=True) + "\n" for d in docs)
    if path.is_file() and hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(payload.encode()).digest():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(payload, encoding="utf-8")
    tmp.replace(path)
    return path


def built_corpus(name: str) -> Path:
    """The corpus file for a built-in name (``medquad`` | ``pubmedqa``), (re)written from the data dir."""
    if name not in CORPUS_BUILDERS:
        raise ValueError(f"unknown corpus {name!r} ({' | '.join(CORPUS_BUILDERS)})")
    return write_corpus(CORPUS_BUILDERS[name](), index_root() / "corpora" / f"chr_{name}.jsonl")


def ensure_index(corpus_path: Path | str, index_dir: Path | str | None = None, show_progress: bool = True):
    """The loaded index of a corpus; a missing or stale index is built first, with progress bars and timing."""
    from clinrag.documents import load_documents
    from clinrag.tools.index.store import build_index, default_index_dir, get_index, stale_reason

    corpus_path = Path(corpus_path)
    target = Path(index_dir) if index_dir else default_index_dir(corpus_path)
    reason = stale_reason(target, load_documents(corpus_path))
    if reason:
        if show_progress:
            print(f"building the index of {corpus_path.name} at {target} ({reason})", flush=True)
        start = time.perf_counter()
        build_index(corpus_path, target, show_progress=show_progress, pair_scores=False)  # no contradiction check here
        if show_progress:
            print(f"index built in {time.perf_counter() - start:.0f} s", flush=True)
    return get_index(str(corpus_path), str(target))
