"""Question understanding: what a question names (organizations, dates, change, the person, the language) and
how it is searched (lay words and typos mapped to the corpus's own terms)."""
