"""LLM-free use of answer options: option hypotheses for CHR and the option-support answerer.

Both rest on the absolute support score of :func:`clinrag.tools.retrieval.hybrid.hybrid_search` (sentence cosine plus
IDF-weighted term coverage), so they reuse the index and scoring of every other retrieval path.

* :func:`option_hypotheses`: each option scores by the support of its best passage among those retrieved for
  ``question + option``; H+ is the best-supported option, H- the runner-up.
* :func:`answer_from_passages`: the option whose text the given (retrieved) passages support most, as the mean
  support over the passages (the best single passage would reward any option that one passage names).

Yes/no(/maybe) options carry no content to retrieve or compare, so neither applies to them.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel

from clinrag.schema import Hypotheses
from clinrag.tools.index.corpus_store import CorpusStore
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.retrieval.hybrid import hybrid_search

_NON_CONTENT = {"yes", "no", "maybe"}


class OptionHypotheses(BaseModel):
    """H+ / H- chosen among the options, with the support score of every option."""

    target_label: str
    mimic_label: str
    hypotheses: Hypotheses
    scores: dict[str, float]


def informative_options(options: dict[str, str] | None) -> bool:
    """At least two options with content (not yes/no/maybe)."""
    return bool(options) and len(options) >= 2 and any(
        v.strip().lower().rstrip(".") not in _NON_CONTENT for v in options.values())


def option_support(index: CorpusStore, text: str, rows: list[int]) -> float:
    """The mean absolute support that passages ``rows`` give ``text`` (0 without passages)."""
    if not rows or not text.strip():
        return 0.0
    return float(np.mean([s.support for s in hybrid_search(index, text, rows=list(rows))]))


def answer_from_passages(index: CorpusStore, options: dict[str, str],
                         rows: list[int]) -> tuple[str | None, dict[str, float]]:
    """The option best supported by the passages (ties: the first label); None for yes/no options."""
    if not informative_options(options):
        return None, {}
    scores = {label: round(option_support(index, text, rows), 6) for label, text in options.items()}
    return max(scores, key=lambda label: (scores[label], -list(options).index(label))), scores


def option_hypotheses(
    index: CorpusStore, question: str, options: dict[str, str], pool: int = 50, k: int = 5
) -> OptionHypotheses | None:
    """H+ = the option with the most retrieved support for ``question + option``, H- = the runner-up."""
    if not informative_options(options):
        return None
    scores = {}
    for label, text in options.items():
        retrieved = hybrid_search(index, f"{question} {text}", pool=pool)[:k]
        scores[label] = round(max((s.support for s in retrieved), default=0.0), 6)
    ranked = sorted(options, key=lambda label: (-scores[label], list(options).index(label)))
    return OptionHypotheses(
        target_label=ranked[0], mimic_label=ranked[1], scores=scores,
        hypotheses=Hypotheses(target=options[ranked[0]], mimic=options[ranked[1]]),
    )


def oracle_hypotheses(question: str, options: dict[str, str], answer: str) -> OptionHypotheses:
    """Evaluation only: H+ = the correct option, H- = the distractor whose text is most similar to the question."""
    distractors = [label for label in options if label != answer]
    vecs = embed_cached([question] + [options[label] for label in distractors])
    sims = vecs[1:] @ vecs[0]
    scores = {label: round(float(s), 6) for label, s in zip(distractors, sims)}
    mimic = max(distractors, key=lambda label: (scores[label], -distractors.index(label)))
    return OptionHypotheses(
        target_label=answer, mimic_label=mimic, scores=scores,
        hypotheses=Hypotheses(target=options[answer], mimic=options[mimic]),
    )
