"""Features of a sentence pair for the fast first-stage contradiction classifier.

Frozen sentence embeddings (which the contradiction check computes anyway) as [u, v, |u-v|, u*v], plus the
linguistic signals embeddings miss: negation cues and their asymmetry, direction words, "no significant
difference" patterns, hedges, numeric and comparative mismatches, and how much of the hypothesis the premise
covers.
"""

from __future__ import annotations

import re

import numpy as np

from clinrag.tools.index.text import content_tokens

_NEG = re.compile(r"\b(not|no|never|none|neither|nor|without|cannot|can't|don't|doesn't|didn't|isn't|aren't|"
                  r"wasn't|weren't|won't|lack(?:s|ed|ing)?|absence|absent|fail(?:s|ed)? to|unable)\b", re.I)
_NO_DIFF = re.compile(r"\b(no (?:statistically )?significant|not (?:statistically )?significant(?:ly)?|"
                      r"did not (?:differ|change|improve|reduce|increase)|no (?:difference|effect|association|change)|"
                      r"similar (?:between|in)|comparable)\b", re.I)
_HEDGE = re.compile(r"\b(may|might|could|suggest(?:s|ed)?|possibly|potential(?:ly)?|likely|unclear|appears?)\b", re.I)
_UP = re.compile(r"\b(increas\w*|higher|rais\w*|elevat\w*|more|greater|improv\w*|enhanc\w*|promot\w*|activat\w*|"
                 r"induc\w*|upregulat\w*|gain\w*|benefit\w*|effective|positive(?:ly)?|associated|risk factor)\b", re.I)
_DOWN = re.compile(r"\b(decreas\w*|lower\w*|reduc\w*|declin\w*|less|fewer|smaller|worsen\w*|impair\w*|inhibit\w*|"
                   r"suppress\w*|downregulat\w*|loss|harm\w*|ineffective|negative(?:ly)?|protect\w*|prevent\w*)\b",
                   re.I)
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")

LINGUISTIC_NAMES = [
    "neg_p", "neg_h", "neg_xor", "nodiff_p", "nodiff_h", "nodiff_xor", "hedge_p", "hedge_h",
    "up_p", "up_h", "down_p", "down_h", "direction_conflict", "num_p", "num_h", "num_both", "num_jaccard",
    "num_mismatch", "overlap_jaccard", "hyp_coverage", "len_ratio", "cosine",
]


def _count(pattern: re.Pattern, text: str) -> int:
    return len(pattern.findall(text))


def linguistic_features(premise: str, hypothesis: str, cosine: float) -> list[float]:
    neg_p, neg_h = _count(_NEG, premise), _count(_NEG, hypothesis)
    nd_p, nd_h = _count(_NO_DIFF, premise), _count(_NO_DIFF, hypothesis)
    up_p, up_h = _count(_UP, premise), _count(_UP, hypothesis)
    down_p, down_h = _count(_DOWN, premise), _count(_DOWN, hypothesis)
    conflict = float((up_h > down_h and down_p > up_p) or (down_h > up_h and up_p > down_p))
    nums_p, nums_h = set(_NUMBER.findall(premise)), set(_NUMBER.findall(hypothesis))
    both = bool(nums_p and nums_h)
    jacc = len(nums_p & nums_h) / len(nums_p | nums_h) if both else 0.0
    tp, th = set(content_tokens(premise)), set(content_tokens(hypothesis))
    return [
        min(neg_p, 3), min(neg_h, 3), float((neg_p > 0) != (neg_h > 0)),
        min(nd_p, 2), min(nd_h, 2), float((nd_p > 0) != (nd_h > 0)),
        min(_count(_HEDGE, premise), 3), min(_count(_HEDGE, hypothesis), 3),
        min(up_p, 3), min(up_h, 3), min(down_p, 3), min(down_h, 3), conflict,
        float(bool(nums_p)), float(bool(nums_h)), float(both), jacc, float(both and jacc < 1.0),
        len(tp & th) / max(1, len(tp | th)), len(tp & th) / max(1, len(th)),
        min(len(premise.split()) / max(1, len(hypothesis.split())), 10.0), cosine,
    ]


def pair_features(premises: list[str], hypotheses: list[str], u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Feature matrix for pairs whose unit sentence embeddings are ``u`` (premises) and ``v`` (hypotheses)."""
    cos = np.sum(u * v, axis=1)
    ling = np.asarray([linguistic_features(p, h, float(c)) for p, h, c in zip(premises, hypotheses, cos)],
                      dtype=np.float32)
    return np.hstack([u, v, np.abs(u - v), u * v, ling]).astype(np.float32)
