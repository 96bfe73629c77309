"""clinrag.evals."""
