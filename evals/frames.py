"""Field-level precision and recall of recommendation-frame extraction against ``evals/data/frames_gold.jsonl``.

Each gold line is one sentence with its frames ([] when it states no recommendation). Corpus sentences are
extracted the way the system does it, with :func:`document_frames` over their whole document (topic and
population defaults, the previous sentence for "these patients"); written sentences with :func:`extract_frames`
alone, without any document context.

Matching: per sentence, predicted and gold frames are paired greedily by a score (intervention 4, action 2,
test 1, age_min/age_max/interval/quantities 0.5 each); a pair needs the same intervention or the same action.
Unpaired frames count as wrong on every field they fill (precision) or leave unfilled (recall).

Fields: ``intervention``, ``action`` (every frame has one); ``age`` (age_min and age_max as two slots, only
stated bounds count); ``interval``; ``quantity`` (thresholds and targets as (kind, comparator, value, unit)
items, the name is not scored); ``strength``; ``test``. Precision = correct predicted values / predicted
values; recall = correct predicted values / gold values.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from importlib import resources
from pathlib import Path
from typing import Any

from clinrag.tools.frames.extract import document_frames, extract_frames
from clinrag.tools.frames.schema import Frame

FIELDS = ("intervention", "action", "age", "interval", "quantity", "strength", "test")
GOALS = {"intervention": 0.9, "action": 0.9, "age": 0.9, "interval": 0.9, "quantity": 0.9}  # the stated targets


def default_gold_path() -> Path:
    return Path(str(resources.files("clinrag.evals.data").joinpath("frames_gold.jsonl")))


def _corpus_path() -> Path:
    return Path(str(resources.files("clinrag.corpus").joinpath("guidelines.jsonl")))


def _slots(frame: dict[str, Any], field: str) -> list[Any]:
    """The values a frame states for a field (empty when it states none)."""
    pop = frame.get("population") or {}
    if field == "age":
        return [("min", pop.get("age_min")), ("max", pop.get("age_max"))]
    if field == "interval":
        iv = frame.get("interval_months")
        return [(iv["min"], iv["max"])] if iv else []
    if field == "quantity":
        return [
            (kind, q["op"], q["value"], q.get("unit") or "")
            for kind in ("thresholds", "targets")
            for q in frame.get(kind) or []
        ]
    value = frame.get(field)
    return [value] if value is not None else []


def _stated(frame: dict[str, Any], field: str) -> list[Any]:
    return [s for s in _slots(frame, field) if not (field == "age" and s[1] is None)]


def _score(p: dict[str, Any], g: dict[str, Any]) -> float:
    score = 4.0 * (p["intervention"] == g["intervention"]) + 2.0 * (p["action"] == g["action"])
    score += 1.0 * (p.get("test") == g.get("test"))
    for field in ("age", "interval", "quantity"):
        score += 0.5 * (Counter(_stated(p, field)) == Counter(_stated(g, field)))
    return score


def match(pred: list[dict[str, Any]], gold: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Greedy pairing of predicted to gold frames of one sentence (see module docstring)."""
    pairs = sorted(
        (
            (_score(p, g), i, j)
            for i, p in enumerate(pred)
            for j, g in enumerate(gold)
            if p["intervention"] == g["intervention"] or p["action"] == g["action"]
        ),
        reverse=True,
    )
    used_p, used_g, out = set(), set(), []
    for _, i, j in pairs:
        if i not in used_p and j not in used_g:
            used_p.add(i)
            used_g.add(j)
            out.append((i, j))
    return out


def _predictions(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    docs = {json.loads(line)["doc_id"]: json.loads(line) for line in _corpus_path().read_text().splitlines() if line}
    by_sentence: dict[tuple[str, str], list[Frame]] = defaultdict(list)
    for doc_id in {r["doc_id"] for r in rows if r["source"] == "corpus"}:
        for frame in document_frames(docs[doc_id]):
            by_sentence[(doc_id, frame.sentence)].append(frame)
    out = {}
    for r in rows:
        frames = (
            by_sentence.get((r["doc_id"], " ".join(r["sentence"].split())), [])
            if r["source"] == "corpus"
            else extract_frames(r["sentence"])
        )
        out[r["id"]] = [f.model_dump() for f in frames]
    return out


def _tally(rows: list[dict[str, Any]], preds: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    counts = {f: Counter() for f in FIELDS}
    n_pred = n_gold = n_matched = 0
    for r in rows:
        pred, gold = preds[r["id"]], r["frames"]
        n_pred, n_gold = n_pred + len(pred), n_gold + len(gold)
        pairs = match(pred, gold)
        n_matched += len(pairs)
        for field in FIELDS:
            counts[field]["pred"] += sum(len(_stated(p, field)) for p in pred)
            counts[field]["gold"] += sum(len(_stated(g, field)) for g in gold)
            for i, j in pairs:
                counts[field]["tp"] += sum(
                    (Counter(_stated(pred[i], field)) & Counter(_stated(gold[j], field))).values()
                )
    table = {}
    for field, c in counts.items():
        p = c["tp"] / c["pred"] if c["pred"] else 1.0
        rec = c["tp"] / c["gold"] if c["gold"] else 1.0
        table[field] = {
            "precision": round(p, 3),
            "recall": round(rec, 3),
            "tp": c["tp"],
            "pred": c["pred"],
            "gold": c["gold"],
        }
    return {
        "fields": table,
        "sentences": len(rows),
        "gold_frames": n_gold,
        "pred_frames": n_pred,
        "matched_frames": n_matched,
    }


HOLDOUT_BATCH = "aj"
"""Written sentences of batch aj were written, with their gold frames, by a separate session that read only the
annotation guide ``evals/data/frames_gold.md`` (never the extractor's rules, its predictions or the other batches),
and are scored with the rules as they were when the batch was first run: the blind holdout. Corpus sentences and
written batches a-ai were seen while the rules were tuned (batches c to ai were each the blind holdout, scored once,
before their failures were used to extend the rules)."""


def split_of(row: dict[str, Any]) -> str:
    """"corpus", "written" (seen while tuning) or "holdout" (the blind batch)."""
    if row["source"] == "written" and row.get("batch") == HOLDOUT_BATCH:
        return "holdout"
    return row["source"]


def evaluate_frames(gold_path: Path | str | None = None) -> dict[str, Any]:
    """Precision/recall per field, overall and per split ("corpus", "written", "holdout")."""
    rows = [json.loads(line) for line in Path(gold_path or default_gold_path()).read_text().splitlines() if line]
    preds = _predictions(rows)
    result = {"all": _tally(rows, preds)}
    for split in ("corpus", "written", "holdout"):
        subset = [r for r in rows if split_of(r) == split]
        if subset:
            result[split] = _tally(subset, preds)
    return result


def errors(gold_path: Path | str | None = None) -> list[dict[str, Any]]:
    """Sentences whose predicted frames differ from gold on a scored field (for inspection)."""
    rows = [json.loads(line) for line in Path(gold_path or default_gold_path()).read_text().splitlines() if line]
    preds = _predictions(rows)
    out = []
    for r in rows:
        pred, gold = preds[r["id"]], r["frames"]
        pairs = match(pred, gold)
        bad = (
            len(pairs) != len(pred)
            or len(pairs) != len(gold)
            or any(Counter(_stated(pred[i], f)) != Counter(_stated(gold[j], f)) for i, j in pairs for f in FIELDS)
        )
        if bad:
            out.append({"id": r["id"], "sentence": r["sentence"], "gold": gold, "pred": pred})
    return out


if __name__ == "__main__":
    report = evaluate_frames()
    for split, res in report.items():
        print(f"{split}: {res['sentences']} sentences, gold {res['gold_frames']} / pred {res['pred_frames']} frames")
        for field, row in res["fields"].items():
            print(
                f"  {field:13s} P={row['precision']:.3f} R={row['recall']:.3f}"
                f" ({row['tp']}/{row['pred']}/{row['gold']})"
            )
