"""Bytes in, an lxml tree out: charset detection and tolerant parsing."""
from __future__ import annotations

import codecs
import re
import threading
import warnings
from functools import lru_cache

import lxml.html
from charset_normalizer import from_bytes
from lxml import etree

from .article import ExtractionError
from .nesting import flatten

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_\-:.]+)""", re.I)
_ASCII_MARKUP = re.compile(rb"\s*<[!?A-Za-z]")  # a document whose first tag reads in ASCII
_BOMS = [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")]
_BOM_PREFIXES = tuple(bom for bom, _ in _BOMS)


def _known(name: str | bytes | None) -> str | None:
    if not name:
        return None
    try:
        return text_codec(name.decode() if isinstance(name, bytes) else name)
    except UnicodeDecodeError:
        return None


def _decoded(data: bytes, codec: str, errors: str = "strict") -> str:
    """data.decode(codec), without the DeprecationWarning unicode_escape gives for each unknown escape it meets."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return data.decode(codec, errors)


# Every byte, to try a codec on.
_ALL_BYTES = bytes(range(256))


@lru_cache(maxsize=256)
def text_codec(name: str) -> str | None:
    """The codec's canonical name when it decodes any bytes to text, else None. Python
    also registers codecs that are no charset (zlib, base64, rot13, idna, undefined...):
    a page naming one has mislabelled itself, and the label is ignored."""
    try:
        codec = codecs.lookup(name).name
        _decoded(_ALL_BYTES, codec, errors="replace")
    except (LookupError, ValueError, TypeError):  # UnicodeError is a ValueError
        return None
    return codec


# The ASCII bytes markup is written in, and backslash escapes, which Python's unicode_escape and
# raw_unicode_escape (no charset of the web) read as other characters.
_MARKUP_BYTES = bytes(range(0x20, 0x7f)) + b"\\n\\u0041\\x41"


@lru_cache(maxsize=256)
def ascii_compatible(codec: str | None) -> str | None:
    """``codec`` if it reads ASCII markup as ASCII, else UTF-8. A <meta> tag that could be
    read as ASCII puts the page in an ASCII-compatible charset whatever it names: UTF-16
    or EBCDIC there is a mislabel (HTML's prescan reads UTF-16 labels as UTF-8 too)."""
    if codec is None:
        return None
    try:
        same = _decoded(_MARKUP_BYTES, codec) == _MARKUP_BYTES.decode("ascii")
    except ValueError:
        same = False
    return codec if same else "utf-8"


def contradicted(codec: str | None, data: bytes) -> bool:
    """Whether ``data``, whose first tag reads in ASCII, cannot be in ``codec`` (one that reads ASCII as something
    else: UTF-16, UTF-32, EBCDIC, Python's escape codecs)."""
    return bool(codec) and _ASCII_MARKUP.match(data) is not None and ascii_compatible(codec) != codec


def detect_charset(data: bytes, charset: str | None = None) -> tuple[str, int]:
    """(codec name, bytes to skip): BOM first, then the caller's (HTTP) charset, then
    <meta charset>, then detection.

    One exception: bytes that are valid UTF-8 with multi-byte characters are read as
    UTF-8 even when a <meta> tag names a legacy charset. Such pages were re-saved by a
    tool that kept the old tag; text in another charset is practically never valid
    UTF-8 by accident.
    """
    name, skip, _ = _sniff(data, charset)
    return name, skip


def _sniff(data: bytes, charset: str | None) -> tuple[str, int, str | None]:
    """``detect_charset`` plus the text, when finding the charset meant decoding it."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, len(bom), None
    name = _known(charset)
    # A page whose first tag reads in ASCII is not in the server's UTF-16, EBCDIC or escape codec: a mislabel,
    # ignored as a <meta> naming one is (the page was read as that codec's garble).
    if name and not contradicted(name, data):
        return name, 0, None
    match = _META_CHARSET.search(data[:4096])
    declared = ascii_compatible(_known(match.group(1))) if match else None
    if data.isascii():
        return declared or "utf-8", 0, None
    try:
        return "utf-8", 0, data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if declared:
        return declared, 0, None
    best = from_bytes(data[:200_000]).best()
    return (best.encoding if best else "windows-1252"), 0, None


def decode(data: bytes, charset: str | None = None) -> str:
    name, skip = detect_charset(data, charset)
    return data[skip:].decode(name, errors="replace")


# Up to the first ">", not "?>": a garbled declaration ("<?xml ... encoding='utf-8'>")
# still makes lxml refuse the str.
_XML_DECLARATION = re.compile(r"\s*<\?xml[^>]*>")
# lxml parsers must not be shared between threads; each thread keeps its own.
_LOCAL = threading.local()
# What an lxml element refuses to hold as text: C0 controls but tab and line breaks,
# lone surrogates and the two non-characters U+FFFE, U+FFFF (UTF-8 bytes EF BF BE/BF).
_CONTROL_BYTES = tuple(bytes([byte]) for byte in (*range(0, 9), 11, 12, *range(14, 32)))
_NONCHARACTER_LEAD = b"\xef"
_NONCHARACTER_BYTES = re.compile(b"\xef\xbf[\xbe\xbf]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# Character references ("&#12;") put the same characters back while parsing. Read from
# their "#": see _refers_to_control.
_CHAR_REF = {str: re.compile(r"#([xX][0-9a-fA-F]{1,6}|[0-9]{1,7})"),
             bytes: re.compile(rb"#([xX][0-9a-fA-F]{1,6}|[0-9]{1,7})")}
_HASH_AMPERSAND = {str: ("#", "&"), bytes: (b"#", b"&")}
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\ufffd]")


def xml_text(text: str) -> str:
    """text without the characters no XML document (nor an lxml element) can hold."""
    return _CONTROL.sub("", text)


def _looks_binary(text: str) -> bool:
    """Control characters and undecodable bytes are rare in any real page."""
    sample = text[:65536]
    return len(_NOT_TEXT.findall(sample)) > len(sample) // 20


def _xml_safe(data: bytes) -> bool:
    """No byte lxml would refuse as text, in UTF-8 ``data``."""
    # One memchr per control byte reads faster than one translate over the page.
    if any(map(data.__contains__, _CONTROL_BYTES)):
        return False
    # A search for the three bytes reads slowly (UTF-8 text is full of their last
    # bytes), so it runs only on pages that have their first byte at all (memchr).
    return _NONCHARACTER_LEAD not in data or _NONCHARACTER_BYTES.search(data) is None


def _refers_to_control(markup: str | bytes) -> bool:
    # A regex's search for "&#" steps through the page byte by byte; the "#"s, a hundred
    # or two a page, are found by memchr (a find of one character) in half the time.
    reference = _CHAR_REF[type(markup)]
    hash_sign, ampersand = _HASH_AMPERSAND[type(markup)]
    at = markup.find(hash_sign, 1)
    while at >= 0:
        if markup.startswith(ampersand, at - 1) and (match := reference.match(markup, at)):
            ref = match.group(1)
            code = int(ref[1:], 16) if ref[:1] in ("x", "X", b"x", b"X") else int(ref)
            if code < 0x110000 and _CONTROL.match(chr(code)):
                return True
        at = markup.find(hash_sign, at + 1)
    return False


def _scrub(doc) -> None:
    for el in doc.iter():
        if el.text and _CONTROL.search(el.text):
            el.text = _CONTROL.sub("", el.text)
        if el.tail and _CONTROL.search(el.tail):
            el.tail = _CONTROL.sub("", el.tail)


def _parser(encoding: str | None) -> etree.HTMLParser:
    """An HTML parser whose elements are all plain ``HtmlElement``s.

    lxml.html's own parser picks element classes with a lookup written in Python, run
    for every element the code touches; a fixed class lookup runs in C and keeps the
    HtmlElement methods (text_content, drop_tree...), only not the form helpers.
    """
    parsers = _LOCAL.__dict__.setdefault("parsers", {})
    if encoding not in parsers:
        # No ID table (collect_ids): nothing looks elements up by id through it, and
        # building it costs a tenth of the parse.
        parser = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, collect_ids=False,
                                  encoding=encoding)
        parser.set_element_class_lookup(etree.ElementDefaultClassLookup(
            element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
            pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity))
        parsers[encoding] = parser
    return parsers[encoding]


_INVALID_ENCODING = (etree.ErrorTypes.ERR_INVALID_ENCODING,)


def _too_deep(parser: etree.HTMLParser) -> bool:
    """Whether the last parse stopped at libxml2's depth cap, losing the rest of the page.

    libxml2 halts there, so that is the last error: reading only it keeps the test cheap on
    pages with thousands of harmless errors.
    """
    error = parser.error_log.last_error
    return error is not None and error.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT and "depth" in error.message


def _parse_as_utf8(data: bytes) -> lxml.html.HtmlElement | None:
    """The tree of non-ASCII bytes without a BOM when they are clean UTF-8, else None.

    Such bytes are read as UTF-8 whatever a <meta> says (see ``detect_charset``), and
    libxml2 reports bytes that are not UTF-8 as it parses, so they go to lxml without
    being decoded first to find out (a tenth of the parse). On that report the tree is
    dropped and the charset is found as usual.
    """
    if data.isascii() or data.startswith(_BOM_PREFIXES) or not _xml_safe(data):
        return None
    doc = error = None
    try:
        doc = _parse(data, "utf-8")
    except ExtractionError as exc:
        error = exc
    if _parser("utf-8").error_log.filter_types(_INVALID_ENCODING):
        return None
    if error is not None:
        raise error
    return doc


def parse(html: str | bytes, charset: str | None = None) -> lxml.html.HtmlElement:
    """Parse a page; raise ExtractionError for input that holds no HTML document."""
    if isinstance(html, bytes):
        if not html or html.isspace():
            raise ExtractionError("empty document")
        doc = _parse_as_utf8(html) if charset is None else None
        if doc is not None:
            return doc
        name, skip, text = _sniff(html, charset)
        # Clean UTF-8 goes to lxml as bytes, sparing lxml a re-encode.
        if name == "utf-8" and _xml_safe(html[skip:]):
            del text  # the decoded copy is not needed while lxml builds the tree
            return _parse(html[skip:], "utf-8")
        html = text if text is not None else html[skip:].decode(name, errors="replace")
    if not html.strip():
        raise ExtractionError("empty document")
    if _looks_binary(html):
        raise ExtractionError("binary data, not HTML")
    # lxml refuses these in text set later (cleaning joins tails, methods build new
    # paragraphs), so they go here, once, and no method needs to strip them.
    text = xml_text(html)
    # Encoding declarations inside a str confuse lxml; the text is already decoded.
    declaration = _XML_DECLARATION.match(text)
    if declaration:
        text = text[declaration.end():]
    return _parse(text, None)


def parse_fragment(html: str) -> lxml.html.HtmlElement:
    """An HTML fragment (a feed's content) under a new ``<div>``, nesting past the parser's cap flattened."""
    parser = _parser(None)
    root = lxml.html.fragment_fromstring(html, create_parent="div", parser=parser)
    if _too_deep(parser):
        root = lxml.html.fragment_fromstring(flatten(html), create_parent="div", parser=parser)
    return root


def _parse(markup: str | bytes, encoding: str | None) -> lxml.html.HtmlElement:
    try:
        doc = lxml.html.document_fromstring(markup, parser=_parser(encoding))
        if _too_deep(_parser(encoding)):
            text = markup.decode(encoding or "utf-8", "replace") if isinstance(markup, bytes) else markup
            doc = lxml.html.document_fromstring(flatten(text), parser=_parser(None))
    except (etree.ParserError, ValueError) as exc:
        raise ExtractionError(f"unparseable HTML: {exc}") from exc
    if doc is None:
        raise ExtractionError("no HTML document found")
    if _refers_to_control(markup):
        _scrub(doc)
    return doc
