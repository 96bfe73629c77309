"""The corpus index: sentence-packed passages, their dense vectors (all-MiniLM-L6-v2, on ONNX Runtime or torch),
BM25, sentence vectors and the manifest that says when an index is stale.

Modules are imported where used (``clinrag.tools.index.store``, ``.embeddings``, ``.onnx_models``, ``.text``):
this package imports nothing, so light callers pay for nothing they do not use.
"""
