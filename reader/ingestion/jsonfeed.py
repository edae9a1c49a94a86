"""JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1), which feedparser does not read.

Titles and names in JSON Feed are plain text: markup in them is shown as written, never read as HTML.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone as dt_timezone
from html import escape

from .feed_fields import (NotAFeed, Notes, ParsedEntry, ParsedFeed, absolute_url, author_name, clean_html, digest,
                          read_entries, sane_date, text_field)


MAX_DEPTH = 64
# A string (to the end of the text when it is never closed, so each character is read once) or a bracket.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\Z)|[\[\]{}]', re.S)


def parse(content: bytes, url: str, max_entries: int = 500, notes: Notes | None = None) -> ParsedFeed:
    notes = Notes() if notes is None else notes
    try:
        text = content.decode("utf-8-sig")
        try:
            doc = json.loads(text, parse_int=_number)
        except RecursionError:
            doc = json.loads(_shallow(text, notes), parse_int=_number)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise NotAFeed(f"not a feed: invalid JSON: {exc}") from None
    if not isinstance(doc, dict) or not str(doc.get("version", "")).startswith("https://jsonfeed.org/version/"):
        raise NotAFeed("not a feed: JSON without a jsonfeed.org version")
    items = doc.get("items")
    if not isinstance(items, list):
        raise NotAFeed("not a feed: JSON Feed without an items list")
    items = [item for item in items if isinstance(item, dict)]
    return ParsedFeed(
        format=("json" + str(doc["version"]).rsplit("/", 1)[-1])[:20],  # Feed.format's length: "json1.1" and kin
        title=text_field(_text(doc.get("title")), is_html=False)[:500],
        site_url=absolute_url(url, doc.get("home_page_url"), notes, "site")[:2000],
        entries=read_entries(items[:max_entries], lambda item: _entry(item, url, notes), notes),
        total_entries=len(items),
    )


def _shallow(text: str, notes: Notes) -> str:
    """The document with each array or object that opens below MAX_DEPTH levels replaced by null.

    Python's decoder recurses once a level and gives up near 1,000, so one deeply nested extension field
    refused the whole feed. No field JSON Feed defines lies deeper than 4.
    """
    kept, depth, last, start = [], 0, 0, 0
    for token in _JSON_TOKEN.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth == MAX_DEPTH + 1:
                start = token.start()
        elif char in "]}":
            if depth == MAX_DEPTH + 1:
                kept.append(text[last:start] + "null")
                last = token.end()
                notes.add(f"a value nested deeper than {MAX_DEPTH} levels was left out")
            depth -= 1
    kept.append(text[last:])
    return "".join(kept)


def _number(digits: str) -> int | float:
    """int() refuses more than 4,300 digits, which would refuse the whole feed for one size_in_bytes."""
    return int(digits) if len(digits) <= 18 else float(digits)


def _text(value) -> str:
    """A string field, or "" for any other JSON value. JSON's escapes can spell a lone surrogate ("\\ud800"),
    which no database stores: it becomes U+FFFD, and the rest of the field is kept."""
    if not isinstance(value, str):
        return ""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _date(value, notes: Notes) -> datetime | None:
    try:
        stamp = datetime.fromisoformat(_text(value).strip())
    except ValueError:
        if value:
            notes.add("a date that could not be read as a day on the calendar was dropped")
        return None
    return sane_date(stamp if stamp.tzinfo else stamp.replace(tzinfo=dt_timezone.utc), notes)


def _author(item: dict) -> str:
    authors = item.get("authors") if isinstance(item.get("authors"), list) else [item.get("author")]
    names = [author_name(_text(a.get("name"))) for a in authors if isinstance(a, dict)]
    return ", ".join(n for n in names if n)


def _attachments(item: dict, url: str, notes: Notes) -> list[dict]:
    if "attachments" in item and not isinstance(item["attachments"], list):
        notes.add("ignored attachments that are not a list")
    found = []
    for attachment in _list(item.get("attachments")):
        href = absolute_url(url, _text(attachment.get("url")), notes, "attachment") if isinstance(attachment, dict) else ""
        size = attachment.get("size_in_bytes") if href else None
        if href:
            found.append({"url": href, "type": _text(attachment.get("mime_type")),
                          "length": str(size) if isinstance(size, int) and not isinstance(size, bool) and size else ""})
    return found


def _entry(item: dict, url: str, notes: Notes) -> ParsedEntry:
    link = absolute_url(url, _text(item.get("url")) or _text(item.get("external_url")), notes, "entry link")
    title = text_field(_text(item.get("title")), is_html=False)
    text = _text(item.get("content_text")) or _text(item.get("summary"))
    html = _text(item.get("content_html")) or "".join(f"<p>{escape(p)}</p>" for p in text.split("\n\n") if p.strip())
    raw_id = item.get("id")
    raw_id = _text(raw_id) if isinstance(raw_id, str) else raw_id
    guid = str(raw_id) if isinstance(raw_id, (str, int, float)) and str(raw_id) else (link or digest(title + html))
    image = _text(item.get("image")) or _text(item.get("banner_image"))
    return ParsedEntry(
        guid=guid,
        url=link,
        title=title,
        author=_author(item),
        published=_date(item.get("date_published"), notes) or _date(item.get("date_modified"), notes),
        tags=[_text(t) for t in _list(item.get("tags")) if isinstance(t, str)],
        content_html=clean_html(html, link or url),
        enclosures=_attachments(item, url, notes),
        thumbnail=absolute_url(url, image, notes, "image"),
    )
