"""Feed bytes -> ParsedFeed: RSS 0.9x/1.0/2.0 and Atom through feedparser, JSON Feed through jsonfeed.

Everything leaves here sanitized, with links absolute, whatever the format. Nothing here fetches:
feedparser is given a stream, never a URL or a path. A field that cannot be read (a URL of "http://[x/", a
date in year 0) is dropped or clamped and noted in ParsedFeed.problem; the rest of the entry and feed is kept.
"""
from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta, timezone as dt_timezone
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import feedparser
import feedparser.encodings
import lxml.html
import nh3
from lxml.etree import ParserError

from . import charsets
from .digits import MAX_DIGITS, whole_number

# A document type that declares entities can expand into gigabytes or read local files; feeds never need one.
_ENTITY_DECLARATION = re.compile(rb"<!ENTITY|<\x00!\x00E\x00N\x00T\x00I\x00T\x00Y|\x00<\x00!\x00E\x00N\x00T\x00I\x00T\x00Y")
# When neither the server nor the document names a charset that decodes the bytes, feedparser asks this
# detector before its fixed fallbacks (utf-8, windows-1252, iso-8859-2), which decode anything, garbled.
feedparser.encodings.lazy_chardet_encoding = charsets.detect
_TRACKING = re.compile(r"^(utm_|mc_|fbclid$|gclid$|ref$|cmpid$)")
# The end of an RSS <item> or Atom <entry>, namespaced or not: where a document may be cut after N entries.
_ENTRY_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?(?:item|entry)\s*>")
_EMAIL = re.compile(r"<?[^\s()<>@]+@[^\s()<>@]+>?")
# Dates outside these bounds are a generator's bug, and year 0 or 10000 cannot even be stored.
EARLIEST = datetime(1970, 1, 1, tzinfo=dt_timezone.utc)
FUTURE_SLACK = timedelta(days=1)  # clocks disagree; a story dated later than this is dated now
_FOREIGN = ("math", "svg")
_PARSE_ERRORS = (ValueError, TypeError, OverflowError, AttributeError, KeyError, IndexError, RecursionError)


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
    problem: str = ""  # what was wrong but could be read around (invalid XML, a wrong charset, a bad field)


class Notes:
    """What was read around in one feed, each kind once with how often: it becomes ParsedFeed.problem."""

    def __init__(self):
        self.counts: dict[str, int] = {}

    def add(self, message: str) -> None:
        self.counts[message] = self.counts.get(message, 0) + 1

    def __str__(self) -> str:
        return "; ".join(m if n == 1 else f"{m} ({n} times)" for m, n in self.counts.items())


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


def text_field(value: str, is_html: bool) -> str:
    """A title or name as text: markup is read only where the feed says the field is HTML."""
    return plain_text(value) if is_html else " ".join((value or "").split())


def author_name(value: str) -> str:
    """A person's name without the e-mail address feeds put beside it ("Me (me@x)", "me@x (Me)")."""
    name = re.sub(r"\(\s*\)", "", _EMAIL.sub("", value or "")).strip()
    if name.startswith("(") and name.endswith(")"):
        name = name[1:-1]
    return " ".join(name.split())


def absolute_url(base: str, href, notes: Notes, what: str) -> str:
    """href made absolute against base, or "" (noted) when it is not a URL at all, such as "http://[x/"."""
    if not isinstance(href, str) or not href.strip():
        return ""
    try:
        url = urljoin(base, href.strip())
        urlsplit(url).port  # raises for an invalid IPv6 host or port
    except ValueError:
        notes.add(f"dropped an invalid {what} URL")
        return ""
    return url


def sane_date(stamp: datetime | None, notes: Notes) -> datetime | None:
    """stamp clamped between 1970 and now (the bounds noted): year 0 or 9999 cannot be stored."""
    if stamp is None:
        return None
    try:
        utc = stamp.astimezone(dt_timezone.utc)
    except OverflowError:  # year 1 east of UTC, or year 9999 west of it
        utc = EARLIEST - FUTURE_SLACK if stamp.year < EARLIEST.year else datetime.max.replace(tzinfo=dt_timezone.utc)
    now = datetime.now(dt_timezone.utc)
    if utc < EARLIEST:
        notes.add("a date before 1970 was read as 1970-01-01")
        return EARLIEST
    if utc > now + FUTURE_SLACK:
        notes.add("a date in the future was read as the time of fetching")
        return now
    return stamp


def _struct_date(stamp, notes: Notes) -> datetime | None:
    """feedparser's UTC time tuple as a datetime; it keeps years such as 0 that datetime refuses."""
    if not stamp:
        return None
    try:
        return sane_date(datetime(*stamp[:6], tzinfo=dt_timezone.utc), notes)
    except (ValueError, OverflowError):
        return sane_date(EARLIEST - FUTURE_SLACK if stamp[0] < EARLIEST.year else
                         datetime.max.replace(tzinfo=dt_timezone.utc), notes)


def read_entries(items, build, notes: Notes) -> list[ParsedEntry]:
    """build(item) for each item; an item that still cannot be read is left out and noted, never the feed."""
    entries = []
    for item in items:
        try:
            entries.append(build(item))
        except _PARSE_ERRORS as exc:
            notes.add(f"an entry could not be read and was left out ({type(exc).__name__})")
    return entries


def clean_html(html: str, base: str) -> str:
    """Sanitize feed content and make its links absolute against base."""
    if not html.strip():
        return ""
    try:
        wrapper = lxml.html.fragment_fromstring(html, create_parent="div")
        _foreign_as_text(wrapper)
        wrapper.make_links_absolute(base, resolve_base_href=False, handle_failures="discard")
        html = lxml.html.tostring(wrapper, encoding="unicode")[len("<div>"):-len("</div>")]
    except (ParserError, ValueError):
        pass
    return nh3.clean(html)


def _foreign_as_text(wrapper) -> None:
    """MathML and SVG become their text (MathML's alttext when it has one): the sanitizer drops them whole."""
    foreign = [e for e in wrapper.iter() if isinstance(e.tag, str) and e.tag.rpartition(":")[2].lower() in _FOREIGN]
    for element in foreign:
        if element.getroottree().getroot() is not wrapper:  # inside one replaced already
            continue
        replacement = lxml.html.Element("span")
        replacement.text = element.get("alttext") or " ".join(element.text_content().split())
        replacement.tail = element.tail
        element.getparent().replace(element, replacement)


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

    notes = Notes()
    head = content[:4096].lstrip()
    if "json" in content_type or head.startswith((b"{", b"\xef\xbb\xbf{")):
        parsed = jsonfeed.parse(content, url, max_entries, notes)
    else:
        parsed = _parse_xml(content, url, charsets.usable_content_type(content_type, notes), max_entries, notes)
    parsed.entries = [_without_nul(entry) for entry in parsed.entries[:max_entries]]
    parsed.problem = "; ".join(p for p in (parsed.problem, str(notes)) if p)
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


def first_entries(content: bytes, max_entries: int) -> tuple[bytes, int]:
    """The document cut after its first max_entries items (the closing tags kept), and how many it has.

    feedparser reads every item, and a 3,000-item feed of long items took a worker close to a minute.
    """
    ends = [m.span() for m in _ENTRY_END.finditer(content)]
    if len(ends) <= max_entries:
        return content, len(ends)
    return content[:ends[max_entries - 1][1]] + content[ends[-1][1]:], len(ends)


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
    content = charsets.usable_declaration(content, notes)
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
        published=_struct_date(entry.get("published_parsed") or entry.get("updated_parsed"), notes),
        tags=[t.get("term", "") for t in entry.get("tags", []) if t.get("term")],
        content_html=clean_html(html, absolute_url(url, detail.get("base"), notes, "xml:base") or url),
        enclosures=enclosures,
        thumbnail=thumbnail,
    )
