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
_VISIBLE_TEXT = "descendant-or-self::text()[normalize-space()]"


@dataclass(slots=True)
class Block:
    element: object
    chars: int = 0
    link_chars: int = 0
    nodes: int = 0

    @property
    def link_density(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0


class _Holders:
    """Memoised climbs: the block for a text's element, and whether it sits in a link.

    Links can wrap whole blocks (teaser cards: ``<a><div>summary</div></a>``), so the
    link test looks past the block to every ancestor, remembering answers per element.
    """

    def __init__(self, root):
        self.root = root
        self.blocks: dict = {}
        self.linked: dict = {}

    def block_of(self, el):
        hit = self.blocks.get(el)
        if hit is None:
            node = el
            while node.tag in INLINE_TAGS and node is not self.root:
                parent = node.getparent()
                if parent is None:
                    break
                node = parent
            hit = self.blocks[el] = node
        return hit

    def in_link(self, el) -> bool:
        chain = []
        node = el
        while node is not None and node not in self.linked:
            chain.append(node)
            node = node.getparent()
        flag = self.linked.get(node, False) if node is not None else False
        for node in reversed(chain):
            flag = flag or node.tag == "a"
            self.linked[node] = flag
        return self.linked[el]


def text_blocks(root) -> dict[object, Block]:
    """Block element -> its text statistics, in document order."""
    blocks: dict[object, Block] = {}
    holders = _Holders(root)
    for text in root.xpath(_VISIBLE_TEXT):
        el = text.getparent()
        if text.is_tail:
            el = el.getparent()
            if el is None:
                continue
        if not isinstance(el.tag, str):
            continue
        holder = holders.block_of(el)
        block = blocks.get(holder)
        if block is None:
            block = blocks[holder] = Block(holder)
        # UTF-8 length: a CJK character (3 bytes) carries about a word, so pages in
        # those scripts are not mistaken for short labels.
        size = len(text.strip().encode("utf-8", "surrogatepass"))
        block.chars += size
        block.nodes += 1
        if holders.in_link(el):
            block.link_chars += size
    return blocks


def subtree_text_stats(el) -> tuple[int, int]:
    """(characters, link characters) of all visible text under ``el``."""
    chars = links = 0
    for block in text_blocks(el).values():
        chars += block.chars
        links += block.link_chars
    return chars, links
