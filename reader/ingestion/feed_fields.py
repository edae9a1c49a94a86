"""What every feed format is read into (ParsedFeed, ParsedEntry, Notes) and the field readers the formats share:
text, names, URLs, dates, sanitized HTML. parsing (RSS/Atom) and jsonfeed (JSON Feed) both build on it.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone as dt_timezone
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import lxml.html
from lxml.etree import ParserError

from extraction.document import parse_fragment
from extraction.render import html_to_text
from extraction.sanitize import clean_feed_html

_TRACKING = re.compile(r"^(utm_|mc_|fbclid$|gclid$|ref$|cmpid$)")
# Starts only where a run of address characters starts, and never gives back what it took: a
# 40,000-character name without an "@" took 6 s when every position inside the run was tried.
_EMAIL = re.compile(r"(?<![^\s()<>@])<?[^\s()<>@]++@[^\s()<>@]++>?")
# Dates outside these bounds are a generator's bug, and year 0 or 10000 cannot even be stored.
# Feed.url holds 2,000 characters, and a row of PostgreSQL's unique index on it (or on a story's guid) at most 2,704
# bytes once compressed: a feed address or guid of 1,000 CJK characters (3,000 bytes) failed every insert.
MAX_URL = 2000
INDEX_BYTES = 2000
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

    def lines(self) -> list[str]:
        return [m if n == 1 else f"{m} ({n} times)" for m, n in self.counts.items()]

    def __str__(self) -> str:
        return "; ".join(self.lines())


def text_field(value: str, is_html: bool) -> str:
    """A title or name as text: markup is read only where the feed says the field is HTML."""
    return " ".join((html_to_text(value) if is_html else value or "").split())


def author_name(value: str) -> str:
    """A person's name without the e-mail address feeds put beside it ("Me (me@x)", "me@x (Me)")."""
    name = re.sub(r"\(\s*\)", "", _EMAIL.sub("", value or "")).strip()
    if name.startswith("(") and name.endswith(")"):
        name = name[1:-1]
    return " ".join(name.split())


def absolute_url(base: str, href, notes: Notes, what: str) -> str:
    """href made absolute against base, or "" (noted) when it is not a URL at all, such as "http://[x/", or
    not a web one: a javascript: or data: link would be a script in whatever shows it as a link, and every
    field read here is shown as a link or fetched somewhere."""
    if not isinstance(href, str) or not href.strip():
        return ""
    try:
        url = urljoin(base, href.strip())
        parts = urlsplit(url)
        parts.port  # raises for an invalid IPv6 host or port
    except ValueError:
        notes.add(f"dropped an invalid {what} URL")
        return ""
    if parts.scheme.lower() not in ("http", "https"):
        notes.add(f"dropped a URL that is not http or https ({what})")
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
        wrapper = parse_fragment(html)
        _foreign_as_text(wrapper)
        wrapper.make_links_absolute(base, resolve_base_href=False, handle_failures="discard")
        html = lxml.html.tostring(wrapper, encoding="unicode")[len("<div>"):-len("</div>")]
    except (ParserError, ValueError):
        pass
    return clean_feed_html(html)


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


def unstorable_url(url: str) -> str:
    """Why a feed's address cannot be stored, or "" if it can."""
    if len(url) > MAX_URL:
        return f"URL longer than {MAX_URL} characters"
    if len(url.encode("utf-8", "surrogatepass")) > INDEX_BYTES:
        return f"URL longer than {INDEX_BYTES} bytes in UTF-8"
    return ""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
