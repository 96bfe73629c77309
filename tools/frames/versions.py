"""Conflicts only between versions of one organization: a test added to or dropped from an age band's options, and
the schedule of a sole test that changed (``action`` and ``interval`` changes)."""

from __future__ import annotations

from typing import Any

from clinrag.tools.frames import bands
from clinrag.tools.frames.pairing import ages_meet, pair_kind
from clinrag.tools.frames.schema import RECOMMEND_LIKE, Frame


def option_changes(docs: dict[Any, list[Frame]], add: Any) -> None:
    """Between versions of one organization, a test recommended for an age band where the other version
    recommends other tests of the same intervention and says nothing of this one is an ``action`` change: an
    option added or dropped (USPSTF cervical screening 2012 -> 2018 adds high-risk HPV testing alone from 30,
    beside cytology and co-testing). Only between versions: that one organization's list of options changed is a
    statement of its documents; that another organization names fewer tests is not a disagreement about any of
    them."""
    by_doc = {key: [f for f in fs if f.test and bands.general(f)] for key, fs in docs.items()}
    for (doc_a, intervention), fa in by_doc.items():
        for (doc_b, other), fb in by_doc.items():
            if other != intervention or doc_a == doc_b or not fa or not fb or pair_kind(fa[0], fb[0]) != "change":
                continue
            for f in fa:
                if f.action not in RECOMMEND_LIKE:
                    continue
                if any(g.test == f.test and ages_meet(f, g, docs) for g in fb):
                    continue
                listed = [g for g in fb if g.action in RECOMMEND_LIKE and ages_meet(f, g, docs)]
                if listed:
                    lo, hi = bands.band(f, docs[(doc_a, intervention)])
                    tests = ", ".join(sorted({g.test for g in listed if g.test}))
                    add(
                        "change", "action",
                        f, f"{f.action}: {f.test} (ages {lo}-{hi})",
                        listed[0], f"{f.test} not among its recommended tests for ages {lo}-{hi} ({tests})",
                    )


def sole_test_changes(docs: dict[Any, list[Frame]], add: Any) -> None:
    """Between versions of one organization where one recommends a single test that the other does not schedule, a
    different interval for the same ages is an ``interval`` change ("cytology every 3 years" in 2015, "primary hrHPV
    testing every 5 years" in 2022; "cytology every 3 years at 21-29, co-testing every 5 years at 30-65" in 2019,
    "primary hrHPV testing every 5 years" from 25 in 2024; a letter's "you will be invited every three years", which
    names no test, against "we now invite everyone aged 25 to 64 every five years" for HPV testing): the
    organization's screening schedule changed. Versions that share a test are compared test by test."""
    timed: dict[tuple, list[Frame]] = {}
    for key, fs in docs.items():
        if found := [f for f in fs if f.interval_months and f.action in RECOMMEND_LIKE and bands.general(f)]:
            timed[key] = found
    for (doc_a, intervention), fa in timed.items():
        for (doc_b, other), fb in timed.items():
            tests_a, tests_b = {f.test for f in fa}, {f.test for f in fb}
            if (other != intervention or doc_a >= doc_b or pair_kind(fa[0], fb[0]) != "change" or tests_a & tests_b
                    or min(len(tests_a), len(tests_b)) != 1):
                continue
            for a in fa:
                for b in fb:
                    if ages_meet(a, b, docs) and a.interval_months != b.interval_months:
                        old, new = sorted((a, b), key=lambda f: (f.issued or "", f.doc_id or ""))
                        add("change", "interval",
                            old, f"{old.interval_months.text()} months ({old.test or 'test not named'})",
                            new, f"{new.interval_months.text()} months ({new.test or 'test not named'})")
