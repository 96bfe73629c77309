"""clinrag.tools."""
