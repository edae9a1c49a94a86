"""extract(): decode, parse, find the article with a method, render text and HTML."""
from __future__ import annotations

import copy

import lxml.html
import nh3

from .article import Article, ExtractionError
from .document import parse
from .methods import get_method

_BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre", "tr", "figcaption", "section", "article", "br"}


def _title(doc) -> str:
    for path in ("//meta[@property='og:title']/@content", "//h1//text()", "//title//text()"):
        found = " ".join(s.strip() for s in doc.xpath(path) if s.strip())
        if found:
            return found
    return ""


def _text(root) -> str:
    """Paragraphs separated by blank lines: block tags break, inline tags do not."""
    parts: list[str] = []

    def walk(el):
        block = el.tag in _BLOCKS
        if block:
            parts.append("\n\n")
        parts.append(el.text or "")
        for child in el:
            if isinstance(child.tag, str):
                walk(child)
            parts.append(child.tail or "")
        if block:
            parts.append("\n\n")

    walk(root)
    paragraphs = ("".join(parts)).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def extract(html: str | bytes, url: str | None = None, method: str = "clump", charset: str | None = None) -> Article:
    find_article = get_method(method)
    doc = parse(html, charset)
    if url:
        doc.make_links_absolute(url, resolve_base_href=True, handle_failures="discard")
    title = _title(doc)
    node = find_article(copy.deepcopy(doc))
    text = _text(node)
    if not text:
        raise ExtractionError("no article text found")
    body = nh3.clean(lxml.html.tostring(node, encoding="unicode"))
    return Article(title=title, text=text, html=body, method=method, url=url)
