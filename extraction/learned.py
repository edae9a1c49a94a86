"""Model files of the learned methods (mss, best): where they live and which one is used.

One model is trained per development set so each set can be scored by a model that never
saw it. Extraction uses the news benchmark's model unless ``trained_on`` says otherwise.
"""
from __future__ import annotations

import argparse
import gzip
import json
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from .article import ExtractionError

DATA = Path(__file__).resolve().parent / "data"
SETS = {"aeb": "article-extraction-benchmark", "rtp": "readability-test-pages"}  # the development sets
MODEL_SET: ContextVar[str] = ContextVar("model_set", default="aeb")


@contextmanager
def trained_on(set_name: str):
    """Use the models trained on ``set_name`` inside the block."""
    token = MODEL_SET.set(set_name)
    try:
        yield
    finally:
        MODEL_SET.reset(token)


def model_path(kind: str, set_name: str) -> Path:
    return DATA / f"{kind}-{set_name}.json.gz"


@lru_cache(maxsize=8)
def _read(kind: str, set_name: str) -> dict:
    path = model_path(kind, set_name)
    try:
        return json.loads(gzip.decompress(path.read_bytes()))
    except FileNotFoundError:
        raise ExtractionError(f"{kind} model {path.name} is missing; run python -m extraction.train_{kind}") from None


def load_model(kind: str) -> dict:
    """The ``kind`` model of the current training set."""
    return _read(kind, MODEL_SET.get())


def write_model(kind: str, set_name: str, model: dict) -> Path:
    path = model_path(kind, set_name)
    DATA.mkdir(exist_ok=True)
    path.write_bytes(gzip.compress(json.dumps(model, sort_keys=True).encode(), mtime=0))
    _read.cache_clear()
    return path


def training_command(kind: str, doc: str, train: Callable[[str], dict], describe: Callable[[dict], str],
                     argv: list[str] | None = None) -> int:
    """The ``python -m extraction.train_<kind>`` command: train and write one model per set."""
    parser = argparse.ArgumentParser(prog=f"python -m extraction.train_{kind}", description=doc.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    for set_name in parser.parse_args(argv).sets:
        model = train(set_name)
        path = write_model(kind, set_name, model)
        print(f"{path}: {describe(model)}, {path.stat().st_size // 1024} KiB")
    return 0
