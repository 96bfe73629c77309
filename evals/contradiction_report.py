"""Contradiction reports of Javadi et al. (arXiv:2511.06668) over a set of queries.

For every query, the candidate pool of :func:`clinrag.tools.retrieval.retrieval_conditions.condition_search` (the
``pool`` most similar documents, one passage each) is scored with S (MMR + recency) and contradiction salience. Each
(query, document) pair is one observation:

* Table 3: a 2-D frequency table of S bins (rows) by salience bins (columns);
* Figure 2: a heatmap of salience bins (rows) by 5-year publication interval (columns).

Both are written as CSV and PNG (matplotlib, Agg backend).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

SALIENCE_EDGES = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 1.0000001]
S_STEP = 0.1
UNKNOWN_YEAR = "n/a"


def collect(index, queries: list[str], *, pool: int, lam: float, alpha: float, nli_backend: str,
            pair_threshold: float, exclude_source_types=frozenset(), on_query=None) -> list[dict]:
    from clinrag.tools.retrieval.retrieval_conditions import condition_search

    rows = []
    for q in queries:
        result = condition_search(index, q, "most-similar", k=0, lam=lam, alpha=alpha, pool=pool,
                                  nli_backend=nli_backend, pair_threshold=pair_threshold,
                                  exclude_source_types=exclude_source_types, score_contradictions=True)
        rows += [{"query": q, "doc_id": c.doc_id, "year": c.year, "s": c.s, "salience": c.salience}
                 for c in result.pool]
        if on_query:
            on_query()
    return rows


def _bin_label(lo: float, hi: float) -> str:
    return f"[{lo:.1f}, {min(hi, 1.0):.1f}{']' if hi > 1 else ')'}"


def salience_bins() -> list[str]:
    return [_bin_label(lo, hi) for lo, hi in zip(SALIENCE_EDGES, SALIENCE_EDGES[1:])]


def salience_bin(value: float) -> int:
    return min(int(np.searchsorted(SALIENCE_EDGES, value, side="right")) - 1, len(SALIENCE_EDGES) - 2)


def s_vs_salience(rows: list[dict]) -> tuple[list[str], list[str], np.ndarray]:
    """(S bin labels, salience bin labels, counts) with S bins of width 0.1 over the observed range."""
    if not rows:
        return [], salience_bins(), np.zeros((0, len(SALIENCE_EDGES) - 1), dtype=int)
    lo = math.floor(min(r["s"] for r in rows) / S_STEP) * S_STEP
    hi = math.floor(max(r["s"] for r in rows) / S_STEP) * S_STEP
    n = int(round((hi - lo) / S_STEP)) + 1
    counts = np.zeros((n, len(SALIENCE_EDGES) - 1), dtype=int)
    for r in rows:
        counts[min(int((r["s"] - lo) / S_STEP + 1e-9), n - 1), salience_bin(r["salience"])] += 1
    labels = [f"[{lo + i * S_STEP:.1f}, {lo + (i + 1) * S_STEP:.1f})" for i in range(n)]
    return labels, salience_bins(), counts


def salience_by_period(rows: list[dict]) -> tuple[list[str], list[str], np.ndarray]:
    """(salience bin labels, 5-year interval labels, counts); undated documents in a last 'n/a' column."""
    years = sorted({r["year"] for r in rows if r["year"]})
    periods = []
    if years:
        start = years[0] // 5 * 5
        periods = [f"{y}-{y + 4}" for y in range(start, years[-1] + 1, 5)]
    has_unknown = any(not r["year"] for r in rows)
    columns = periods + ([UNKNOWN_YEAR] if has_unknown else [])
    counts = np.zeros((len(SALIENCE_EDGES) - 1, len(columns)), dtype=int)
    for r in rows:
        col = (r["year"] // 5 * 5 - years[0] // 5 * 5) // 5 if r["year"] else len(columns) - 1
        counts[salience_bin(r["salience"]), col] += 1
    return salience_bins(), columns, counts


def write_csv(path: Path, corner: str, row_labels: list[str], col_labels: list[str], counts: np.ndarray) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow([corner, *col_labels, "total"])
        for label, row in zip(row_labels, counts):
            writer.writerow([label, *map(int, row), int(row.sum())])
        writer.writerow(["total", *map(int, counts.sum(axis=0)), int(counts.sum())])


def write_heatmap(path: Path, title: str, ylabel: str, xlabel: str, row_labels: list[str], col_labels: list[str],
                  counts: np.ndarray) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(col_labels) + 3), max(4.0, 0.5 * len(row_labels) + 2)))
    image = ax.imshow(counts, cmap="YlOrRd", aspect="auto", origin="lower")
    ax.set_xticks(range(len(col_labels)), col_labels, rotation=45, ha="right")
    ax.set_yticks(range(len(row_labels)), row_labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    top = counts.max() if counts.size else 0
    for (i, j), value in np.ndenumerate(counts):
        ax.text(j, i, str(int(value)), ha="center", va="center", fontsize=8,
                color="white" if top and value > 0.6 * top else "black")
    fig.colorbar(image, ax=ax, label="abstracts (query, document pairs)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_report(rows: list[dict], out_dir: Path, subtitle: str = "") -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "table3_csv": out_dir / "table3_s_vs_salience.csv",
        "table3_png": out_dir / "table3_s_vs_salience.png",
        "figure2_csv": out_dir / "figure2_salience_by_period.csv",
        "figure2_png": out_dir / "figure2_salience_by_period.png",
    }
    s_labels, sal_labels, counts = s_vs_salience(rows)
    write_csv(paths["table3_csv"], "S \\ salience", s_labels, sal_labels, counts)
    write_heatmap(paths["table3_png"], f"S (MMR + recency) vs contradiction salience{subtitle}", "S",
                  "contradiction salience", s_labels, sal_labels, counts)
    sal_labels, periods, by_period = salience_by_period(rows)
    write_csv(paths["figure2_csv"], "salience \\ period", sal_labels, periods, by_period)
    write_heatmap(paths["figure2_png"], f"Contradiction salience by publication period{subtitle}",
                  "contradiction salience", "publication years", sal_labels, periods, by_period)
    with (out_dir / "observations.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["query", "doc_id", "year", "s", "salience"])
        writer.writeheader()
        writer.writerows(rows)
    paths["observations_csv"] = out_dir / "observations.csv"
    return paths
