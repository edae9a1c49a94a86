"""The recommender benchmark's protocol, shared by its scripts: which stories a simulated reader's
first k ratings are, which stories are ranked after them, and how per-reader figures are summed up."""
from __future__ import annotations

import numpy as np

KS = (5, 10, 20, 50, 100)
HORIZON = 50


def ranked_window(reader, k):
    """(offsets of the reader's first k rated stories, offsets of the next HORIZON stream stories), or
    None where the reader has rated fewer, the stream ends first, or the window's ratings are all one way
    (ROC-AUC is undefined there)."""
    rated = reader.rated[:k]
    if len(rated) < k:
        return None
    window = np.arange(rated[-1] + 1, rated[-1] + 1 + HORIZON)
    if window[-1] >= len(reader.stream):
        return None
    labels = reader.labels[window]
    if labels.all() or not labels.any():
        return None
    return rated, window


def mean_ci(values) -> tuple[float, float, int] | None:
    """Mean, half-width of its 95% interval, and count of per-reader figures (None for none)."""
    values = np.asarray(values, float)
    if not len(values):
        return None
    ci = 1.96 * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else 0.0
    return float(values.mean()), float(ci), len(values)
