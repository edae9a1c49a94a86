"""Boilerplate detection with shallow text features (Kohlschütter, Fankhauser, Nejdl; WSDM 2010).

The page is cut into text blocks at block-level tags. Each block is classified from its
word count and link density and those of its neighbours (the paper's decision tree on
word counts). The article variant then fuses content blocks separated by at most one
boilerplate block, keeps the largest fused run and widens it back to the headline.
"""
from __future__ import annotations

import copy
import textwrap
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from ..article import ExtractionError
from ..render import INVISIBLE_TAGS

BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "body", "br", "dd", "details", "div", "dl", "dt",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "tr", "ul",
}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_WRAP = 80


@dataclass
class Block:
    """A run of text between two block-level boundaries."""

    text: str
    words: int
    link_words: int
    tag: str  # the nearest block-level element around the text
    element: object = field(default=None, repr=False)  # that element, when it holds this block alone
    owner: object = field(default=None, repr=False)  # that element, always

    @property
    def link_density(self) -> float:
        return self.link_words / self.words if self.words else 0.0

    @property
    def text_density(self) -> float:
        """Words per 80-column line, ignoring the last (partial) line as the paper does."""
        lines = textwrap.wrap(self.text, _WRAP) or [""]
        if len(lines) > 1:
            return sum(len(line.split()) for line in lines[:-1]) / (len(lines) - 1)
        return float(self.words)


def walk(root):
    """("open", element), ("text", text) and ("close", element) events in document order.

    Iterative, because pages nest deeper than Python's recursion limit; scripts, styles
    and other non-text elements are skipped whole.
    """
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else ""
        kept = bool(tag) and tag not in INVISIBLE_TAGS
        if event == "start":
            if not kept:
                walker.skip_subtree()
                continue
            yield "open", el
            yield "text", el.text or ""
            continue
        if kept:
            yield "close", el
        if el is not root:
            yield "text", el.tail or ""


def text_blocks(root) -> list[Block]:
    """Cut the tree into text blocks, counting words inside links."""
    blocks: list[Block] = []
    pieces: list[tuple[str, bool]] = []
    stack: list = []  # the open block-level elements
    opened_at: list[int] = []  # how many blocks existed when each open block element began
    links = 0

    def flush():
        text = " ".join("".join(p for p, _ in pieces).split())
        if text:
            link_text = " ".join(p for p, linked in pieces if linked)
            owner = stack[-1] if stack else None
            blocks.append(Block(text, len(text.split()), len(link_text.split()),
                                owner.tag if owner is not None else "body", owner=owner))
        pieces.clear()

    for kind, value in walk(root):
        if kind == "text":
            pieces.append((value, links > 0))
            continue
        tag = value.tag
        if tag in BLOCK_TAGS:
            flush()
        if kind == "open":
            links += tag == "a"
            if tag in BLOCK_TAGS:
                stack.append(value)
                opened_at.append(len(blocks))
            continue
        links -= tag == "a"
        if tag in BLOCK_TAGS:
            if len(blocks) == opened_at.pop() + 1:
                blocks[-1].element = value
            stack.pop()
    flush()
    return blocks


def is_content(prev: Block | None, cur: Block, nxt: Block | None) -> bool:
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


def classify(blocks: list[Block]) -> list[bool]:
    padded = [None, *blocks, None]
    return [is_content(padded[i - 1], padded[i], padded[i + 1]) for i in range(1, len(padded) - 1)]


def _largest_run(blocks: list[Block], content: list[bool]) -> tuple[int, int]:
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


def _title_start(blocks: list[Block], start: int) -> int:
    """Widen the run back to the headline when a heading sits shortly before it."""
    for i in range(start - 1, max(start - 6, -1), -1):
        if blocks[i].tag in _HEADINGS:
            return i
    return start


def add_paragraph(parent, text: str, tag: str = "p"):
    """Append a ``<tag>`` holding ``text`` to ``parent``."""
    child = etree.SubElement(parent, tag)
    child.text = text
    return child


def render(blocks: list[Block], keep: list[bool]):
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
            add_paragraph(wrapper, block.text, block.tag if block.tag in _HEADINGS else "p")
    return wrapper


def find_article(doc):
    body = doc.find("body")
    blocks = text_blocks(body if body is not None else doc)
    if not blocks:
        raise ExtractionError("boilerpipe found no text")
    content = classify(blocks)
    start, end = _largest_run(blocks, content)
    start = _title_start(blocks, start)
    keep = [start <= i <= end and (content[i] or i < end and blocks[i].tag in _HEADINGS) for i in range(len(blocks))]
    return render(blocks, keep)
