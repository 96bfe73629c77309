"""Prompts of the query-expansion baselines: HyDE, Query2doc and multi-query retrieval.

They carry the user's question only, never corpus text, so they have no evidence block (the prompts that carry
corpus text delimit it as data: :mod:`clinrag.prompts`).
"""

# HyDE (Gao et al., 2022) asks for a passage that answers the question; N passages are averaged with the query.
HYDE_SYSTEM = """Write {n} different short passages (3-5 sentences each) that answer the medical question, in the \
style of a medical textbook or a scientific abstract. Each passage may take a different angle; do not hedge."""

# Query2doc (Wang et al., 2023): one pseudo-document, concatenated with the query.
QUERY2DOC_SYSTEM = """Write one short passage (3-5 sentences) that answers the medical question, in the style of \
a medical reference text."""

# Multi-query retrieval: reformulations whose rankings are fused by reciprocal rank.
MULTI_QUERY_SYSTEM = """Write {n} different search queries that would retrieve passages answering the medical \
question from a medical reference corpus. Vary the wording and the angle (condition, mechanism, findings)."""

EXPANSION_USER = "{question}"
