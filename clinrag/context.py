"""Run-time configuration of the clinrag graph (LangGraph ``context_schema``).

A field nobody set falls back to the environment variable ``CLINRAG_<FIELD NAME IN UPPER CASE>`` (``CLINRAG_K``,
``CLINRAG_CHAT_MODEL``, ...), then to its default, so Studio, the CLI and in-process ``invoke()`` without
``context=`` share one configuration. A value given explicitly (``Context(k=6)``, a CLI flag, Studio's
configuration) always wins over the environment, even when it equals the default.

The closed sets (``retriever``, ``retrieval_condition``, ``nli_backend``, ``corpus_store``) are ``Literal``
types, so Studio shows them as choice lists; any other value is refused with a one-line error that names the
choices. ``nli_backend`` also takes the path of a local Hugging Face NLI model folder (from Python,
``--nli-backend`` or ``CLINRAG_NLI_BACKEND``); Studio offers the named backends only.
"""

from __future__ import annotations

import functools
import os
import types
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from clinrag import options
from clinrag.options import (
    CORPUS_STORES,
    NLI_BACKENDS,
    RETRIEVAL_CONDITIONS,
    RETRIEVERS,
    CorpusStoreName,
    NLIBackendName,
    RetrievalCondition,
    Retriever,
)
from clinrag.paths import BUILTIN_CORPUS


class ContextError(ValueError):
    """A Context value (given, or read from a ``CLINRAG_*`` variable) that the field does not accept."""


@dataclass(kw_only=True)
class Context:
    """Models, retrieval sizes and thresholds of one clinrag run."""

    corpus_path: str = field(
        default=str(BUILTIN_CORPUS),
        metadata={"description": "JSONL corpus to answer from (its NAME.scope.yaml travels with it)."},
    )
    index_dir: str | None = field(
        default=None,
        metadata={"description": "Index folder; default: one per corpus content (its hash) under CLINRAG_INDEX_ROOT "
                                 "or the user cache."},
    )
    corpus_store: CorpusStoreName = field(
        default="auto",
        metadata={"description": "Where the corpus is read from: embedded (the index folder), postgres (the database "
                                 "of CLINRAG_DATABASE_URL, pgvector) or auto (PostgreSQL when that variable is set and "
                                 "the database holds the corpus, else embedded). The URL itself is never a Context "
                                 "field."},
    )
    chat_model: str | None = field(
        default=None,
        metadata={
            "description": "Optional chat model for hypotheses and answers, as an init_chat_model string "
            "(e.g. 'openai:gpt-4o-mini', 'ollama:llama3.1'). None: deterministic, LLM-free operation."
        },
    )
    k: int = field(default=options.K, metadata={"description": "Number of passages returned as evidence."})
    candidate_pool: int = field(
        default=options.CANDIDATE_POOL,
        metadata={"description": "Smallest first-stage pool per ranking (dense of the question, dense of H+, BM25); "
                  "grows with the corpus (clinrag.tools.retrieval.hybrid.pool_size)."},
    )
    chr_lambda: float = field(
        default=options.CHR_LAMBDA,
        metadata={"description": "CHR penalty: score = sim(d,H+) - lambda*sim(d,H-). 0 without hypotheses."},
    )
    retriever: Retriever = field(
        default="chr",
        metadata={"description": "chr (organization-diverse hybrid, contrastive with hypotheses) or a baseline: "
                                 "dense | bm25 | hyde | query2doc | rrf (clinrag.tools.retrieval.retrievers)."},
    )
    hyde_generations: int = field(
        default=1, metadata={"description": "HyDE: hypothetical passages averaged with the query."}
    )
    multi_queries: int = field(
        default=3, metadata={"description": "rrf: generated reformulations fused with the question."}
    )
    rrf_k: int = field(
        default=options.RRF_K, metadata={"description": "rrf: reciprocal-rank constant, 1/(rrf_k + rank)."}
    )
    mmr_lambda: float = field(
        default=options.MMR_LAMBDA, metadata={"description": "Relevance weight of MMR in temporal_search."}
    )
    temporal_alpha: float = field(
        default=options.TEMPORAL_ALPHA,
        metadata={"description": "temporal_search: S = alpha*MMR + (1-alpha)*tau (recency)."},
    )
    retrieval_condition: RetrievalCondition | None = field(
        default=None,
        metadata={"description": "Retrieval condition of the TGA-PubMed paper (Javadi et al., arXiv:2511.06668) for "
                                 "temporal_search and the graph: most-similar | most-contradictory | "
                                 "least-contradictory "
                                 "(clinrag.tools.retrieval.retrieval_conditions). None: temporal_search ranks "
                                 "passages by S and the graph uses its configured retriever."},
    )
    contradiction_pool: int = field(
        default=options.CONTRADICTION_POOL,
        metadata={"description": "Documents scored for contradiction salience by the retrieval conditions."},
    )
    # The three thresholds below were chosen by `clinrag eval calibrate --split canonical` (canonical cases only).
    support_threshold: float = field(
        default=0.512,
        metadata={"description": "Abstain when no passage's absolute support score reaches this (guideline, label, "
                                 "leaflet and other non-abstract passages)."},
    )
    # Chosen by `clinrag eval abstract-gate` on its calibration split only: the lowest threshold at which at least
    # 97 % of the unanswerable calibration questions abstain (the safety goal of the guideline benchmarks). Abstracts
    # that share a question's words score higher than guideline passages that do (a study of vitamin C and wrist
    # fractures against a vitamin-D-and-fractures question), so the guideline threshold lets them through.
    abstract_support_threshold: float = field(
        default=0.695,
        metadata={"description": "The same for abstract passages (source_type 'abstract')."},
    )
    scope_similarity_threshold: float = field(
        default=0.293,
        metadata={"description": "Out of scope when a question is at least this similar to a declared exclusion..."},
    )
    scope_margin: float = field(
        default=0.087,
        metadata={"description": "...and more similar to it than to anything in scope by at least this margin."},
    )
    nli_backend: NLIBackendName = field(
        default="cross-encoder",
        metadata={
            "description": "Sentence-pair NLI of the contradiction check: 'cross-encoder' (trained here, on ONNX "
            "Runtime), 'feature', 'two-stage', 'cross-encoder-torch' or 'lexical' (negation/direction/number "
            "baseline). From Python, the CLI or CLINRAG_NLI_BACKEND also a path to a local Hugging Face NLI "
            "model folder."
        },
    )
    pair_similarity_threshold: float = field(
        default=options.PAIR_SIMILARITY_THRESHOLD,
        metadata={
            "description": "Cross-document sentence pairs below this cosine are not sent to NLI "
            "(`clinrag nli threshold` measures the trade-off for this encoder)."
        },
    )
    contradiction_threshold: float = field(
        default=options.CONTRADICTION_THRESHOLD,
        metadata={"description": "Contradiction scores at or above this are flagged as disagreement."},
    )

    def support_threshold_for(self, source_type: str) -> float:
        """The support threshold a passage of ``source_type`` must reach."""
        return self.abstract_support_threshold if source_type == "abstract" else self.support_threshold

    def supported(self, evidence) -> bool:
        """Whether any passage of ``evidence`` reaches the support threshold of its source type."""
        return any(e.support_score >= self.support_threshold_for(e.source_type) for e in evidence)

    def __post_init__(self) -> None:
        _check_choice("retriever", self.retriever, RETRIEVERS)
        _check_choice("corpus_store", self.corpus_store, CORPUS_STORES)
        if self.retrieval_condition is not None:
            _check_choice("retrieval_condition", self.retrieval_condition, RETRIEVAL_CONDITIONS)
        _check_nli_backend("nli_backend", self.nli_backend)


def _check_choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ContextError(f"{name} {value!r} is not one of: {', '.join(choices)}")


def _check_nli_backend(name: str, value: Any) -> None:
    if value in NLI_BACKENDS:
        return
    if isinstance(value, str | os.PathLike) and str(value) and Path(value).is_dir():
        return  # a local Hugging Face NLI model folder
    raise ContextError(f"{name} {str(value)!r} is neither one of {', '.join(NLI_BACKENDS)} nor a local Hugging Face "
                       "NLI model folder")


@functools.cache
def _field_types() -> dict[str, Any]:
    return get_type_hints(Context)


def _parse(variable: str, text: str, annotation: Any) -> Any:
    """The value of environment variable ``variable`` for a field of type ``annotation``."""
    args = get_args(annotation)
    if get_origin(annotation) in (Union, types.UnionType) and type(None) in args:
        if text.strip().lower() in {"", "none", "null"}:
            return None
        (annotation,) = [a for a in args if a is not type(None)]
    try:
        if annotation is bool:
            return text.strip().lower() in {"1", "true", "yes", "on"}
        if annotation is int:
            return int(text)
        if annotation is float:
            return float(text)
    except ValueError:
        raise ContextError(f"{variable}={text!r} is not a valid {annotation.__name__}") from None
    if get_origin(annotation) is Literal:
        text = text.strip()
        if variable == "CLINRAG_NLI_BACKEND":
            _check_nli_backend(variable, text)
        else:
            _check_choice(variable, text, get_args(annotation))
    return text


def environment_values(given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Field values from ``CLINRAG_<FIELD>`` variables, for the fields not in ``given``.

    Raises ContextError, naming the variable, for a value the field cannot take (``CLINRAG_K=abc``)."""
    given = given or {}
    types_ = _field_types()
    out = {}
    for f in fields(Context):
        variable = f"CLINRAG_{f.name.upper()}"
        if f.name not in given and variable in os.environ:
            out[f.name] = _parse(variable, os.environ[variable], types_[f.name])
    return out


_dataclass_init = Context.__init__


@functools.wraps(_dataclass_init)
def _init_with_environment(self: Context, **given: Any) -> None:
    _dataclass_init(self, **environment_values(given), **given)


Context.__init__ = _init_with_environment  # explicit values win; the environment fills only the rest
