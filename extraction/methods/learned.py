"""Model files of the learned methods (mss, best): where they live and which one is used.

``mss`` has one model per development set, so each set can be scored by the model trained
on the other. ``best`` has one model trained on all development pages (the one extraction
uses) and one per cross-validation fold, so every page can be scored by a model that never
saw it or its site. ``trained_on`` switches models for the evaluation.
"""
from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from ..article import ExtractionError

DATA = Path(__file__).resolve().parent / "data"
SETS = {"aeb": "article-extraction-benchmark", "rtp": "readability-test-pages"}  # the development sets
DEFAULT_MODELS = {"mss": "aeb", "best": "all"}
_MODELS: ContextVar[dict[str, str]] = ContextVar("models", default=DEFAULT_MODELS)


@contextmanager
def trained_on(**names: str):
    """Inside the block, use the named models, e.g. ``trained_on(mss="rtp")``."""
    token = _MODELS.set({**_MODELS.get(), **names})
    try:
        yield
    finally:
        _MODELS.reset(token)


def model_path(kind: str, name: str) -> Path:
    return DATA / f"{kind}-{name}.json.gz"


@lru_cache(maxsize=16)
def _read(kind: str, name: str, prepare: Callable[[dict], dict] | None) -> dict:
    path = model_path(kind, name)
    try:
        model = json.loads(gzip.decompress(path.read_bytes()))
    except FileNotFoundError:
        raise ExtractionError(f"{kind} model {path.name} is missing; run python -m extraction.evaluation.train_{kind}") from None
    return prepare(model) if prepare else model


def load_model(kind: str, prepare: Callable[[dict], dict] | None = None) -> dict:
    """The ``kind`` model currently in use, passed through ``prepare`` once per load."""
    return _read(kind, _MODELS.get()[kind], prepare)


def write_model(kind: str, name: str, model: dict) -> Path:
    path = model_path(kind, name)
    DATA.mkdir(exist_ok=True)
    path.write_bytes(gzip.compress(json.dumps(model, sort_keys=True).encode(), mtime=0))
    _read.cache_clear()
    return path

