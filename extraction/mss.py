"""Maximum subsequence segmentation (Pasternack & Roth, WWW 2009)."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

# Which development set the learned models (mss, best) were trained on; the shipped
# default is the news benchmark. The comparison switches it to score held-out pages only.
MODEL_SET: ContextVar[str] = ContextVar("model_set", default="aeb")


@contextmanager
def trained_on(set_name: str):
    token = MODEL_SET.set(set_name)
    try:
        yield
    finally:
        MODEL_SET.reset(token)
