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
# All the text of an element, as ``el.xpath("string()")`` reads it but compiled once:
# compiling costs about ten times what evaluating does.
string_value = etree.XPath("string()")


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
