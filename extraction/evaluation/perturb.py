"""Markup perturbations: the development pages rewritten in the style of older pages.

Pages from 2008-2012 carry the same stories in other markup: few or no meaningful class
and id names, text between ``<br><br>`` instead of ``<p>``, layout tables, no HTML5
sectioning tags. A method tuned on modern pages can lean on what those pages lack. Each
transform here rewrites a page's HTML deterministically and keeps its text, so the gold
stays valid, and every extractor is scored on the same rewritten pages:

- ``reparse``: parse and write back only; the control, what the others start from.
- ``no-names``: drop class, id, itemprop, itemtype, itemscope, role and aria-* attributes.
- ``no-html5``: HTML5 semantic and sectioning tags (``article``, ``main``, ``aside``,
  ``nav``, ``header``, ``footer``, ``section``, ``figure``, ``figcaption``...) become ``div``.
- ``br-paragraphs``: each ``<p>`` becomes its content followed by ``<br><br>``.
- ``tables``: the body's children go into the cells of a layout table (``tables``).
- ``old``: all of the above, in that order.
"""
from __future__ import annotations

from collections.abc import Callable

import lxml.html
from lxml import etree

from ..document import parse

NAME_ATTRIBUTES = frozenset({"class", "id", "itemprop", "itemtype", "itemscope", "role"})
HTML5_TAGS = frozenset({"article", "main", "aside", "nav", "header", "footer", "section", "figure",
                        "figcaption", "hgroup", "address", "details", "summary", "mark", "time"})
# Inline HTML5 tags become spans, not divs: a div would break the sentence they sit in.
HTML5_INLINE = frozenset({"mark", "time"})


def no_names(doc: lxml.html.HtmlElement) -> None:
    for el in doc.iter(etree.Element):
        for attribute in [a for a in el.attrib if a in NAME_ATTRIBUTES or a.startswith("aria-")]:
            del el.attrib[attribute]


def no_html5(doc: lxml.html.HtmlElement) -> None:
    for el in doc.iter(*HTML5_TAGS):
        el.tag = "span" if el.tag in HTML5_INLINE else "div"


def br_paragraphs(doc: lxml.html.HtmlElement) -> None:
    for p in list(doc.iter("p")):
        first, second = etree.Element("br"), etree.Element("br")
        second.tail, p.tail = p.tail, None
        # A paragraph after bare text starts a new line: without a space its first word would join the text's last.
        p.text = "\n" + (p.text or "")
        p.append(first)
        p.append(second)
        p.drop_tag()


def tables(doc: lxml.html.HtmlElement) -> None:
    """The body's children in a layout table: the first and the last child (a header and
    a footer, on most pages) in rows of their own, the ones between side by side in the
    cells of one row, as columns of menus, story and sidebars were laid out."""
    body = doc.find("body")
    if body is None or len(body) == 0:
        return
    children = list(body)
    table = etree.SubElement(body, "table", width="100%", border="0", cellpadding="0", cellspacing="0")
    rows = [children[:1], children[1:-1], children[-1:]] if len(children) > 2 else [children]
    for group in filter(None, rows):
        row = etree.SubElement(table, "tr")
        for child in group:
            etree.SubElement(row, "td", valign="top").append(child)  # the child moves with its tail
    if body.text and body.text.strip():
        table[0][0].text, body.text = body.text, None


TRANSFORMS: dict[str, tuple[Callable[[lxml.html.HtmlElement], None], ...]] = {
    "reparse": (),
    "no-names": (no_names,),
    "no-html5": (no_html5,),
    "br-paragraphs": (br_paragraphs,),
    "tables": (tables,),
}
TRANSFORMS["old"] = tuple(step for name in ("no-names", "no-html5", "br-paragraphs", "tables")
                          for step in TRANSFORMS[name])


def _declare_utf8(doc: lxml.html.HtmlElement) -> None:
    """Replace the page's charset declarations by ``<meta charset="utf-8">``: the page is written
    back as UTF-8, and a declaration of its old charset would mislead the other extractors."""
    for meta in [m for m in doc.iter("meta")
                 if m.get("charset") is not None or (m.get("http-equiv") or "").lower() == "content-type"]:
        meta.drop_tree()
    head = doc.find("head")
    if head is None:
        head = etree.Element("head")
        doc.insert(0, head)
    head.insert(0, etree.Element("meta", charset="utf-8"))


def perturb(html: bytes, name: str) -> bytes:
    """The page rewritten by the named transform (see ``TRANSFORMS``), as UTF-8."""
    doc = parse(html)
    for step in TRANSFORMS[name]:
        step(doc)
    _declare_utf8(doc)
    return lxml.html.tostring(doc, encoding="utf-8", method="html", doctype="<!DOCTYPE html>")
