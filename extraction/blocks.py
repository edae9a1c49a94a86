"""Text blocks: the page's visible text cut at block elements, read two ways.

``text_blocks``: per block element. A text node belongs to the nearest enclosing element
that is not inline (``<a>``, ``<em>``...), so "<p>Hello <a>world</a>!</p>" is one block
of 12 characters of which 5 are link text. Clump and the cleaning weigh these.

``text_runs``: per run of text between two block boundaries, in page order, with its
words: "<div>a<p>b</p>c</div>" is three runs. Boilerpipe, best and mss read these, as
the boilerpipe paper cuts a page.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from lxml import etree

from .tags import BLOCK_TAGS, CELL_TAGS, INLINE_TAGS, INVISIBLE_TAGS

# A block this long with few links reads like a paragraph of prose.
PARAGRAPH_CHARS = 80
# Whitespace-only text nodes never matter; filtering them in XPath keeps the loop short.
_TEXT = etree.XPath("descendant-or-self::text()[normalize-space()]")
# All the text of an element, as ``el.xpath("string()")`` reads it but compiled once:
# compiling costs about ten times what evaluating does.
string_value = etree.XPath("string()")
# Where runs are cut: paragraph breaks, table cells, and the body itself.
RUN_BOUNDARIES = BLOCK_TAGS | CELL_TAGS | {"body"}
_LINE = 80  # the paper's line width for text density


@dataclass(slots=True)
class Block:
    element: object
    chars: int = 0
    link_chars: int = 0

    @property
    def link_density(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0


def _place(el, root, places: dict) -> tuple:
    """(holder, linked, parent, depth) of ``el``, which is not in ``places`` yet, filling
    ``places`` for it and every ancestor not there, so each element is asked for its
    parent once.

    The holder is the block element for text inside ``el``: the nearest ancestor (or
    ``el``) that is not inline, ``root`` at the highest. Linked: ``el`` or an ancestor,
    even above ``root``, is an ``<a>``; links can wrap whole blocks (teaser cards:
    <a><div>summary</div></a>). Depth counts from the top of the page, which is 1.
    """
    chain = [el]
    node = el.getparent()
    while node is not None:
        known = places.get(node)
        if known is not None:
            holder, linked, _, depth = known
            break
        chain.append(node)
        node = node.getparent()
    else:
        holder, linked, depth = None, False, 0
    for member in reversed(chain):
        depth += 1
        tag = member.tag
        linked = linked or tag == "a"
        if tag not in INLINE_TAGS or member is root or node is None:
            holder = member
        places[member] = (holder, linked, node, depth)
        node = member
    return places[el]


def text_blocks(root, places: dict | None = None) -> dict[object, Block]:
    """Block element -> its text statistics.

    Blocks enter the dict as their first plain (unlinked) text is met in page order,
    then blocks holding only link text, in page order: callers break ties by that order.
    ``places``, when given, is filled with element -> (holder, linked, parent, depth)
    for the elements holding text and all their ancestors (see ``_place``).
    """
    if places is None:
        places = {}
    place_of = places.get
    # Sizes per holder, plain and linked text apart; the Blocks are made at the end.
    plain: dict = {}
    linked: dict = {}
    for text in _TEXT(root):
        el = text.getparent()
        if text.is_tail:
            el = el.getparent()
            if el is None:
                continue
        place = place_of(el)
        if place is None:
            if not isinstance(el.tag, str):
                continue
            place = _place(el, root, places)
        holder = place[0]
        sizes = linked if place[1] else plain
        text = text.strip()
        # UTF-8 length: a CJK character (3 bytes) carries about a word, so pages in
        # those scripts are not mistaken for short labels.
        sizes[holder] = sizes.get(holder, 0) + (len(text) if text.isascii()
                                                else len(text.encode("utf-8", "surrogatepass")))
    blocks: dict[object, Block] = {}
    for holder, chars in plain.items():
        link_chars = linked.get(holder, 0)
        blocks[holder] = Block(holder, chars + link_chars, link_chars)
    for holder, link_chars in linked.items():
        if holder not in plain:
            blocks[holder] = Block(holder, link_chars, link_chars)
    return blocks


@dataclass
class Run:
    """A run of text between two block-level boundaries."""

    text: str
    words: int
    link_words: int
    tag: str  # the nearest block-level element around the text
    element: object = field(default=None, repr=False)  # that element, when it holds this run alone
    owner: object = field(default=None, repr=False)  # that element, always

    @property
    def link_density(self) -> float:
        return self.link_words / self.words if self.words else 0.0

    @property
    def text_density(self) -> float:
        """Words per 80-column line, ignoring the last (partial) line as the paper does."""
        lines = textwrap.wrap(self.text, _LINE) or [""]
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


def text_runs(root) -> list[Run]:
    """Cut the tree into runs of text at block boundaries, counting words inside links."""
    runs: list[Run] = []
    pieces: list[tuple[str, bool]] = []
    stack: list = []  # the open block-level elements
    opened_at: list[int] = []  # how many runs existed when each open block element began
    links = 0

    def flush():
        text = " ".join("".join(p for p, _ in pieces).split())
        if text:
            link_text = " ".join(p for p, linked in pieces if linked)
            owner = stack[-1] if stack else None
            runs.append(Run(text, len(text.split()), len(link_text.split()),
                            owner.tag if owner is not None else "body", owner=owner))
        pieces.clear()

    for kind, value in walk(root):
        if kind == "text":
            pieces.append((value, links > 0))
            continue
        tag = value.tag
        if tag in RUN_BOUNDARIES:
            flush()
        if kind == "open":
            links += tag == "a"
            if tag in RUN_BOUNDARIES:
                stack.append(value)
                opened_at.append(len(runs))
            continue
        links -= tag == "a"
        if tag in RUN_BOUNDARIES:
            if len(runs) == opened_at.pop() + 1:
                runs[-1].element = value
            stack.pop()
    flush()
    return runs
