"""Turn an article subtree into plain text (paragraphs split by blank lines) and safe HTML."""
from __future__ import annotations

import lxml.html
from lxml import etree

from .document import parse_fragment
from .sanitize import clean_article_html
from .tags import ANNOTATION_TAGS, BLOCK_TAGS, CELL_TAGS, INVISIBLE_TAGS

_NOT_TEXT = INVISIBLE_TAGS | ANNOTATION_TAGS


def element_text(root) -> str:
    """Readable text of a subtree: block elements split paragraphs, inline ones join as written.

    Walks with ``iterwalk`` instead of recursion so pathologically deep pages cannot
    exhaust the Python stack.
    """
    parts: list[str] = []
    skip_depth = pre_depth = 0
    # Each read of .text or .tail builds a new string, so each is read once.
    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = el.tag
        if not isinstance(tag, str):
            tag = None
        if event == "start":
            if skip_depth or tag is None or tag in _NOT_TEXT:
                skip_depth += 1
                continue
            if tag in BLOCK_TAGS:
                parts.append("\n\n")
            elif tag in CELL_TAGS:
                parts.append(" ")
            pre_depth += tag == "pre"
            text = el.text
            if text:
                parts.append(_keep_layout(text) if pre_depth else text)
        else:
            if skip_depth:
                skip_depth -= 1
            else:
                pre_depth -= tag == "pre"
                if tag in BLOCK_TAGS:
                    parts.append("\n\n")
                elif tag in CELL_TAGS:
                    parts.append(" ")
            if el is not root and not skip_depth:
                tail = el.tail
                if tail:
                    parts.append(_keep_layout(tail) if pre_depth else tail)
    return join_paragraphs("".join(parts))


# Preformatted text keeps its line breaks and indentation: they are swapped for
# private-use characters while other whitespace is collapsed, then swapped back.
_LAYOUT = str.maketrans({"\n": "\ue000", " ": "\ue001", "\t": "\ue002"})
_UNLAYOUT = str.maketrans({"\ue000": "\n", "\ue001": " ", "\ue002": "\t"})


def _keep_layout(text: str) -> str:
    return text.translate(_LAYOUT)


def join_paragraphs(raw: str) -> str:
    """Collapse whitespace inside paragraphs and separate them by one blank line."""
    paragraphs = (" ".join(p.split()) for p in raw.split("\n\n"))
    if "\ue000" in raw or "\ue001" in raw or "\ue002" in raw:
        paragraphs = (p.translate(_UNLAYOUT).strip("\n") for p in paragraphs)
    return "\n\n".join(p for p in paragraphs if p.strip())


def html_to_text(html: str) -> str:
    """Text of an HTML fragment (a feed's content, a title with markup), as ``element_text`` renders it.
    Text without markup or entities is not parsed; text lxml refuses (an encoding declaration, control
    characters) is taken as it stands."""
    if not html or not html.strip():
        return ""
    if "<" not in html and "&" not in html:
        return join_paragraphs(html)
    try:
        return element_text(parse_fragment(html))
    except (etree.ParserError, ValueError):
        return join_paragraphs(html)


def sanitized_html(root) -> str:
    """The subtree as HTML that is safe to show: an allow-list of tags and attributes."""
    return clean_article_html(lxml.html.tostring(root, encoding="unicode"))
