"""Training the second-stage cross-encoder within a fixed CPU budget (``clinrag nli train --budget-minutes``).

Why this shape: a full fine-tune of MiniLM runs at ~14 pairs/s on these 2-core machines. Freezing the
embeddings and the lower 4 of 6 layers lets their activations be computed once per pair (inference only,
cached in fp16), after which every epoch runs only the top 2 layers forward and backward: several epochs fit
in the time one full epoch would take. Training stops at the budget; the epoch with the best validation
macro-F1 is kept. The weights go to the ``out_dir`` given (``clinrag nli train`` writes into the packaged
model folder only with ``--replace-shipped``).

:func:`train_top_layers` is the task-free part (any number of labels, any validation score, any max length):
the answerability cross-encoder (:mod:`clinrag.tools.retrieval.train_answerability`) trains with it too.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from clinrag.tools.nli.cross_encoder import (
    CROSS_ENCODER_FILE,
    FROZEN_LAYERS,
    ID2LABEL,
    MAX_LENGTH,
    new_cross_encoder,
    trainable_state,
)
from clinrag.tools.nli.data import Pair, label_ids


def _texts(pair) -> tuple[str, str]:
    """(first, second) text of an NLI :class:`Pair` (premise, hypothesis) or of a plain 2-tuple."""
    return (pair.premise, pair.hypothesis) if isinstance(pair, Pair) else (pair[0], pair[1])


def _run_layers(model, hidden, mask, layers):
    import torch

    # additive mask, broadcast over heads and query positions: padding keys get -inf-like scores
    ext = (1.0 - mask[:, None, None, :].to(hidden.dtype)) * torch.finfo(hidden.dtype).min
    for layer in layers:
        out = layer(hidden, attention_mask=ext)
        hidden = out[0] if isinstance(out, tuple) else out
    return hidden


def cache_frozen_activations(model, tokenizer, pairs: list, batch_size: int = 64, progress=None,
                             frozen_layers: int = FROZEN_LAYERS, max_length: int = MAX_LENGTH) -> list:
    """Per pair (an NLI :class:`Pair` or a (first, second) tuple): the hidden states after the frozen layers
    (fp16, unpadded)."""
    import torch

    cached = []
    frozen = model.bert.encoder.layer[:frozen_layers]
    with torch.inference_mode():
        for start in range(0, len(pairs), batch_size):
            batch = [_texts(p) for p in pairs[start : start + batch_size]]
            enc = tokenizer([a for a, _ in batch], [b for _, b in batch], padding=True,
                            truncation=True, max_length=max_length, return_tensors="pt")
            hidden = model.bert.embeddings(input_ids=enc["input_ids"], token_type_ids=enc["token_type_ids"])
            hidden = _run_layers(model, hidden, enc["attention_mask"], frozen)
            for i, n in enumerate(enc["attention_mask"].sum(1).tolist()):
                cached.append(hidden[i, :n].to(torch.float16).clone())
            if progress:
                progress(len(batch))
    return cached


def _batch(cached: list, idx) -> tuple:
    import torch

    length = max(cached[i].shape[0] for i in idx)
    hidden = torch.zeros(len(idx), length, cached[idx[0]].shape[1])
    mask = torch.zeros(len(idx), length, dtype=torch.long)
    for row, i in enumerate(idx):
        n = cached[i].shape[0]
        hidden[row, :n] = cached[i].float()
        mask[row, :n] = 1
    return hidden, mask


def _logits(model, hidden, mask, frozen_layers: int = FROZEN_LAYERS):
    top = model.bert.encoder.layer[frozen_layers:]
    hidden = _run_layers(model, hidden, mask, top)
    return model.classifier(model.dropout(model.bert.pooler(hidden)))


def predict_cached(model, cached: list, batch_size: int = 64, frozen_layers: int = FROZEN_LAYERS) -> np.ndarray:
    import torch

    order = np.argsort([c.shape[0] for c in cached])
    out = np.zeros((len(cached), model.config.num_labels))
    model.eval()
    with torch.inference_mode():
        for start in range(0, len(cached), batch_size):
            idx = order[start : start + batch_size]
            hidden, mask = _batch(cached, idx)
            out[idx] = _logits(model, hidden, mask, frozen_layers).softmax(-1).numpy()
    return out


def train_top_layers(train: list, y_train: np.ndarray, val: list, val_score, budget_minutes: float, out_path: Path,
                     id2label: dict[int, str], max_length: int, batch_size: int = 16, lr: float = 1e-4,
                     seed: int = 13, log=print, frozen_layers: int = FROZEN_LAYERS) -> dict:
    """Fine-tune the layers above ``frozen_layers`` and a ``len(id2label)``-way head on cached activations.

    ``train``/``val``: text pairs (see :func:`cache_frozen_activations`), ``y_train`` their class ids;
    ``val_score(probabilities) -> float`` rates the model on ``val`` after each epoch (higher is better) and the
    best epoch's trainable tensors are saved to ``out_path`` (fp16 safetensors). Class-weighted cross-entropy, AdamW;
    stops at ``budget_minutes`` (caching included)."""
    import torch
    from safetensors.torch import save_file

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    deadline = started + budget_minutes * 60
    n_labels = len(id2label)
    model, tokenizer = new_cross_encoder(id2label)
    for name, param in model.named_parameters():
        param.requires_grad = name in trainable_state(model, frozen_layers)
    log(f"caching frozen activations for {len(train) + len(val)} pairs")
    cached_train = cache_frozen_activations(model, tokenizer, train, frozen_layers=frozen_layers,
                                            max_length=max_length)
    cached_val = cache_frozen_activations(model, tokenizer, val, frozen_layers=frozen_layers, max_length=max_length)
    cached_at = time.perf_counter()
    log(f"cached in {(cached_at - started) / 60:.1f} min")
    y_train = torch.from_numpy(np.asarray(y_train, dtype=np.int64))
    counts = np.maximum(np.bincount(y_train.numpy(), minlength=n_labels), 1)
    loss_fn = torch.nn.CrossEntropyLoss(weight=torch.tensor(len(train) / (n_labels * counts), dtype=torch.float32))
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
    history, best, epoch = [], None, 0
    while time.perf_counter() < deadline or best is None:
        epoch += 1
        model.train()
        order = rng.permutation(len(train))
        # bucket by length inside chunks: less padding, still shuffled
        chunks = [sorted(order[i : i + batch_size * 20], key=lambda j: cached_train[j].shape[0])
                  for i in range(0, len(order), batch_size * 20)]
        batches = [c[i : i + batch_size] for c in chunks for i in range(0, len(c), batch_size)]
        rng.shuffle(batches)
        done = 0
        for idx in batches:
            if time.perf_counter() >= deadline and done:
                break
            hidden, mask = _batch(cached_train, idx)
            loss = loss_fn(_logits(model, hidden, mask, frozen_layers), y_train[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            done += len(idx)
        score = float(val_score(predict_cached(model, cached_val, frozen_layers=frozen_layers)))
        history.append({"epoch": epoch, "pairs": done, "val": round(score, 4),
                        "minutes": round((time.perf_counter() - started) / 60, 2)})
        log(f"epoch {epoch}: {done} pairs, validation {score:.4f}")
        if best is None or score > best[0]:
            best = (score, {k: v.detach().to(torch.float16).clone()
                            for k, v in trainable_state(model, frozen_layers).items()})
    out_path.parent.mkdir(parents=True, exist_ok=True)
    save_file(best[1], str(out_path))
    return {
        "frozen_layers": frozen_layers, "max_length": max_length, "batch_size": batch_size, "lr": lr,
        "budget_minutes": budget_minutes, "cache_minutes": round((cached_at - started) / 60, 2),
        "train_minutes": round((time.perf_counter() - started) / 60, 2), "epochs": history,
        "best_val": round(best[0], 4), "n_train": len(train), "n_val": len(val), "seed": seed,
    }


def train_cross_encoder(train: list[Pair], val: list[Pair], budget_minutes: float, out_dir: Path,
                        batch_size: int = 16, lr: float = 1e-4, seed: int = 13, log=print,
                        frozen_layers: int = FROZEN_LAYERS) -> dict:
    """The NLI cross-encoder: 3-way, validation macro-F1, ``CROSS_ENCODER_FILE`` in ``out_dir``."""
    from sklearn.metrics import f1_score

    y_val = label_ids(val)
    report = train_top_layers(train, label_ids(train), val,
                              lambda probs: f1_score(y_val, probs.argmax(1), average="macro"), budget_minutes,
                              out_dir / CROSS_ENCODER_FILE, ID2LABEL, MAX_LENGTH, batch_size=batch_size, lr=lr,
                              seed=seed, log=log, frozen_layers=frozen_layers)
    for epoch in report["epochs"]:
        epoch["val_macro_f1"] = epoch.pop("val")
    best = report.pop("best_val")
    return {"stage": "cross-encoder", **report, "best_val_macro_f1": best}
