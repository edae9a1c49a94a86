"""Feed bytes -> ParsedFeed: RSS 0.9x/1.0/2.0 and Atom through feedparser, JSON Feed through jsonfeed.

Everything leaves here sanitized, with links absolute, whatever the format. Nothing here fetches:
feedparser is given a stream, never a URL or a path. A field that cannot be read (a URL of "http://[x/", a
date in year 0) is dropped or clamped and noted in ParsedFeed.problem; the rest of the entry and feed is kept.
"""
from __future__ import annotations

import io
import re
from dataclasses import fields
from datetime import datetime, timezone as dt_timezone

import feedparser
import feedparser.encodings

from extraction.document import xml_text

from . import charsets, jsonfeed
from .digits import MAX_DIGITS, whole_number
from .feed_fields import (EARLIEST, FUTURE_SLACK, NotAFeed, Notes, ParsedEntry, ParsedFeed, absolute_url, author_name,
                          clean_html, digest, read_entries, sane_date, text_field)

# A document type that declares entities can expand into gigabytes or read local files; feeds never need one.
_ENTITY_DECLARATION = re.compile(rb"<!ENTITY|<\x00!\x00E\x00N\x00T\x00I\x00T\x00Y|\x00<\x00!\x00E\x00N\x00T\x00I\x00T\x00Y")
# When neither the server nor the document names a charset that decodes the bytes, feedparser asks this
# detector before its fixed fallbacks (utf-8, windows-1252, iso-8859-2), which decode anything, garbled.
feedparser.encodings.lazy_chardet_encoding = charsets.detect
# A numeric character reference. One to no character (a lone surrogate, past U+10FFFF, more digits than
# Python reads as a number) crashed feedparser's lenient parser, and with it the whole feed.
_CHAR_REF = re.compile(rb"&#([xX][0-9a-fA-F]+|[0-9]+)")
_MAX_REF_DIGITS = 8
# How an XML document starts, in UTF-8 (with or without a byte order mark) or UTF-16.
_MARKUP_START = (b"<", b"\xef\xbb\xbf<", b"\xff\xfe<\x00", b"\xfe\xff\x00<")
# The end of an RSS <item> or Atom <entry>, namespaced or not: where a document may be cut after N entries.
_ENTRY_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?(?:item|entry)\s*>")
# feedparser rolls an ISO 8601 date's fields over instead of refusing them: "2024-13-45" came out as
# 2025-01-01 and "2024-02-30" as 1 March, dates the feed never gave. Such a date is dropped, as in JSON Feed.
_ISO_DATE = re.compile(r"\s*([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?")


def _struct_date(stamp, notes: Notes) -> datetime | None:
    """feedparser's UTC time tuple as a datetime; it keeps years such as 0 that datetime refuses."""
    if not stamp:
        return None
    try:
        return sane_date(datetime(*stamp[:6], tzinfo=dt_timezone.utc), notes)
    except (ValueError, OverflowError):
        return sane_date(EARLIEST - FUTURE_SLACK if stamp[0] < EARLIEST.year else
                         datetime.max.replace(tzinfo=dt_timezone.utc), notes)


def _entry_date(entry, notes: Notes) -> datetime | None:
    """The entry's published date, else its updated one, each only if it is a day and time on the calendar."""
    for field in ("published", "updated"):
        # dict.get: feedparser's own get() answers "updated" with "published" when there is none, and warns.
        written, stamp = dict.get(entry, field), dict.get(entry, f"{field}_parsed")
        if stamp and not _impossible_date(written):
            return _struct_date(stamp, notes)
        if written or stamp:  # feedparser reads no year 0, nor "next Tuesday"
            notes.add("a date that could not be read as a day on the calendar was dropped")
    return None


def _impossible_date(written) -> bool:
    match = _ISO_DATE.match(written) if isinstance(written, str) else None
    if not match:
        return False  # feedparser's other date formats refuse what is out of range
    year, month, day, hour, minute, second = (int(part or 0) for part in match.groups())
    if (hour, minute, second) == (24, 0, 0):  # ISO 8601's end of a day
        hour = 23
    try:  # year 0 is clamped later, and a leap second is a second
        datetime(max(year, 1), month, day, hour, minute, min(second, 59))
    except ValueError:
        return True
    return False


def parse(content: bytes, url: str, content_type: str = "", max_entries: int = 500) -> ParsedFeed:
    notes = Notes()
    head = content[:4096].lstrip()
    # The body decides over the server's type: an RSS feed served as application/json was refused whole.
    markup = head.startswith(_MARKUP_START)
    if not markup and ("json" in content_type or head.startswith((b"{", b"\xef\xbb\xbf{"))):
        parsed = jsonfeed.parse(content, url, max_entries, notes)
    else:
        content, content_type = charsets.utf8_by_bom(content, content_type)
        parsed = _parse_xml(content, url, charsets.usable_content_type(content_type, notes, content), max_entries,
                             notes)
    parsed.entries = [_without_controls(entry) for entry in parsed.entries[:max_entries]]
    parsed.problem = "; ".join(p for p in (parsed.problem, str(notes)) if p)
    return _without_controls(parsed)


def _without_controls(record):
    """Control characters out of every field: no feed means one, PostgreSQL cannot store NUL, and any of them
    shown as nothing here breaks the XML documents the field is later written into (OPML export)."""
    def scrub(value):
        if isinstance(value, str):
            return xml_text(value)
        if isinstance(value, list):
            return [scrub(v) for v in value]
        if isinstance(value, dict):
            return {scrub(k): scrub(v) for k, v in value.items()}
        return value

    for name in (f.name for f in fields(record) if f.name != "entries"):
        setattr(record, name, scrub(getattr(record, name)))
    return record


def first_entries(content: bytes, max_entries: int) -> tuple[bytes, int]:
    """The document cut after its first max_entries items (the closing tags kept), and how many it has.

    feedparser reads every item, and a 3,000-item feed of long items took a worker close to a minute.
    """
    ends = [m.span() for m in _ENTRY_END.finditer(content)]
    if len(ends) <= max_entries:
        return content, len(ends)
    return content[:ends[max_entries - 1][1]] + content[ends[-1][1]:], len(ends)


def _readable_references(content: bytes, notes: Notes) -> bytes:
    """The document with each reference to no character made U+FFFD's, as HTML reads them."""
    def readable(match: re.Match) -> bytes:
        ref = match.group(1)
        digits, base = (ref[1:], 16) if ref[:1] in b"xX" else (ref, 10)
        code = int(digits, base) if len(digits.lstrip(b"0")) <= _MAX_REF_DIGITS else -1
        if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            return match.group(0)
        notes.add("a character reference that names no character was read as \ufffd")
        return b"&#xFFFD"

    return _CHAR_REF.sub(readable, content) if b"&#" in content else content


def _feedparser(content: bytes, url: str, content_type: str):
    # A stream, never a str or bytes: feedparser would otherwise open URLs or local paths itself. Its own
    # sanitizer and link resolver are off: clean_html does both for every entry (with nh3 and lxml, against
    # the base feedparser reports: xml:base, else the feed's address), and feedparser's took three quarters
    # of the time a large feed costs.
    return feedparser.parse(io.BytesIO(content), sanitize_html=False, resolve_relative_uris=False,
                            response_headers={"content-location": url,
                                              "content-type": content_type or "application/xml"})


def _parse_xml(content: bytes, url: str, content_type: str, max_entries: int, notes: Notes) -> ParsedFeed:
    if not content.strip():
        raise NotAFeed("not a feed: the response was empty")
    # The whole document, not its head: comments before the DOCTYPE can push a declaration past any prefix.
    if _ENTITY_DECLARATION.search(content):
        raise NotAFeed("refused: the feed declares XML entities (entity expansion or external entity attack)")
    content = _readable_references(charsets.usable_declaration(content, notes), notes)
    first, total = first_entries(content, max_entries) if max_entries > 0 else (content, 0)
    parsed = _feedparser(first, url, content_type)
    if first is not content and len(parsed.entries) < max_entries:  # the cut fell inside a CDATA section
        parsed, first = _feedparser(content, url, content_type), content
    if not parsed.version and not parsed.entries:
        looks_html = b"<html" in content[:2048].lower()
        raise NotAFeed("not a feed: " + ("an HTML page, not RSS, Atom or JSON Feed" if looks_html
                                         else str(parsed.get("bozo_exception") or "no feed title and no entries")))
    if parsed.bozo and not parsed.entries:
        raise NotAFeed(f"not a feed: invalid XML: {parsed.get('bozo_exception')}")
    site = absolute_url(url, parsed.feed.get("link"), notes, "site")
    ttl = _ttl(str(parsed.feed.get("ttl", "")), notes)
    return ParsedFeed(
        format=parsed.version or "unknown",
        title=_title(parsed.feed)[:500],
        site_url=site[:2000],
        entries=read_entries(parsed.entries[:max_entries], lambda e: _xml_entry(e, url, notes), notes),
        ttl_minutes=ttl,
        total_entries=total if first is not content else len(parsed.entries),
        problem=f"read leniently: {parsed.get('bozo_exception')}" if parsed.bozo else "",
    )


def _ttl(text: str, notes: Notes) -> int | None:
    minutes = whole_number(text)
    if text.strip() and minutes is None:
        notes.add("ignored a <ttl> that is not a number of minutes")
    elif minutes is not None and len(text.strip().lstrip("0")) > MAX_DIGITS:
        notes.add(f"read a <ttl> of {len(text.strip())} digits as {minutes} minutes")
    return minutes


def _title(node) -> str:
    return text_field(node.get("title", ""), "html" in node.get("title_detail", {}).get("type", "html"))


def _authors(entry) -> str:
    names = [author_name(a.get("name") or a.get("email") or "") for a in entry.get("authors") or []]
    names = list(dict.fromkeys(n for n in names if n)) or [author_name(entry.get("author", ""))]
    return ", ".join(names)


def _media(entry, url: str, notes: Notes) -> tuple[list[dict], str]:
    """(enclosures, thumbnail): invalid URLs dropped."""
    enclosures = []
    for enclosure in entry.get("enclosures", []):
        href = absolute_url(url, enclosure.get("href"), notes, "enclosure")
        if href:
            enclosures.append({"url": href, "type": enclosure.get("type", ""), "length": enclosure.get("length", "")})
    thumbs = [t.get("url") for t in entry.get("media_thumbnail", [])]
    thumbs += [m.get("url") for m in entry.get("media_content", [])
               if m.get("medium") == "image" or m.get("type", "").startswith("image/")]
    thumbs = [absolute_url(url, t, notes, "thumbnail") for t in thumbs]
    thumbs += [e["url"] for e in enclosures if e["type"].startswith("image/")]
    return enclosures, next((t for t in thumbs if t), "")


def _xml_entry(entry, url: str, notes: Notes) -> ParsedEntry:
    content = entry.get("content") or []
    detail = content[0] if content else entry.get("summary_detail") or {}
    html = detail.get("value", "")
    link = absolute_url(url, entry.get("link"), notes, "entry link")
    title = _title(entry)
    enclosures, thumbnail = _media(entry, url, notes)
    return ParsedEntry(
        guid=entry.get("id") or link or digest(title + html),
        url=link,
        title=title,
        author=_authors(entry),
        published=_entry_date(entry, notes),
        tags=[t.get("term", "") for t in entry.get("tags", []) if t.get("term")],
        content_html=clean_html(html, absolute_url(url, detail.get("base"), notes, "xml:base") or url),
        enclosures=enclosures,
        thumbnail=thumbnail,
    )
