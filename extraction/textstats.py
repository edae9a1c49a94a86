"""Text blocks: the page's visible text grouped by the block element that holds it.

A text node belongs to the nearest enclosing element that is not inline (``<a>``,
``<em>``...), so "<p>Hello <a>world</a>!</p>" is one block of 12 characters of which 5
are link text. This segmentation is shared by every method that weighs text.
"""
from __future__ import annotations

from dataclasses import dataclass

INLINE_TAGS = frozenset("""
    a abbr acronym b bdi bdo big cite code data del dfn em font i ins kbd label mark q rp rt ruby s samp
    small span strike strong sub sup time tt u var wbr nobr
""".split())

# A block this long with few links reads like a paragraph of prose.
PARAGRAPH_CHARS = 80
# Whitespace-only text nodes never matter; filtering them in XPath keeps the loop short.
_PLAIN_TEXT = "descendant-or-self::text()[normalize-space()][not(ancestor::a)]"
_LINK_TEXT = "descendant-or-self::text()[normalize-space()][ancestor::a]"


@dataclass(slots=True)
class Block:
    element: object
    chars: int = 0
    link_chars: int = 0

    @property
    def link_density(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0


def _holder(el, root, cache: dict):
    """The block element for text inside ``el``: the nearest non-inline ancestor."""
    node = el
    while node.tag in INLINE_TAGS and node is not root:
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    cache[el] = node
    return node


def text_blocks(root) -> dict[object, Block]:
    """Block element -> its text statistics."""
    blocks: dict[object, Block] = {}
    cache: dict = {}
    holder_of = cache.get
    block_of = blocks.get
    # Links can wrap whole blocks (teaser cards: <a><div>summary</div></a>), so link
    # text is any text with an <a> ancestor; XPath answers that in C.
    for query, linked in ((_PLAIN_TEXT, False), (_LINK_TEXT, True)):
        for text in root.xpath(query):
            el = text.getparent()
            if text.is_tail:
                el = el.getparent()
                if el is None:
                    continue
            holder = holder_of(el)
            if holder is None:
                if not isinstance(el.tag, str):
                    continue
                holder = _holder(el, root, cache)
            block = block_of(holder)
            if block is None:
                block = blocks[holder] = Block(holder)
            text = text.strip()
            # UTF-8 length: a CJK character (3 bytes) carries about a word, so pages in
            # those scripts are not mistaken for short labels.
            size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
            block.chars += size
            if linked:
                block.link_chars += size
    return blocks
