"""The lab: the extractors scored on the shared datasets (``evaluate``, ``compare``, the
metric, the tuning/check split, the snippet protocol, competitors), and the training of
the learned methods (``train_mss``, ``train_best``). Nothing in ``extraction.extract``'s
import path, and no method, imports this package (tests/test_architecture.py)."""
