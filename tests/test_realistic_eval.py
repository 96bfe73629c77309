"""The realistic-questions benchmark: well-formed, frozen holdout, and the CLI command on a few cases."""

from __future__ import annotations

import json
from collections import Counter

from clinrag.evals.realistic import case_id, load_cases


def test_benchmark_shape():
    cases = load_cases()
    assert len(cases) >= 120
    splits = Counter(c.metadata["split"] for c in cases)
    assert splits["holdout"] >= 40
    assert all(c.id == case_id(c.inputs["question"]) for c in cases)
    kinds = {c.metadata["kind"] for c in cases}
    assert {"lay-words", "typo", "personal", "multi-part", "language", "change", "named-org"} <= kinds


def test_cli_reports_new_and_baseline(tmp_path, guideline_index):
    from clinrag.cli import realistic
    from clinrag.cli.common import common_parent

    cases = [json.dumps(c.model_dump(mode="json"), ensure_ascii=False) for c in load_cases(split="holdout")[:4]]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(cases) + "\n")
    import argparse

    parser = argparse.ArgumentParser()
    realistic.register(parser.add_subparsers(), common_parent())
    out = tmp_path / "out.json"
    args = parser.parse_args(["realistic", "--cases", str(path), "--json-out", str(out)])
    args.func(args)
    payload = json.loads(out.read_text())
    assert set(payload["metrics"]) == {"holdout"} and payload["baseline_metrics"]["holdout"]["n"] == 4
    assert all("understood" in c for c in payload["cases"].values())
