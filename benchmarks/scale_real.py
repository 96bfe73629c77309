"""Real MiniLM vectors for benchmarks/scale.py: embedding throughput single-process vs Ray in the same run,
the texts' vectors for the recall/latency comparison, and the per-abstract figures the PubMed plan needs
(sentences and passages per abstract, candidate NLI pairs per document, NLI pairs/s)."""

from __future__ import annotations

import os
import time

import numpy as np
from scale_data import Progress, _pack, pubmedqa_abstracts


def embed_single(texts: list[str], label: str) -> tuple[np.ndarray, float]:
    """clinrag's encoder in this process (ONNX Runtime, one thread per core), with a progress bar."""
    from clinrag.tools.index.embeddings import embed_texts

    t0 = time.perf_counter()
    vecs = embed_texts(texts, show_progress=True, label=label)
    return vecs, time.perf_counter() - t0


def embed_ray(texts: list[str], cpus: int) -> tuple[np.ndarray, dict]:
    """clinrag.tools.index.ray_build.ray_embed on a local Ray with ``cpus`` CPUs (one actor per CPU, one ONNX
    thread each); times Ray's start and the embedding (actor start-up and model load included) separately."""
    import ray

    from clinrag.tools.index.ray_build import ray_embed

    t0 = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k.startswith(("CLINRAG_", "HF_", "TRANSFORMERS_"))}
    ray.init(num_cpus=cpus, include_dashboard=False, object_store_memory=512 * 2**20, log_to_driver=False,
             configure_logging=False, runtime_env={"env_vars": env})
    ray.data.DataContext.get_current().enable_progress_bars = False
    init_s = time.perf_counter() - t0
    try:
        print(f"  Ray: {len(texts):,} texts on {cpus} actors (no bar; one line when done)", flush=True)
        t0 = time.perf_counter()
        vecs = ray_embed(texts, actors=cpus, label="ray compare")
        embed_s = time.perf_counter() - t0
    finally:
        ray.shutdown()
    return vecs, {"ray_init_s": round(init_s, 2), "embed_s": round(embed_s, 2)}


def throughput(n: int, seconds: float, cores: int) -> dict:
    return {"texts": n, "seconds": round(seconds, 2), "texts_per_s": round(n / seconds, 1),
            "texts_per_s_per_core": round(n / seconds / cores, 1)}


def compare_embedding(texts: list[str], cpus: int) -> dict:
    """Single process vs Ray on the same texts, in this run; passage-length and sentence-length texts timed
    apart on the single-process side (the plan embeds both)."""
    long_ = [t for t in texts if len(t.split()) >= 60]
    short = [t for t in texts if len(t.split()) < 40]
    single, s_all = embed_single(texts, "single process")
    _, s_long = embed_single(long_, "single, passages >= 60 words") if long_ else (None, 0.0)
    _, s_short = embed_single(short, "single, texts < 40 words") if short else (None, 0.0)
    ray_vecs, ray_t = embed_ray(texts, cpus)
    return {
        "texts": len(texts), "mean_words": round(float(np.mean([len(t.split()) for t in texts])), 1),
        "single_process": throughput(len(texts), s_all, cpus),
        "single_process_passages": {**throughput(len(long_), s_long, cpus),
                                    "mean_words": round(float(np.mean([len(t.split()) for t in long_])), 1)}
        if long_ else None,
        "single_process_short": {**throughput(len(short), s_short, cpus),
                                 "mean_words": round(float(np.mean([len(t.split()) for t in short])), 1)}
        if short else None,
        "ray": {**throughput(len(texts), ray_t["embed_s"], cpus), **ray_t,
                "with_init": throughput(len(texts), ray_t["embed_s"] + ray_t["ray_init_s"], cpus)},
        "ray_matches_single_atol_1e-5": bool(np.allclose(ray_vecs, single, atol=1e-5)),
    }


def abstract_figures(data_dir, n_abstracts: int, pair_threshold: float) -> dict:
    """On PubMedQA's abstracts: words, characters, sentences (clinrag's splitter) and 120-word passages per
    abstract; the contradiction check's candidate sentence pairs (tools/nli/pair_scores.candidate_pairs: each
    document and its 10 nearest, cosine >= threshold, no cap) per document; and the ONNX cross-encoder's
    pairs/s on a sample of those pairs."""
    from clinrag.tools.index.embeddings import embed_texts
    from clinrag.tools.index.text import split_sentences
    from clinrag.tools.nli.pair_scores import NEIGHBOURS, candidate_pairs

    abstracts = pubmedqa_abstracts(data_dir)[:n_abstracts]
    prog = Progress("splitting abstracts")
    sents, docs = [], []
    for i, a in enumerate(abstracts):
        s = split_sentences(a["abstract"])
        sents += s
        docs += [a["pmid"]] * len(s)
        prog.tick(f"{i + 1}/{len(abstracts)}")
    vecs = embed_texts(sents, show_progress=True, label="abstract sentences")
    t0 = time.perf_counter()
    pairs = candidate_pairs(sents, docs, vecs, {}, pair_threshold, max_pairs=10**12)
    pairs_s = time.perf_counter() - t0
    nli = _nli_rate([(sents[i], sents[j]) for i, j in pairs[:256]] or [(sents[0], sents[1])])
    return {"abstracts": len(abstracts),
            "words_per_abstract": round(float(np.mean([len(a["abstract"].split()) for a in abstracts])), 1),
            "chars_per_abstract": round(float(np.mean([len(a["abstract"]) for a in abstracts])), 1),
            "sentences_per_abstract": round(len(sents) / len(abstracts), 2),
            "passages_per_abstract": round(float(np.mean([len(_pack(a["abstract"])) for a in abstracts])), 2),
            "neighbours": NEIGHBOURS, "pair_threshold": pair_threshold,
            "candidate_pairs": len(pairs), "candidate_pairs_per_document": round(len(pairs) / len(abstracts), 2),
            "candidate_pairs_s": round(pairs_s, 2),
            "stored_bytes_per_pair": 40,  # both directions x (int32 a, int32 b, 3 x float32): pair_scores.npz
            "nli": nli}


def _nli_rate(pairs: list[tuple[str, str]]) -> dict:
    """Pairs per second of the ONNX NLI cross-encoder (the default backend's model), both directions scored."""
    from clinrag.tools.index.onnx_models import load_onnx_cross_encoder

    model = load_onnx_cross_encoder()
    model.predict(pairs[:8])
    directed = pairs + [(b, a) for a, b in pairs]
    t0 = time.perf_counter()
    model.predict(directed)
    s = time.perf_counter() - t0
    return {"directed_scores": len(directed), "seconds": round(s, 2),
            "directed_scores_per_s": round(len(directed) / s, 1)}
