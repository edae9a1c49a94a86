"""Boilerplate detection with shallow text features (Kohlschütter, Fankhauser, Nejdl; WSDM 2010).

The page is cut into runs of text at block-level tags (``blocks.text_runs``). Each run
is classified from its word count and link density and those of its neighbours (the
paper's decision tree on word counts). The article variant then fuses content blocks separated by at most one
boilerplate block, keeps the largest fused run and widens it back to the headline.
"""
from __future__ import annotations

import copy

import lxml.html
from lxml import etree

from ..article import ExtractionError
from ..blocks import Run, text_runs
from ..tags import HEADING_TAGS, INVISIBLE_TAGS


def is_content(prev: Run | None, cur: Run, nxt: Run | None) -> bool:
    """The paper's word-count decision tree over the block and its neighbours."""
    prev_density = prev.link_density if prev else 0.0
    prev_words = prev.words if prev else 0
    next_words = nxt.words if nxt else 0
    if cur.link_density > 0.333333:
        return False
    if prev_density > 0.555556:
        return next_words > 40
    if cur.words > 16 or next_words > 15:
        return True
    return prev_words > 4


def classify(blocks: list[Run]) -> list[bool]:
    padded = [None, *blocks, None]
    return [is_content(padded[i - 1], padded[i], padded[i + 1]) for i in range(1, len(padded) - 1)]


def _largest_run(blocks: list[Run], content: list[bool]) -> tuple[int, int]:
    """Fuse content blocks at most one block apart; return the run with most words."""
    best, best_words = (0, -1), 0
    start = last = None
    for i, keep in enumerate(content + [False, False]):
        if keep:
            start = i if start is None else start
            last = i
        elif start is not None and i - last > 1:
            words = sum(b.words for b, k in zip(blocks[start:last + 1], content[start:last + 1]) if k)
            if words > best_words:
                best, best_words = (start, last), words
            start = None
    if best_words == 0:
        raise ExtractionError("boilerpipe found no content blocks")
    return best


def _title_start(blocks: list[Run], start: int) -> int:
    """Widen the run back to the headline when a heading sits shortly before it."""
    for i in range(start - 1, max(start - 6, -1), -1):
        if blocks[i].tag in HEADING_TAGS:
            return i
    return start


def add_paragraph(parent, text: str, tag: str = "p"):
    """Append a ``<tag>`` holding ``text`` to ``parent``."""
    child = etree.SubElement(parent, tag)
    child.text = text
    return child


def render(blocks: list[Run], keep: list[bool]):
    """A wrapper div holding the kept blocks.

    A block that is the whole of its element is copied with its markup (links, emphasis,
    images); other blocks become a paragraph (or heading) of their text.
    """
    wrapper = lxml.html.Element("div")
    for block, kept in zip(blocks, keep):
        if not kept:
            continue
        if block.element is not None:
            child = copy.deepcopy(block.element)
            child.tail = None
            etree.strip_elements(child, *INVISIBLE_TAGS, with_tail=False)
            wrapper.append(child)
        else:
            add_paragraph(wrapper, block.text, block.tag if block.tag in HEADING_TAGS else "p")
    return wrapper


def find_article(doc):
    body = doc.find("body")
    blocks = text_runs(body if body is not None else doc)
    if not blocks:
        raise ExtractionError("boilerpipe found no text")
    content = classify(blocks)
    start, end = _largest_run(blocks, content)
    start = _title_start(blocks, start)
    keep = [start <= i <= end and (content[i] or i < end and blocks[i].tag in HEADING_TAGS) for i in range(len(blocks))]
    return render(blocks, keep)
