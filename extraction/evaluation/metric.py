"""The article-extraction-benchmark metric: 4-token shingle overlap, averaged over pages.

Tokens are ``\\w+`` matches. Per page, the shingle multisets of prediction and gold
give TP/FP/FN counts, normalised to sum to 1 so every page weighs the same.
Precision is averaged over pages that predicted something, recall over pages whose
gold has text; F1 is the harmonic mean of those two means. Spread comes from a
bootstrap over pages.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

_TOKEN = re.compile(r"\w+")
SHINGLE = 4


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text or "")


def shingles(toks: list[str], n: int = SHINGLE) -> Counter:
    # A text shorter than one shingle still counts, as a single shorter shingle.
    if 0 < len(toks) < n:
        return Counter([tuple(toks)])
    return Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))


@dataclass(frozen=True)
class PageScore:
    tp: float
    fp: float
    fn: float
    exact: bool

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp > 0 else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn > 0 else None

    @property
    def f1(self) -> float:
        p, r = self.precision or 0.0, self.recall or 0.0
        return 2 * p * r / (p + r) if p + r else 0.0


def score_page(predicted: str, gold: str) -> PageScore:
    pred_toks, gold_toks = tokens(predicted), tokens(gold)
    pred, true = shingles(pred_toks), shingles(gold_toks)
    tp = sum((pred & true).values())
    fp = sum((pred - true).values())
    fn = sum((true - pred).values())
    total = tp + fp + fn
    if total:
        tp, fp, fn = tp / total, fp / total, fn / total
    return PageScore(tp, fp, fn, pred_toks == gold_toks)


@dataclass(frozen=True)
class Summary:
    precision: float
    recall: float
    f1: float
    accuracy: float
    precision_sd: float
    recall_sd: float
    f1_sd: float
    accuracy_sd: float
    pages: int


def _means(tp, fp, fn, exact):
    has_pred, has_gold = (tp + fp) > 0, (tp + fn) > 0
    p = (tp[has_pred] / (tp + fp)[has_pred]).mean() if has_pred.any() else 0.0
    r = (tp[has_gold] / (tp + fn)[has_gold]).mean() if has_gold.any() else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return float(p), float(r), float(f1), float(exact.mean()) if len(exact) else 0.0


def summarize(scores: list[PageScore], draws: int = 1000, seed: int = 0) -> Summary:
    """Means over pages, with a bootstrap standard deviation for each."""
    return bootstrap(scores, ("tp", "fp", "fn", "exact"), _means, draws, seed)


def bootstrap(scores: list, fields: tuple[str, ...], measure, draws: int = 1000, seed: int = 0) -> Summary:
    """``measure`` (columns of the per-page ``fields`` -> precision, recall, F1, accuracy)
    on all pages, with its standard deviation over ``draws`` resamplings of the pages."""
    if not scores:
        return Summary(0, 0, 0, 0, 0, 0, 0, 0, 0)
    cols = [np.array([getattr(s, k) for s in scores], dtype=float) for k in fields]
    point = measure(*cols)
    rng = np.random.default_rng(seed)
    samples = np.array([measure(*(c[idx] for c in cols))
                        for idx in rng.integers(0, len(scores), size=(draws, len(scores)))])
    sd = samples.std(axis=0)
    return Summary(*point, *map(float, sd), pages=len(scores))
