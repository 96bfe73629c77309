"""clinrag.prompts."""
