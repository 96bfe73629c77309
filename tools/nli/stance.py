"""Studies that answer the question in opposite directions: stance toward the question, not sentence-pair NLI.

Two abstracts disagree when one supports what the question asks and the other refutes it. Sentence-pair NLI between
the two studies' sentences cannot see that: their sentences rarely contradict each other as sentences ("vitamin D
reduced fractures in women over 70" vs "no effect on falls in nursing homes" are about different things and neither
entails the negation of the other). The stance of each study toward one claim can. With the stance model (a
cross-encoder trained here on evidence-vs-claim pairs: SciFact, HealthVer, PubMedQA conclusions vs. their
question; ``tools/nli/train_stance.py``), for a result sentence s and the claim c::

    p_support(s) = P(entailment | s, c) / (P(entailment | s, c) + P(contradiction | s, c))
    stance(doc)  = p_support of the document's most decided result sentence (largest |p_support - 0.5|)
    score(a, b)  = |stance(a) - stance(b)|      in [0, 1]; 1 = one study fully supports, the other fully refutes

Only result sentences about the claim take part (embedding cosine >= RELEVANCE_THRESHOLD). The claim is the
question as a statement (:func:`claim_of`: the leading auxiliary and the question mark dropped;
"Does vitamin D reduce fracture risk?" -> "vitamin D reduce fracture risk"); the models are trained on claims, not
questions. Measured (evals/claim_pairs.py), held out from training and model choice:

* HealthVer test, 310 opposite / 675 same-direction evidence pairs from different abstracts, the HealthVer claim
  as c: AUROC 0.679 with the stance model, 0.681 with the sentence-pair NLI cross-encoder in its place, 0.613 for
  sentence-pair NLI between the two texts, 0.584 for finding-direction frames, 0.629 for their fitted combination.
* PubMedQA PQA-L bucket 0 (conclusion vs. the question as a claim, 108 yes / 61 no): AUROC 0.833 with the stance
  model, 0.688 with the NLI cross-encoder.

The stance model replaced the NLI cross-encoder here because it won on validation neither model trained on
(HealthVer dev topics held out from both: pair AUROC 0.589 vs 0.474; PubMedQA bucket 1: 0.894 vs 0.705).
Known weaknesses of this 6-layer model: p_support of a supporting sentence worded unlike the claim is often below
0.5 ("daily vitamin D lowered hip fracture incidence": 0.25, vs 0.03 for "did not reduce"), so read the score as
a ranking, not a probability; and a finding of harm ("increased the risk") is not read as refuting a claim of
benefit (0.49), so a benefit-vs-harm pair can score low. The study-shaped answer groups studies by the direction
of their finding (the direction classifier) independently of this score.
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


def p_support(probs: np.ndarray) -> np.ndarray:
    """P(entailment) / (P(entailment) + P(contradiction)) per row of (ent, neu, con) probabilities; 0.5 where the
    model gives neither side any mass."""
    probs = np.asarray(probs, dtype=float).reshape(-1, 3)
    ent, con = probs[:, 0], probs[:, 2]
    total = ent + con
    return np.where(total > 0, ent / np.where(total > 0, total, 1.0), 0.5)


def support_probabilities(backend: NLIBackend, sentences: list[str], claim: str) -> np.ndarray:
    """p_support of each sentence toward ``claim``."""
    return p_support(score_pairs(backend, [(s, claim) for s in sentences])) if sentences else np.zeros(0)


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
