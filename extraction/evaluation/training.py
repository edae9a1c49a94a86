"""The shared body of the training commands (``train_mss``, ``train_best``): train, write, say what was written."""
from __future__ import annotations

from collections.abc import Callable

from ..methods.learned import write_model


def training_command(kind: str, train: Callable[[], dict[str, dict]], describe: Callable[[dict], str]) -> int:
    """The body of ``python -m extraction.evaluation.train_<kind>``: train, then write every model."""
    for name, model in train().items():
        path = write_model(kind, name, model)
        print(f"{path}: {describe(model)}, {path.stat().st_size // 1024} KiB")
    return 0
