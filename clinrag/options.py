"""Closed sets and defaults of clinrag's options, defined once.

Each closed set is a ``Literal`` type (LangGraph Studio shows a ``Literal`` field of the Context as a choice list)
with a tuple of its values for argparse ``choices``. This module imports nothing of clinrag and nothing heavy, so
the CLI parser, the Context and the tools can all use it.
"""

from __future__ import annotations

from typing import Literal, get_args

Retriever = Literal["chr", "dense", "bm25", "hyde", "query2doc", "rrf"]
"""How the graph retrieves: ``chr`` is organization-diverse hybrid retrieval, contrastive when hypotheses exist
(the product); the others are the plain top-k baselines of the CHR harness."""
RETRIEVERS: tuple[str, ...] = get_args(Retriever)
ExpansionRetriever = Literal["hyde", "query2doc", "rrf"]
"""Retrievers that search with generated text (hypothetical passages or reformulations) beside the question."""
EXPANSION_RETRIEVERS: tuple[str, ...] = get_args(ExpansionRetriever)

RetrievalCondition = Literal["most-similar", "most-contradictory", "least-contradictory"]
"""The retrieval conditions of the TGA-PubMed paper (Javadi et al. 2025, "When Evidence Contradicts: Toward Safer
Retrieval-Augmented Generation in Healthcare", arXiv:2511.06668): which abstracts an answer is given, ranked by
similarity and recency (most-similar) or by their contradiction salience (most- or least-contradictory)."""
RETRIEVAL_CONDITIONS: tuple[str, ...] = get_args(RetrievalCondition)

NLIBackendName = Literal["cross-encoder", "feature", "two-stage", "cross-encoder-torch", "lexical"]
"""Sentence-pair NLI for the contradiction check. ``cross-encoder`` (trained here, served on ONNX Runtime) is the
default; ``lexical`` is the negation/direction/number baseline kept for comparison. A local Hugging Face NLI model
folder may be given as a path instead of a name."""
NLI_BACKENDS: tuple[str, ...] = get_args(NLIBackendName)

AnswerabilityModelName = Literal["cross-encoder", "mlp"]
"""The trained answerability score p_answers in the support score (``w * p_answers + (1 - w) * absolute``,
:mod:`clinrag.tools.retrieval.answerability`): ``cross-encoder`` (MiniLM reading question and passage together,
served on ONNX Runtime, bounded to the top candidates) or ``mlp`` (a small head over the frozen MiniLM vectors the
query path already has)."""
ANSWERABILITY_MODELS: tuple[str, ...] = get_args(AnswerabilityModelName)

CorpusStoreName = Literal["auto", "embedded", "postgres"]
"""Where the corpus is read from: ``embedded`` (the index folder, loaded into memory), ``postgres`` (the database
of ``CLINRAG_DATABASE_URL``, pgvector), or ``auto``: PostgreSQL when that variable is set and the database holds the
corpus, else embedded (``clinrag.tools.index.corpus_store``)."""
CORPUS_STORES: tuple[str, ...] = get_args(CorpusStoreName)

AbstainReason = Literal["out_of_scope", "insufficient_support"]
ABSTAIN_REASONS: tuple[str, ...] = get_args(AbstainReason)
Decision = Literal["answer", "abstain"]

MAX_QUESTION_CHARS = 2000
"""Longest question accepted (characters, after stripping surrounding whitespace) by ``clinrag ask`` and
:func:`clinrag.run.ask`; a longer one is refused with the error code ``question_too_long``."""

# Defaults (the Context's field defaults; the tools' keyword defaults point here too).
K = 6
"""Evidence passages returned."""
CANDIDATE_POOL = 50
"""Smallest first-stage pool: candidates per ranking (dense top-N of the question, H+ and H-; BM25 top-N) that
hybrid/contrastive scoring re-ranks. The pool grows with the corpus, see
:func:`clinrag.tools.retrieval.hybrid.pool_size`."""
POOL_FRACTION = 0.02
"""Pool as a share of the corpus (157 of MedQuAD's 7,833 passages): a fixed pool is a shrinking share of a growing
corpus. Held-out oracle accuracy (MMLU-Med + MedMCQA diagnosis, 100 MedQA non-diagnosis) is flat from 50 to 2,000
once H+ adds candidates (0.94-0.97), so the share is small: recall insurance at little cost (docs/chr.md)."""
POOL_CAP = 1000
"""Largest pool: candidate scoring is linear in it, and held-out accuracy gained nothing from 1,000 to 2,000."""
CHR_LAMBDA = 1.0
"""CHR penalty: score = sim(d,H+) - lambda*sim(d,H-)."""
MMR_LAMBDA = 0.7
"""MMR relevance weight of temporal_search (Javadi et al., arXiv:2511.06668)."""
TEMPORAL_ALPHA = 0.7
"""temporal_search: S = alpha*MMR + (1-alpha)*recency (Javadi et al., arXiv:2511.06668)."""
TEMPORAL_K = 5
"""Passages returned by temporal_search and the retrieval conditions (Javadi et al.)."""
CONTRADICTION_POOL = 20
"""Documents scored for contradiction salience by the retrieval conditions."""
PAIR_SIMILARITY_THRESHOLD = 0.6
"""Cross-document sentence pairs below this cosine are not sent to NLI. Measured for this encoder on SciFact train
(`clinrag nli threshold`): 0.6 keeps 52% of claim-rationale pairs and 17% of others; 0.45 keeps 80% / 43%."""
CONTRADICTION_THRESHOLD = 0.5
"""Contradiction scores at or above this are flagged as disagreement."""
RRF_K = 60
"""Reciprocal-rank constant, 1/(rrf_k + rank) (Cormack et al.'s value)."""
MAX_PER_QUERY = 20
"""PubMed abstracts kept per query by the temporal-citation balanced selection (Algorithm 1 of Javadi et al.)."""
