"""clinrag.nodes."""
