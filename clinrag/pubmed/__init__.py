"""PubMed evidence: E-utilities ingestion, the three-tier query formulation, temporal-citation balanced
selection, and corpus builders (PubMed over the network, PubMedQA from the data directory)."""
