"""Simplified Readability: the parent holding the most paragraph text, weighted by class/id.

Each paragraph adds a point plus one per hundred characters to its parent; the parent
starts from its class/id weight. The best-scoring parent is the article. No stripping,
no siblings, no cleaning: it is fast and blind to articles split across containers.
"""
from __future__ import annotations

from ..article import ExtractionError
from .readability import class_weight, inner_text


def find_article(doc):
    scores: dict = {}
    for p in doc.iter("p"):
        parent = p.getparent()
        text = inner_text(p)
        if parent is None or len(text) < 20:
            continue
        if parent not in scores:
            scores[parent] = class_weight(parent)
        scores[parent] += 1 + len(text) / 100
    if not scores:
        raise ExtractionError("readability-simple found no paragraphs")
    return max(scores, key=scores.get)
