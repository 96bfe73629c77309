"""Contradiction reports: Table 3 (S vs salience) and Figure 2 (salience by 5-year period), CSV and PNG."""

from __future__ import annotations

import csv

from clinrag.evals.contradiction_report import s_vs_salience, salience_by_period, write_report

ROWS = [
    {"query": "q1", "doc_id": "a", "year": 1991, "s": 0.42, "salience": 0.05},
    {"query": "q1", "doc_id": "b", "year": 1994, "s": 0.38, "salience": 0.55},
    {"query": "q1", "doc_id": "c", "year": 2003, "s": 0.21, "salience": 0.12},
    {"query": "q2", "doc_id": "a", "year": 1991, "s": 0.47, "salience": 0.0},
    {"query": "q2", "doc_id": "d", "year": None, "s": 0.25, "salience": 1.0},
]


def test_table3_bins_by_hand():
    s_labels, sal_labels, counts = s_vs_salience(ROWS)
    assert s_labels == ["[0.2, 0.3)", "[0.3, 0.4)", "[0.4, 0.5)"]
    assert sal_labels[0] == "[0.0, 0.1)" and sal_labels[-1] == "[0.5, 1.0]"
    assert counts.tolist() == [[0, 1, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 0]]


def test_figure2_five_year_periods_by_hand():
    sal_labels, periods, counts = salience_by_period(ROWS)
    assert periods == ["1990-1994", "1995-1999", "2000-2004", "n/a"]
    assert counts[:, 0].tolist() == [2, 0, 0, 0, 0, 1]  # 1991 x2 at 0.0-0.1, 1994 at 0.5-1.0
    assert counts[:, 2].tolist() == [0, 1, 0, 0, 0, 0] and counts[:, 3].tolist() == [0, 0, 0, 0, 0, 1]
    assert counts.sum() == len(ROWS)


def test_write_report_csv_and_png(tmp_path):
    paths = write_report(ROWS, tmp_path)
    table = list(csv.reader(paths["table3_csv"].open()))
    assert table[0][0] == "S \\ salience" and table[-1][-1] == "5"
    figure = list(csv.reader(paths["figure2_csv"].open()))
    assert figure[0][1:] == ["1990-1994", "1995-1999", "2000-2004", "n/a", "total"]
    for key in ("table3_png", "figure2_png"):
        assert paths[key].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths[key].stat().st_size > 5000
