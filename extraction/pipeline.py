"""extract(): decode, parse, read metadata, find the article with a method, clean and render it."""
from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from .article import Article, ExtractionError
from .clean import clean_article, unhide
from .document import parse
from .metadata import read_metadata
from .methods import get_method_with_blocks
from .render import element_text, sanitized_html


# An absolute http(s) address that urljoin returns as it is, whatever the base: lower-case
# scheme, a plain host (no user, no IPv6 brackets), no path parameters (";"), no empty
# query or fragment (urljoin drops a bare "?" or "#"), printable ASCII only. Most links
# in articles are such, and urljoin costs about as much as the rest of the rewriting.
_PLAIN_ABSOLUTE = re.compile(r"https?://[A-Za-z0-9.\-]+(?::[0-9]+)?(?:/[^;?#\s]*)?(?:\?[^#\s]+)?(?:#\S+)?\Z",
                             re.ASCII)


def absolute_url(base: str, value: str) -> str:
    """``urljoin(base, value)``, sparing the parse for addresses that are already absolute."""
    if value.isascii() and value.isprintable() and _PLAIN_ABSOLUTE.match(value):
        return value
    return urljoin(base, value)


def _absolute_links(node, base: str) -> None:
    """Point links and images at absolute addresses; the sanitizer keeps only these two
    kinds of URL, so only they are rewritten. A link that cannot be resolved goes."""
    for el in node.iter("a", "img"):
        attr = "href" if el.tag == "a" else "src"
        value = el.get(attr)
        if value is None:
            continue
        try:
            el.set(attr, absolute_url(base, value.strip()))
        except ValueError:
            del el.attrib[attr]


def _resolved(base: str | None, value: str) -> str | None:
    """``value`` made absolute against ``base``; None when the result is no URL at all
    (``http://[x/``: an unclosed IPv6 bracket)."""
    try:
        joined = urljoin(base or "", value.strip())
        urlsplit(joined)
    except ValueError:
        return None
    return joined


def _base_url(base_href: str | None, url: str | None) -> str | None:
    """The address relative links resolve against: <base href> over the page's URL. A
    base or URL that does not parse is ignored, as a browser ignores it."""
    if url is not None and _resolved(None, url) is None:
        url = None
    if base_href is not None:
        return _resolved(url, base_href) or url
    return url


def extract(html: str | bytes, url: str | None = None, method: str = "clump", charset: str | None = None) -> Article:
    find_article = get_method_with_blocks(method)
    doc = parse(html, charset)
    meta = read_metadata(doc)
    base = _base_url(meta.base_href, url)
    # Methods may cut the page apart; everything read from the whole page is read above.
    try:
        node, blocks = find_article(doc)
    except ExtractionError:
        # No visible text: a page whose text waits for a script. A browser running it
        # shows the text, so the page is read again with it shown.
        doc = parse(html, charset)
        unhide(doc)
        node, blocks = find_article(doc)
    # A heading goes only when it repeats the title the page declares, not when the
    # title was read from that heading (an <h1> that <title> does not repeat is story).
    clean_article(node, meta.declared_title, blocks)
    text = element_text(node)
    if not text:
        raise ExtractionError("no article text found")
    if base:
        _absolute_links(node, base)
    lead_image = _resolved(base, meta.lead_image) if meta.lead_image else None
    return Article(title=meta.title, text=text, html=sanitized_html(node), lead_image=lead_image,
                   author=meta.author, published=meta.published, language=meta.language, method=method, url=url)
