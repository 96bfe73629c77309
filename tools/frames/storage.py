"""Frames stored with the index (``frames.jsonl``: one line per guideline document, ``{"doc_id", "frames"}``), so
questions pay nothing for extraction. Only guideline documents get recommendation frames."""

from __future__ import annotations

import json
from pathlib import Path

FRAMES_FILE = "frames.jsonl"
_EXTRACTOR_MODULES = ("extract.py", "document_passes.py", "examinations.py", "clauses.py", "clause_parts.py",
                      "populations.py", "rules.py", "action_cues.py", "cues_against.py", "cues_decision.py",
                      "cues_for.py", "imperative.py", "intervals.py", "ages.py", "quantities.py",
                      "quantity_names.py", "readings.py", "set_aside.py", "lexicon.py", "subgroups.py", "numbers.py",
                      "no_stance.py", "programme_cues.py", "schema.py", "goals.py", "groups.py",
                      # the index's sentence split, which the extractor reads documents with
                      "../index/text.py")


def extractor_fingerprint() -> str:
    """A digest of the extractor's source: stored frames from another version of the rules make an index stale."""
    import hashlib

    digest = hashlib.sha256()
    for name in _EXTRACTOR_MODULES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:16]


def write_frames(index_dir: Path, docs: list, show_progress: bool = False) -> int:
    """Extract and write the frames of every guideline document; returns the number of frames written."""
    from clinrag.tools.frames.extract import document_frames

    guidelines = [d for d in docs if d.source_type == "guideline"]
    if show_progress and guidelines:
        from tqdm.auto import tqdm

        guidelines = tqdm(guidelines, desc="recommendation frames", unit="doc")
    n = 0
    with (index_dir / FRAMES_FILE).open("w", encoding="utf-8") as fh:
        for doc in guidelines:
            frames = document_frames(doc)
            n += len(frames)
            fh.write(json.dumps({"doc_id": doc.doc_id, "frames": [f.model_dump(mode="json") for f in frames]}) + "\n")
    return n


def load_frames(index_dir: Path) -> dict[str, list]:
    """doc_id -> frames; {} for an index without frames (a corpus with no guideline documents)."""
    from clinrag.tools.frames.schema import Frame

    path = Path(index_dir) / FRAMES_FILE
    if not path.is_file():
        return {}
    out: dict[str, list] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            out[row["doc_id"]] = [Frame.model_validate(f) for f in row["frames"]]
    return out
