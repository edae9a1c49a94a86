"""Bytes in, an lxml tree out: charset detection and tolerant parsing."""
from __future__ import annotations

import codecs
import re

import lxml.html
from charset_normalizer import from_bytes
from lxml import etree

from .article import ExtractionError

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_\-:.]+)""", re.I)
_BOMS = [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")]


def _known(name: str | None) -> str | None:
    if not name:
        return None
    try:
        return codecs.lookup(name.decode() if isinstance(name, bytes) else name).name
    except (LookupError, UnicodeDecodeError):
        return None


def decode(data: bytes, charset: str | None = None) -> str:
    """BOM first, then the caller's (HTTP) charset, then <meta charset>, then detection.

    One exception: bytes that are valid UTF-8 with multi-byte characters are read as
    UTF-8 even when a <meta> tag names a legacy charset. Such pages were re-saved by a
    tool that kept the old tag; text in another charset is practically never valid
    UTF-8 by accident.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace")
    name = _known(charset)
    if name:
        return data.decode(name, errors="replace")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and (len(text) < len(data) or not _META_CHARSET.search(data[:4096])):
        return text
    match = _META_CHARSET.search(data[:4096])
    name = _known(match.group(1)) if match else None
    if not name:
        best = from_bytes(data[:200_000]).best()
        name = best.encoding if best else "windows-1252"
    return data.decode(name, errors="replace")


_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\ufffd]")


def _looks_binary(text: str) -> bool:
    """Control characters and undecodable bytes are rare in any real page."""
    sample = text[:65536]
    return len(_NOT_TEXT.findall(sample)) > len(sample) // 20


def parse(html: str | bytes, charset: str | None = None) -> lxml.html.HtmlElement:
    """Parse a page; raise ExtractionError for input that holds no HTML document."""
    text = decode(html, charset) if isinstance(html, bytes) else html
    if not text or not text.strip():
        raise ExtractionError("empty document")
    if _looks_binary(text):
        raise ExtractionError("binary data, not HTML")
    text = _CONTROL.sub("", text)
    # Encoding declarations inside a str confuse lxml; the text is already decoded.
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text)
    parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True)
    try:
        doc = lxml.html.document_fromstring(text, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        raise ExtractionError(f"unparseable HTML: {exc}") from exc
    if doc is None:
        raise ExtractionError("no HTML document found")
    return doc
