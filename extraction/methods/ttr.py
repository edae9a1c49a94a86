"""Text-to-tag ratio (Weninger & Hsu, 2008): lines of source with much text and few tags.

For every line of the page's source the ratio of text characters to tags is computed,
smoothed with a Gaussian over neighbouring lines, and the lines are split into content
and noise: ``ttr`` keeps lines above one standard deviation, ``ttr-kmeans`` keeps every
cluster but the lowest of a k-means (k=3) clustering. Minified pages put everything on
a handful of lines, which defeats the line as a unit; such lines are broken before
block-level tags so the method has lines to compare.
"""
from __future__ import annotations

import html
import re

import lxml.html
import numpy as np

from ..article import ExtractionError
from .boilerpipe import add_paragraph
from .whitespace import visible_markup

_TAG = re.compile(r"<[^<>]*+>")  # never past a "<": "<<<<…" costs one pass
_TAG_PIECE = re.compile(r"<[^<>]*+>|<[^<>]*+$|^[^<>]*+>")
_BLOCK_START = re.compile(r"(?=<(?:p|div|li|h[1-6]|tr|table|section|article|blockquote|ul|ol|br)\b)", re.I)
_LONG_LINE = 500
_RADIUS = 3


def lines(doc) -> list[str]:
    out = []
    for line in visible_markup(doc).splitlines():
        out.extend(_BLOCK_START.split(line) if len(line) > _LONG_LINE else [line])
    return [line for line in out if line.strip()]


def ratios(source_lines: list[str], texts: list[str]) -> np.ndarray:
    """Text characters per tag on each line (the character count when it has no tag)."""
    values = []
    for line, text in zip(source_lines, texts):
        tags = len(_TAG.findall(line))
        values.append(len(text) / tags if tags else float(len(text)))
    return np.array(values, dtype=float)


def smooth(values: np.ndarray) -> np.ndarray:
    offsets = np.arange(-_RADIUS, _RADIUS + 1)
    kernel = np.exp(-(offsets ** 2) / (2 * (_RADIUS / 2) ** 2))
    kernel /= kernel.sum()
    return np.convolve(np.pad(values, _RADIUS, mode="edge"), kernel, mode="valid")


def kmeans_content(values: np.ndarray, k: int = 3, rounds: int = 50) -> np.ndarray:
    """Everything but the lowest of k one-dimensional clusters."""
    centres = np.quantile(values, np.linspace(0.1, 0.9, k))
    for _ in range(rounds):
        labels = np.argmin(np.abs(values[:, None] - centres[None, :]), axis=1)
        moved = np.array([values[labels == j].mean() if np.any(labels == j) else centres[j] for j in range(k)])
        if np.allclose(moved, centres):
            break
        centres = moved
    return labels != int(np.argmin(centres))


def _extract(doc, select) -> lxml.html.HtmlElement:
    source = lines(doc)
    if not source:
        raise ExtractionError("ttr found no text")
    texts = [_line_text(line) for line in source]
    smoothed = smooth(ratios(source, texts))
    wrapper = lxml.html.Element("div")
    for text, keep in zip(texts, select(smoothed)):
        if keep and text:
            add_paragraph(wrapper, text)
    if not len(wrapper):
        raise ExtractionError("ttr kept no lines")
    return wrapper


def _line_text(line: str) -> str:
    """The line's text: tags (and pieces of tags cut by the line break) removed, entities decoded.

    The source is lxml's serialization, where "<" and ">" in text are always escaped.
    """
    return " ".join(html.unescape(_TAG_PIECE.sub(" ", line)).split())


def find_article(doc):
    return _extract(doc, lambda v: v > v.std())


def find_article_kmeans(doc):
    return _extract(doc, kmeans_content)
