"""Studies that answer the question in opposite directions: stance toward the question, not sentence-pair NLI.

Two abstracts disagree when one supports what the question asks and the other refutes it. Sentence-pair NLI between
the two studies' sentences cannot see that: their sentences rarely contradict each other as sentences ("vitamin D
reduced fractures in women over 70" vs "no effect on falls in nursing homes" are about different things and neither
entails the negation of the other). The stance of each study toward one claim can. With the NLI cross-encoder
(trained on evidence-vs-claim pairs: SciFact, HealthVer, NLI4CT), for a result sentence s and the claim c::

    p_support(s) = P(entailment | s, c) / (P(entailment | s, c) + P(contradiction | s, c))
    stance(doc)  = p_support of the document's most decided result sentence (largest |p_support - 0.5|)
    score(a, b)  = |stance(a) - stance(b)|      in [0, 1]; 1 = one study fully supports, the other fully refutes

Only result sentences about the claim take part (embedding cosine >= RELEVANCE_THRESHOLD). The claim is the
question as a statement (:func:`claim_of`: the leading auxiliary and the question mark dropped;
"Does vitamin D reduce fracture risk?" -> "vitamin D reduce fracture risk"); NLI models are trained on claims, not
questions. Measured (evals/claim_pairs.py, held-out HealthVer test, 310 opposite / 675 same-direction evidence
pairs from different abstracts, the HealthVer claim as c): AUROC 0.681, vs 0.613 for sentence-pair NLI between
the two texts (the cross-encoder), 0.584 for finding-direction frames, 0.629 for their fitted combination. On the
PubMedQA yes/no questions (conclusion vs question), p_support separates yes from no with AUROC 0.675 for the
statement form and 0.609 for the question as written. Known weakness of this 6-layer model: it reads paraphrases
poorly ("daily vitamin D lowered hip fracture incidence" scores as refuting "vitamin D reduces the risk of hip
fracture"), so opposite studies worded differently can score below the flag threshold; the study-shaped answer
groups studies by the direction of their finding independently of this score.
"""

from __future__ import annotations

import re
from itertools import combinations

import numpy as np

from clinrag.schema import ContradictionEdge
from clinrag.tools.nli.backends import NLIBackend
from clinrag.tools.nli.contradiction import salience_of
from clinrag.tools.nli.pair_scores import score_pairs

_AUXILIARY = re.compile(r"^(?:does|do|did|is|are|was|were|can|could|should|will|would|has|have|had|may|might)\s+",
                        re.I)


# A result sentence takes part only when its cosine with the claim is at least this: a stance toward a claim that
# the sentence is not about is noise. `clinrag nli threshold` measures on SciFact train that 0.45 keeps 80 % of
# claim-rationale sentence pairs and 43 % of the others (0.6, the sentence-pair threshold, keeps 52 % / 17 %).
RELEVANCE_THRESHOLD = 0.45


def claim_of(question: str) -> str:
    """The question as a claim for NLI: leading auxiliary and trailing question marks removed."""
    return _AUXILIARY.sub("", question.strip()).rstrip("?").strip()


def support_probabilities(backend: NLIBackend, sentences: list[str], claim: str) -> np.ndarray:
    """p_support of each sentence toward ``claim`` (0.5 where the model gives neither side any mass)."""
    if not sentences:
        return np.zeros(0)
    probs = score_pairs(backend, [(s, claim) for s in sentences])
    ent, con = probs[:, 0], probs[:, 2]
    total = ent + con
    return np.where(total > 0, ent / np.where(total > 0, total, 1.0), 0.5)


def stance_opposition(stance_a: np.ndarray | float, stance_b: np.ndarray | float) -> np.ndarray | float:
    """score(a, b) = |stance(a) - stance(b)|."""
    return np.abs(np.asarray(stance_a) - np.asarray(stance_b))


def about_the_claim(sentences: list[str], claim: str, threshold: float = RELEVANCE_THRESHOLD) -> list[str]:
    """The sentences whose embedding cosine with the claim is at least ``threshold``."""
    if not sentences:
        return []
    from clinrag.tools.index.embeddings import embed_cached

    cosines = embed_cached(sentences) @ embed_cached([claim])[0]
    return [s for s, c in zip(sentences, cosines) if c >= threshold]


def stance_graph(sentences: dict[str, list[str]], question: str,
                 backend: NLIBackend) -> tuple[list[ContradictionEdge], dict[str, float]]:
    """Edges between every two documents that have a result sentence about the question, scored by opposite stance
    toward it, each with the two documents' most decided sentences; and per-document salience."""
    claim = claim_of(question)
    sentences = {d: about_the_claim(sents, claim) for d, sents in sentences.items()}
    docs = [d for d, sents in sentences.items() if sents]
    flat = [s for d in docs for s in sentences[d]]
    p = dict(zip(flat, support_probabilities(backend, flat, claim)))
    decided = {d: max(sentences[d], key=lambda s: abs(p[s] - 0.5)) for d in docs}
    edges = [ContradictionEdge(doc_a=a, doc_b=b, sentence_a=decided[a], sentence_b=decided[b], basis="stance",
                               score=round(float(stance_opposition(p[decided[a]], p[decided[b]])), 4))
             for a, b in combinations(docs, 2)]
    edges.sort(key=lambda e: -e.score)
    return edges, salience_of(edges, list(sentences))
