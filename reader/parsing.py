"""Feed bytes -> ParsedFeed: RSS 0.9x/1.0/2.0 and Atom through feedparser, JSON Feed through jsonfeed.

Everything leaves here sanitized, with links absolute, whatever the format. Nothing here fetches:
feedparser is given a stream, never a URL or a path.
"""
from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone as dt_timezone
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import feedparser
import feedparser.encodings
import lxml.html
import nh3
from lxml.etree import ParserError

# A document type that declares entities can expand into gigabytes or read local files; feeds never need one.
_ENTITY_DECLARATION = re.compile(rb"<!ENTITY|<\x00!\x00E\x00N\x00T\x00I\x00T\x00Y|\x00<\x00!\x00E\x00N\x00T\x00I\x00T\x00Y")
# When a feed's declared encoding fails, feedparser asks chardet (if some other package installed it), whose
# guess is quadratic in runs of letters: a 3 KB attribute cost seconds, a hostile 10 MB feed hours. The fixed
# fallbacks that follow it (utf-8, windows-1252, iso-8859-2) decode anything, so chardet is switched off.
feedparser.encodings.lazy_chardet_encoding = None
_TRACKING = re.compile(r"^(utm_|mc_|fbclid$|gclid$|ref$|cmpid$)")


class NotAFeed(Exception):
    """The bytes are not a feed we can read; the message says why."""


@dataclass
class ParsedEntry:
    guid: str
    url: str
    title: str
    author: str
    published: datetime | None
    tags: list[str]
    content_html: str  # sanitized, links absolute
    enclosures: list[dict] = field(default_factory=list)
    thumbnail: str = ""


@dataclass
class ParsedFeed:
    format: str
    title: str
    site_url: str
    entries: list[ParsedEntry]
    ttl_minutes: int | None = None
    total_entries: int = 0  # before any cap
    problem: str = ""  # what was wrong but could be read around (invalid XML, a wrong charset)


def plain_text(html: str) -> str:
    """Text of an HTML fragment, whitespace collapsed (titles may hold markup or entities)."""
    if not html or not html.strip():
        return ""
    if "<" not in html and "&" not in html:
        return " ".join(html.split())
    try:
        return " ".join(lxml.html.fragment_fromstring(html, create_parent="div").text_content().split())
    except (ParserError, ValueError):
        return " ".join(html.split())


def clean_html(html: str, base: str) -> str:
    """Sanitize feed content and make its links absolute against base."""
    if not html.strip():
        return ""
    try:
        wrapper = lxml.html.fragment_fromstring(html, create_parent="div")
        wrapper.make_links_absolute(base, resolve_base_href=False, handle_failures="discard")
        html = lxml.html.tostring(wrapper, encoding="unicode")[len("<div>"):-len("</div>")]
    except (ParserError, ValueError):
        pass
    return nh3.clean(html)


def normalised_link(url: str) -> str:
    """The same article behind small link variations: scheme, case, port, fragment, tracking parameters."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower().removeprefix("www.")
        port = parts.port
    except ValueError:
        return url.strip()
    if port and port not in (80, 443):
        host = f"{host}:{port}"
    query = urlencode(sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.match(k)))
    return urlunsplit(("", host, parts.path.rstrip("/") or "/", query, ""))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def parse(content: bytes, url: str, content_type: str = "", max_entries: int = 500) -> ParsedFeed:
    from . import jsonfeed

    head = content[:4096].lstrip()
    if "json" in content_type or head.startswith((b"{", b"\xef\xbb\xbf{")):
        parsed = jsonfeed.parse(content, url)
    else:
        parsed = _parse_xml(content, url, content_type)
    parsed.total_entries = len(parsed.entries)
    parsed.entries = [_without_nul(entry) for entry in parsed.entries[:max_entries]]
    return _without_nul(parsed)


def _without_nul(record):
    """PostgreSQL text and JSON cannot hold NUL characters, and no feed means one: drop them from every field."""
    def scrub(value):
        if isinstance(value, str):
            return value.replace("\x00", "")
        if isinstance(value, list):
            return [scrub(v) for v in value]
        if isinstance(value, dict):
            return {scrub(k): scrub(v) for k, v in value.items()}
        return value

    for name in (f.name for f in fields(record) if f.name != "entries"):
        setattr(record, name, scrub(getattr(record, name)))
    return record


def _parse_xml(content: bytes, url: str, content_type: str) -> ParsedFeed:
    if not content.strip():
        raise NotAFeed("not a feed: the response was empty")
    # The whole document, not its head: comments before the DOCTYPE can push a declaration past any prefix.
    if _ENTITY_DECLARATION.search(content):
        raise NotAFeed("refused: the feed declares XML entities (entity expansion or external entity attack)")
    # A stream, never a str or bytes: feedparser would otherwise open URLs or local paths itself.
    parsed = feedparser.parse(io.BytesIO(content), response_headers={"content-location": url,
                                                                     "content-type": content_type or "application/xml"})
    if not parsed.version and not parsed.entries:
        looks_html = b"<html" in content[:2048].lower()
        raise NotAFeed("not a feed: " + ("an HTML page, not RSS, Atom or JSON Feed" if looks_html
                                         else str(parsed.get("bozo_exception") or "no feed title and no entries")))
    if parsed.bozo and not parsed.entries:
        raise NotAFeed(f"not a feed: invalid XML: {parsed.get('bozo_exception')}")
    base = parsed.feed.get("link") or url
    ttl = parsed.feed.get("ttl", "")
    return ParsedFeed(
        format=parsed.version or "unknown",
        title=plain_text(parsed.feed.get("title", ""))[:500],
        site_url=urljoin(url, parsed.feed.get("link", ""))[:2000] if parsed.feed.get("link") else "",
        entries=[_xml_entry(entry, url, base) for entry in parsed.entries],
        ttl_minutes=int(ttl) if str(ttl).strip().isdigit() else None,
        problem=f"read leniently: {parsed.get('bozo_exception')}" if parsed.bozo else "",
    )


def _xml_entry(entry, url: str, base: str) -> ParsedEntry:
    content = entry.get("content") or []
    html = content[0].get("value", "") if content else entry.get("summary", "")
    link = urljoin(url, entry.get("link", "")) if entry.get("link") else ""
    title = plain_text(entry.get("title", ""))
    stamp = entry.get("published_parsed") or entry.get("updated_parsed")
    enclosures = [{"url": urljoin(url, e.get("href", "")), "type": e.get("type", ""), "length": e.get("length", "")}
                  for e in entry.get("enclosures", []) if e.get("href")]
    thumbs = [t.get("url") for t in entry.get("media_thumbnail", []) if t.get("url")]
    thumbs += [m.get("url") for m in entry.get("media_content", [])
               if m.get("url") and (m.get("medium") == "image" or m.get("type", "").startswith("image/"))]
    thumbs += [e["url"] for e in enclosures if e["type"].startswith("image/")]
    return ParsedEntry(
        guid=entry.get("id") or link or digest(title + html),
        url=link,
        title=title,
        author=plain_text(entry.get("author", "")),
        published=datetime(*stamp[:6], tzinfo=dt_timezone.utc) if stamp else None,
        tags=[t.get("term", "") for t in entry.get("tags", []) if t.get("term")],
        content_html=clean_html(html, link or base),
        enclosures=enclosures,
        thumbnail=urljoin(url, thumbs[0]) if thumbs else "",
    )
