"""Natural-language inference for the contradiction check: backends (``backends``), the models trained here
(``trained``, ``cross_encoder``, weights in ``weights/`` with their model card), their training data and training
(``data``, ``train_feature``, ``train_cross_encoder``), the cross-document contradiction graph (``contradiction``) and
index-time pair scores (``pair_scores``). Nothing is imported here."""
