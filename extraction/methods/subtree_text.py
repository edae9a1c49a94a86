"""What Readability asks of every candidate's text, for all elements of a tree in one bottom-up pass.

Readability measures the text under each scored node, each paragraph and each container it cleans. Read
from the text itself, every such question costs the size of the subtree, and on deeply nested markup (a
layout of 500 nested tables) that is the page's size times its depth: a 1 MB page took a minute. Here each
element's measures are combined from its children's, so the whole tree costs its size once, and an element
removed from the tree marks only its ancestors for measuring again.

Lengths are those of the text with whitespace runs collapsed (``readability.inner_text``), exactly: a
piece of text is summed up as (non-space characters, words, starts inside a word, ends inside a word), and
two pieces side by side join one word when the first ends and the second starts inside it.
"""
from __future__ import annotations

from dataclasses import dataclass

_EMPTY = (0, 0, None, None)


def _piece(text: str | None) -> tuple:
    if not text:
        return _EMPTY
    words = text.split()
    return (sum(map(len, words)), len(words), not text[0].isspace(), not text[-1].isspace())


def _collapsed_length(piece: tuple) -> int:
    """The length of the piece's text with whitespace runs collapsed and the ends stripped."""
    return piece[0] + max(piece[1] - 1, 0)


def _join(a: tuple, b: tuple) -> tuple:
    if a[2] is None:
        return b
    if b[2] is None:
        return a
    return (a[0] + b[0], a[1] + b[1] - (a[3] and b[2]), a[2], b[3])


@dataclass
class _Measures:
    text: tuple  # the piece summary of the element's whole text
    commas: int
    link_chars: int  # the length of the text inside links, a link in a link counted again, as Readability does
    counts: dict  # how many elements of each counted tag sit below the element


class SubtreeText:
    """Length, commas, link density and tag counts of any element's text, each in constant time."""

    def __init__(self, root, counted: frozenset):
        self.counted = counted
        self.measures: dict = {}
        self.stale: set = set()
        for el in reversed([el for el in root.iter() if isinstance(el.tag, str)]):  # children before parents
            self.measures[el] = self._measure(el)

    def length(self, el) -> int:
        return _collapsed_length(self._get(el).text)

    def commas(self, el) -> int:
        return self._get(el).commas

    def link_density(self, el) -> float:
        length = self.length(el)
        return self._get(el).link_chars / length if length else 0.0

    def count(self, el, *tags) -> int:
        """Elements with these tags below el, el itself not counted."""
        counts = self._get(el).counts
        return sum(counts.get(tag, 0) for tag in tags)

    def removed_from(self, parent) -> None:
        """Something under parent was taken out: parent and its ancestors are measured again when asked."""
        while parent is not None and parent not in self.stale:
            self.stale.add(parent)
            parent = parent.getparent()

    def _get(self, el) -> _Measures:
        if el in self.stale or el not in self.measures:
            self._refresh(el)
        return self.measures[el]

    def _refresh(self, top) -> None:
        """Measure top again, first each stale or new element below it, without recursion (trees run deep)."""
        order, stack = [], [top]
        while stack:
            el = stack.pop()
            order.append(el)
            stack.extend(c for c in el if isinstance(c.tag, str) and (c in self.stale or c not in self.measures))
        for el in reversed(order):
            self.measures[el] = self._measure(el)
            self.stale.discard(el)

    def _measure(self, el) -> _Measures:
        text, commas, link_chars = _piece(el.text), (el.text or "").count(","), 0
        counts: dict = {}
        for child in el:
            if isinstance(child.tag, str):
                below = self.measures[child]
                text = _join(text, below.text)
                commas += below.commas
                link_chars += below.link_chars
                for tag, n in below.counts.items():
                    counts[tag] = counts.get(tag, 0) + n
                if child.tag in self.counted:
                    counts[child.tag] = counts.get(child.tag, 0) + 1
            text = _join(text, _piece(child.tail))
            commas += (child.tail or "").count(",")
        if el.tag == "a":
            link_chars += _collapsed_length(text)
        return _Measures(text, commas, link_chars, counts)
