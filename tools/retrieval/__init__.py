"""Retrieval over one corpus index: hybrid scoring and the absolute support score (``hybrid``), organization-diverse
selection (``org_diverse``), the temporal MMR + recency ranking (``temporal``), the paper's retrieval conditions
(``retrieval_conditions``), the named retrievers of the CHR harness (``retrievers``) and the generated text some of
them use (``query_expansion``, ``option_support``). Nothing is imported here."""
