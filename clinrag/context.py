"""Run-time configuration of the clinrag graph (LangGraph ``context_schema``).

Every field falls back to an environment variable ``CLINRAG_<FIELD NAME IN UPPER CASE>`` when left at its
default, so Studio, the CLI and in-process ``invoke()`` without ``context=`` all share one configuration.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any, get_type_hints

from clinrag.paths import BUILTIN_CORPUS


def _cast(value: str, annotation: Any) -> Any:
    text = str(annotation)
    if "None" in text and value.strip().lower() in {"", "none", "null"}:
        return None
    if "bool" in text:
        return value.strip().lower() in {"1", "true", "yes", "on"}
    if "int" in text and "float" not in text:
        return int(value)
    if "float" in text:
        return float(value)
    return value


@dataclass(kw_only=True)
class Context:
    """Models, retrieval sizes and thresholds of one clinrag run."""

    corpus_path: str = field(
        default=str(BUILTIN_CORPUS),
        metadata={"description": "JSONL corpus to answer from (its NAME.scope.yaml travels with it)."},
    )
    index_dir: str | None = field(
        default=None,
        metadata={"description": "Index folder; default: a folder per corpus under CLINRAG_INDEX_ROOT or the user cache."},
    )
    chat_model: str | None = field(
        default=None,
        metadata={
            "description": "Optional chat model for hypotheses and answers, as an init_chat_model string "
            "(e.g. 'openai:gpt-4o-mini', 'ollama:llama3.1'). None: deterministic, LLM-free operation."
        },
    )
    k: int = field(default=6, metadata={"description": "Number of passages returned as evidence."})
    candidate_pool: int = field(
        default=50, metadata={"description": "First-stage candidates (dense and BM25 top-N) that are re-scored."}
    )
    chr_lambda: float = field(
        default=1.0, metadata={"description": "CHR penalty: score = sim(d,H+) - lambda*sim(d,H-). 0 without hypotheses."}
    )
    retriever: str = field(
        default="chr",
        metadata={"description": "chr (organization-diverse hybrid, contrastive with hypotheses) or a baseline: "
                  "dense | bm25 | hyde | query2doc | rrf (clinrag.tools.retrieval.retrievers)."},
    )
    hyde_generations: int = field(default=1, metadata={"description": "HyDE: hypothetical passages averaged with the query."})
    multi_queries: int = field(default=3, metadata={"description": "rrf: generated reformulations fused with the question."})
    rrf_k: int = field(default=60, metadata={"description": "rrf: reciprocal-rank constant, 1/(rrf_k + rank)."})
    mmr_lambda: float = field(default=0.7, metadata={"description": "Relevance weight of MMR in temporal_search."})
    temporal_alpha: float = field(
        default=0.7, metadata={"description": "temporal_search: S = alpha*MMR + (1-alpha)*tau (recency)."}
    )
    retrieval_condition: str | None = field(
        default=None,
        metadata={"description": "TGA-PubMed retrieval condition for temporal_search and the graph: most-similar | "
                  "most-contradictory | least-contradictory (clinrag.tools.retrieval.retrieval_conditions). None: temporal_search ranks "
                  "passages by S and the graph uses its configured retriever."},
    )
    contradiction_pool: int = field(
        default=20, metadata={"description": "Documents scored for contradiction salience by the retrieval conditions."}
    )
    # The three thresholds below were chosen by `clinrag eval calibrate --split canonical` (canonical cases only).
    support_threshold: float = field(
        default=0.512,
        metadata={"description": "Abstain when the best absolute support score is below this."},
    )
    scope_similarity_threshold: float = field(
        default=0.293,
        metadata={"description": "Out of scope when a question is at least this similar to a declared exclusion..."},
    )
    scope_margin: float = field(
        default=0.087,
        metadata={"description": "...and more similar to it than to anything in scope by at least this margin."},
    )
    nli_backend: str = field(
        default="cross-encoder",
        metadata={
            "description": "'cross-encoder' (trained here, on ONNX Runtime), 'feature', 'two-stage', 'cross-encoder-torch', "
            "'lexical' (negation/direction/number baseline) or a path to a Hugging Face NLI model folder."
        },
    )
    pair_similarity_threshold: float = field(
        default=0.6,  # = tools.contradiction.DEFAULT_PAIR_THRESHOLD, where the measurements behind it are
        metadata={
            "description": "Cross-document sentence pairs below this cosine are not sent to NLI "
            "(`clinrag nli threshold` measures the trade-off for this encoder)."
        },
    )
    contradiction_threshold: float = field(
        default=0.5, metadata={"description": "Contradiction scores at or above this are flagged as disagreement."}
    )

    def __post_init__(self) -> None:
        hints = get_type_hints(type(self))
        for f in fields(self):
            if getattr(self, f.name) == f.default:
                env = os.environ.get(f"CLINRAG_{f.name.upper()}")
                if env is not None:
                    setattr(self, f.name, _cast(env, hints[f.name]))
