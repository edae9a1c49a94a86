"""The snippet protocol of trafilatura's evaluation set.

Each page lists snippets that must appear in the main text and snippets that must not.
Output and snippets are whitespace-normalised; a snippet is present when it is a plain,
case-sensitive substring. Counts are summed over the pages (micro-averaged): a wanted
snippet present is a true positive, absent a false negative; an unwanted snippet present
is a false positive, absent a true negative.
"""
from __future__ import annotations

from dataclasses import dataclass

from .metric import Summary, bootstrap


@dataclass(frozen=True)
class SnippetScore:
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def f1(self) -> float:
        return 2 * self.tp / (2 * self.tp + self.fp + self.fn) if self.tp + self.fp + self.fn else 0.0


def _normal(text: str) -> str:
    return " ".join(text.split())


def score_snippets(predicted: str, wanted: tuple[str, ...], unwanted: tuple[str, ...]) -> SnippetScore:
    text = _normal(predicted or "")
    hits = sum(_normal(s) in text for s in wanted)
    leaks = sum(_normal(s) in text for s in unwanted)
    return SnippetScore(hits, leaks, len(wanted) - hits, len(unwanted) - leaks)


def _micro(tp, fp, fn, tn) -> tuple[float, float, float, float]:
    tp, fp, fn, tn = (float(c.sum()) for c in (tp, fp, fn, tn))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
    total = tp + fp + fn + tn
    return precision, recall, f1, (tp + tn) / total if total else 0.0


def summarize_snippets(scores: list[SnippetScore], draws: int = 1000, seed: int = 0) -> Summary:
    """Micro-averaged scores, with a bootstrap standard deviation over pages."""
    return bootstrap(scores, ("tp", "fp", "fn", "tn"), _micro, draws, seed)
