"""Largest-DOM-clump: the article is the part of the page where story-like text clumps together.

1. Text nodes are grouped into blocks by the element that holds them (``textstats``).
2. Each block gets a value: story-like text (long, few links) counts for its characters;
   link lists, short furniture and text inside boilerplate regions (nav, footer, share
   bars, comments... see ``cues``) count against.
3. Blocks are clumped by their parent (their path in the DOM), and each clump's value is
   added to every ancestor, so an element's score is the value of all the text below it.
4. The article is the element with the highest score: going up one level pays off only
   when the sibling content that comes along outweighs the boilerplate that comes with it,
   which is how sibling paragraphs split across containers are merged.
"""
from __future__ import annotations

from lxml import etree

from .article import ExtractionError
from .cues import STRONG, WEAK, furniture_strength
from .render import INVISIBLE_TAGS
from .textstats import PARAGRAPH_CHARS, Block, text_blocks

HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
# Cost per character of furniture text, relative to one character of story text.
BOILERPLATE_COST = 0.5
# Each level between a clump and an ancestor keeps this share of the clump's value,
# so a container close to its paragraphs beats a distant one that also collects
# scattered teasers.
LEVEL_DECAY = 0.9
# A clump of this much prose counts half; see clump_value.
CLUMP_HALF = 200.0


def block_value(block: Block) -> float:
    """Positive for prose, negative for link lists and menus, near zero for short labels."""
    chars, links = block.chars, block.link_chars
    if block.element.tag in HEADING_TAGS:
        return 0.0
    if links * 2 > chars:
        return -BOILERPLATE_COST * chars
    prose = chars - 2 * links
    if chars >= PARAGRAPH_CHARS:
        return float(prose)
    return prose * 0.25


class _Tree:
    """Parent lookups memoised, and sums of values carried up to every ancestor."""

    def __init__(self):
        self.parent: dict = {}

    def get_parent(self, el):
        try:
            return self.parent[el]
        except KeyError:
            parent = self.parent[el] = el.getparent()
            return parent

    def add_up(self, sums: dict, start, amount: float, decay: float = 1.0) -> None:
        node = start
        while node is not None:
            sums[node] = sums.get(node, 0.0) + amount
            amount *= decay
            node = self.get_parent(node)

    def flagged(self, el, test, memo: dict) -> bool:
        """Whether ``el`` or an ancestor passes ``test``; answers memoised per element."""
        chain = []
        node = el
        while node is not None and node not in memo:
            chain.append(node)
            node = self.get_parent(node)
        flag = memo.get(node, False) if node is not None else False
        for node in reversed(chain):
            flag = flag or (node.tag not in ("body", "html") and test(node))
            memo[node] = flag
        return memo[el]


def score_elements(doc) -> dict:
    """Element -> value of all the text below it (only elements that hold text)."""
    blocks = text_blocks(doc)
    if not blocks:
        raise ExtractionError("no text found")
    tree = _Tree()
    values = {el: block_value(block) for el, block in blocks.items()}
    prose: dict = {}
    for parent, value in _pool(values, tree, positive_only=True).items():
        tree.add_up(prose, parent, value)
    for el, value in values.items():
        if value > 0:
            prose[el] = prose.get(el, 0.0) + value
    strength: dict = {}

    def furniture(node) -> int:
        if node not in strength:
            strength[node] = furniture_strength(node)
        return strength[node]

    strong_memo: dict = {}
    for el, value in values.items():
        if value > 0 and tree.flagged(el, lambda n: furniture(n) == STRONG, strong_memo):
            values[el] = -BOILERPLATE_COST * blocks[el].chars
    # A weak cue on an element that holds most of the remaining prose is a wrapper's
    # misleading name ("page-ad-margins", "has-sidebar"), not furniture.
    page_prose = sum(v for v in values.values() if v > 0)
    weak_memo: dict = {}
    for el, value in values.items():
        if value > 0 and tree.flagged(el, lambda n: furniture(n) == WEAK and prose.get(n, 0.0) < 0.5 * page_prose,
                                      weak_memo):
            values[el] = -BOILERPLATE_COST * blocks[el].chars
    scores: dict = dict(values)
    for parent, value in _pool(values, tree).items():
        tree.add_up(scores, parent, clump_value(value), LEVEL_DECAY)
    return scores


def clump_value(value: float) -> float:
    """Large clumps count in full, small ones less: a story is many paragraphs side by
    side, while teaser lists scatter one short description per container."""
    return value * value / (value + CLUMP_HALF) if value > 0 else value


def _pool(values: dict, tree: _Tree, positive_only: bool = False) -> dict:
    """Sum block values per parent element: the clumps."""
    pooled: dict = {}
    for el, value in values.items():
        parent = tree.get_parent(el)
        if parent is not None and (value > 0 or not positive_only):
            pooled[parent] = pooled.get(parent, 0.0) + value
    return pooled


def find_article(doc):
    etree.strip_elements(doc, *INVISIBLE_TAGS, with_tail=False)
    scores = score_elements(doc)
    best = max(scores, key=scores.__getitem__)
    if scores[best] <= 0:
        raise ExtractionError("no article-like text found")
    return best
