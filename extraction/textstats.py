"""Text blocks: the page's visible text grouped by the block element that holds it.

A text node belongs to the nearest enclosing element that is not inline (``<a>``,
``<em>``...), so "<p>Hello <a>world</a>!</p>" is one block of 12 characters of which 5
are link text. This segmentation is shared by every method that weighs text.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

INLINE_TAGS = frozenset("""
    a abbr acronym b bdi bdo big cite code data del dfn em font i ins kbd label mark q rp rt ruby s samp
    small span strike strong sub sup time tt u var wbr nobr
""".split())

# A block this long with few links reads like a paragraph of prose.
PARAGRAPH_CHARS = 80
# Whitespace-only text nodes never matter; filtering them in XPath keeps the loop short.
_TEXT = etree.XPath("descendant-or-self::text()[normalize-space()]")


@dataclass(slots=True)
class Block:
    element: object
    chars: int = 0
    link_chars: int = 0

    @property
    def link_density(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0


def _holder(el, root):
    """The block element for text inside ``el``: the nearest non-inline ancestor."""
    node = el
    while node.tag in INLINE_TAGS and node is not root:
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


def _in_link(el, cache: dict) -> bool:
    """Whether ``el`` or an ancestor (even above the root being read) is an ``<a>``.
    Links can wrap whole blocks (teaser cards: <a><div>summary</div></a>)."""
    chain = []
    node = el
    linked = False
    while node is not None:
        known = cache.get(node)
        if known is not None:
            linked = known
            break
        chain.append(node)
        if node.tag == "a":
            linked = True
            break
        node = node.getparent()
    for member in chain:
        cache[member] = linked
    return linked


def text_blocks(root) -> dict[object, Block]:
    """Block element -> its text statistics.

    Blocks enter the dict as their first plain (unlinked) text is met in page order,
    then blocks holding only link text, in page order: callers break ties by that order.
    """
    blocks: dict[object, Block] = {}
    # Element holding text -> (its block element, whether it sits inside a link).
    places: dict = {}
    links: dict = {}
    place_of = places.get
    block_of = blocks.get
    linked_text = []
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
            place = places[el] = (_holder(el, root), _in_link(el, links))
        holder, linked = place
        text = text.strip()
        # UTF-8 length: a CJK character (3 bytes) carries about a word, so pages in
        # those scripts are not mistaken for short labels.
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if linked:
            linked_text.append((holder, size))
            continue
        block = block_of(holder)
        if block is None:
            block = blocks[holder] = Block(holder)
        block.chars += size
    for holder, size in linked_text:
        block = block_of(holder)
        if block is None:
            block = blocks[holder] = Block(holder)
        block.chars += size
        block.link_chars += size
    return blocks
