"""Largest-DOM-clump: group text by its place in the DOM, the biggest clump is the article.

First version: text nodes are grouped by their parent's path; each group's weight is
its character count; the article is the parent of the heaviest group.
"""
from __future__ import annotations

from collections import Counter

from .article import ExtractionError

_SKIP = {"script", "style", "noscript", "template", "head", "title"}


def find_article(doc):
    weights: Counter = Counter()
    elements = {}
    for el in doc.iter():
        if not isinstance(el.tag, str) or el.tag in _SKIP:
            continue
        size = len((el.text or "").strip())
        for child in el:
            size += len((child.tail or "").strip())
        if size:
            parent = el.getparent() if el.getparent() is not None else el
            key = doc.getroottree().getpath(parent)
            weights[key] += size
            elements[key] = parent
    if not weights:
        raise ExtractionError("no text found")
    key, _ = weights.most_common(1)[0]
    return elements[key]
