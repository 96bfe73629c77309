"""Three-tier PubMed query formulation (real spaCy model): exact query strings."""

from __future__ import annotations

import pytest

from clinrag.pubmed.queries import company_names, content_terms, formulate_queries


def test_tga_heading_queries():
    q = formulate_queries("Paxlovid", "Why am I taking PAXLOVID?")
    assert q.terms == ["taking", "paxlovid"]
    assert q.q1 == '"taking paxlovid"[tiab:~10]'
    assert q.q2 == '"taking paxlovid"[tiab:~25] AND "paxlovid"[ti]'
    assert q.q3 == '"why am i taking paxlovid"[tiab:~25]'
    assert [name for name, _ in q.tiers()] == ["Q1", "Q2", "Q3"]


def test_medicine_added_when_question_lacks_it_and_multiword_title():
    q = formulate_queries("Paxlovid", "What if I am taking other medicines?")
    assert q.q1 == '"paxlovid taking medicines"[tiab:~10]'
    q = formulate_queries("dimethyl fumarate", "Are there any side effects of dimethyl fumarate?")
    assert q.terms == ["effects", "dimethyl", "fumarate"]  # 'side' is tagged ADJ, 'any' DET: not content terms
    assert q.q2 == '"effects dimethyl fumarate"[tiab:~25] AND "dimethyl fumarate"[ti]'


def test_company_names_are_excluded_everywhere():
    q = formulate_queries("sildenafil", "How do I take Viagra made by Pfizer?")
    assert q.excluded == ["pfizer"] and "pfizer" not in q.q1 + q.q2 + q.q3
    assert q.q1 == '"sildenafil take viagra made"[tiab:~10]'
    assert q.q3 == '"how do i take viagra made by"[tiab:~25]'
    terms, excluded = content_terms("Is Boehringer Ingelheim's tablet safe with Eli Lilly insulin?")
    assert {"boehringer", "ingelheim", "eli", "lilly"}.isdisjoint(terms) and "insulin" in terms and "tablet" in terms


def test_exclusion_list_is_curated_data():
    names = company_names()
    assert ("pfizer",) in names and ("boehringer", "ingelheim") in names and len(names) > 50
    assert all(isinstance(n, tuple) and n for n in names)


def test_quotes_cannot_break_the_query_and_empty_medicine_is_an_error():
    q = formulate_queries('Drug "X"', 'Does "drug x" interact with warfarin?')
    assert q.q1.count('"') == 2 and q.q3.count('"') == 2
    with pytest.raises(ValueError):
        formulate_queries(" ", "Why am I taking it?")
