"""Whitespace rendering: blank out every tag and keep the text that still reads as blocks.

Each tag is replaced by as many spaces as it is long, so markup-heavy regions turn into
wide gaps while running prose stays dense. The page splits into chunks at gaps wider
than a threshold, and chunks long enough to be paragraphs are kept. Both cut-offs adapt
to the page: each is the Otsu split of the (log) gap widths or chunk lengths, so a page
with long inline links or short paragraphs gets its own thresholds.
"""
from __future__ import annotations

import html
import math
import re

import lxml.html
from lxml import etree

from ..article import ExtractionError
from ..tags import CODE_TAGS
from .boilerpipe import add_paragraph

_TAG = re.compile(r"<[^<>]*+>")  # never past a "<": "<<<<…" costs one pass
_GAP = re.compile(r"\s{2,}")
_MIN_GAP = 8  # an inline tag pair (<b>…</b>) alone never splits a paragraph
_MIN_WORDS = 8
_JUNK = (*CODE_TAGS, "head")


def otsu(values: list[float]) -> float:
    """The cut that best separates ``values`` into two groups (maximal between-class variance).

    With fewer than two distinct values nothing separates them: the cut is minus infinity.
    """
    ordered = sorted(values)
    if len(set(ordered)) < 2:
        return -math.inf
    total, n = sum(ordered), len(ordered)
    best_cut, best_var, left = -math.inf, -1.0, 0.0
    for i in range(1, n):
        left += ordered[i - 1]
        if ordered[i] == ordered[i - 1]:
            continue
        w0, w1 = i / n, (n - i) / n
        mean0, mean1 = left / i, (total - left) / (n - i)
        variance = w0 * w1 * (mean0 - mean1) ** 2
        if variance > best_var:
            best_cut, best_var = (ordered[i - 1] + ordered[i]) / 2, variance
    return best_cut


def visible_markup(doc) -> str:
    """The page's serialized HTML without scripts, styles and other text that is never shown."""
    etree.strip_elements(doc, *_JUNK, with_tail=False)
    return lxml.html.tostring(doc, encoding="unicode")


def blanked(doc) -> str:
    """The page's markup with every tag turned into spaces of the same length."""
    return html.unescape(_TAG.sub(lambda m: " " * len(m.group()), visible_markup(doc)))


def chunks(text: str) -> list[str]:
    gaps = [len(g) for g in _GAP.findall(text)]
    if not gaps:
        return [" ".join(text.split())] if text.strip() else []
    cut = max(_MIN_GAP, math.exp(otsu([math.log(g) for g in gaps])))
    pieces, start = [], 0
    for gap in _GAP.finditer(text):
        if len(gap.group()) > cut:
            pieces.append(text[start:gap.start()])
            start = gap.end()
    pieces.append(text[start:])
    return [" ".join(p.split()) for p in pieces if p.strip()]


def find_article(doc):
    found = chunks(blanked(doc))
    if not found:
        raise ExtractionError("whitespace found no text")
    lengths = [len(c.split()) for c in found]
    cut = max(_MIN_WORDS, math.exp(otsu([math.log(n) for n in lengths])))
    wrapper = lxml.html.Element("div")
    for chunk, words in zip(found, lengths):
        if words >= cut:
            add_paragraph(wrapper, chunk)
    if not len(wrapper):
        raise ExtractionError("whitespace found no paragraph-sized text")
    return wrapper
