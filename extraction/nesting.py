"""Markup nested deeper than libxml2 builds, flattened the way browsers do.

libxml2 stops at 2,048 open elements (``huge_tree`` or not) and drops everything from
there on, the rest of the page included, so a page of thousands of unclosed ``<font>``
or ``<div>`` tags came out empty. Browsers cap depth too (Blink at 512 elements) but keep
the text: what opens deeper becomes a sibling at the cap. ``flatten`` does that to the
markup, for a second parse of the pages whose first parse hit libxml2's cap.
"""
from __future__ import annotations

import re
from collections import Counter

MAX_DEPTH = 512

# A comment, a raw-text element whose content is not markup, or a tag. No part of a tag
# runs past a "<" and none gives back what it took (possessive), so unterminated tags
# ("<a<a<a", "<aaaa…" without a ">") cost one pass over the page, not one per "<" or more.
_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(script|style|textarea|title|xmp)\b[^<>]*+>.*?(?:</\1\s*>|\Z)"
    r"|<(/?)([a-zA-Z][^\s/<>]*+)[^<>]*+>",
    re.I | re.S,
)
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# A start tag of these closes an open one of the same name (HTML's implied end tags), so
# a page of unclosed <p> or <li> does not count as deep.
_CLOSE_THEIR_KIN = frozenset("p li dt dd option tr td th".split())


def flatten(markup: str, max_depth: int = MAX_DEPTH) -> str:
    """The markup with every start tag that would open below ``max_depth`` removed, with its end tag."""
    kept: list[str] = []
    stack: list[str] = []
    open_names: Counter[str] = Counter()
    last = 0
    for token in _TOKEN.finditer(markup):
        name = token.group(3)
        if name is None:
            continue  # comment or raw text: nothing in it nests
        name = name.lower()
        if token.group(2):
            keep = _close(name, stack, open_names)
        elif name in _VOID or token.group(0).endswith("/>"):
            keep = True
        else:
            if name in _CLOSE_THEIR_KIN and stack and stack[-1] == name:
                _close(name, stack, open_names)
            keep = len(stack) < max_depth
            if keep:
                stack.append(name)
                open_names[name] += 1
        if not keep:
            kept.append(markup[last:token.start()])
            last = token.end()
    kept.append(markup[last:])
    return "".join(kept)


def _close(name: str, stack: list[str], open_names: Counter[str]) -> bool:
    """Pop up to the innermost open ``name``; False for an end tag that closes nothing.

    Those are the end tags of removed start tags (or strays, which parsers ignore
    anyway): kept, one could close an ancestor of the same name early.
    """
    if not open_names[name]:
        return False
    while True:
        popped = stack.pop()
        open_names[popped] -= 1
        if popped == name:
            return True
