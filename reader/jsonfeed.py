"""JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1), which feedparser does not read."""
from __future__ import annotations

import json
from datetime import datetime, timezone as dt_timezone
from html import escape
from urllib.parse import urljoin

from .parsing import NotAFeed, ParsedEntry, ParsedFeed, clean_html, digest, plain_text


def parse(content: bytes, url: str) -> ParsedFeed:
    try:
        doc = json.loads(content.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise NotAFeed(f"not a feed: invalid JSON: {exc}") from None
    if not isinstance(doc, dict) or not str(doc.get("version", "")).startswith("https://jsonfeed.org/version/"):
        raise NotAFeed("not a feed: JSON without a jsonfeed.org version")
    items = doc.get("items")
    if not isinstance(items, list):
        raise NotAFeed("not a feed: JSON Feed without an items list")
    site = _text(doc.get("home_page_url"))
    return ParsedFeed(
        format="json" + str(doc["version"]).rsplit("/", 1)[-1],
        title=plain_text(_text(doc.get("title")))[:500],
        site_url=urljoin(url, site)[:2000] if site else "",
        entries=[_entry(item, url) for item in items if isinstance(item, dict)],
    )


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _date(value) -> datetime | None:
    try:
        stamp = datetime.fromisoformat(_text(value).strip())
    except ValueError:
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt_timezone.utc)


def _author(item: dict) -> str:
    authors = item.get("authors") if isinstance(item.get("authors"), list) else [item.get("author")]
    names = [_text(a.get("name")) for a in authors if isinstance(a, dict)]
    return ", ".join(n for n in names if n)


def _entry(item: dict, url: str) -> ParsedEntry:
    link = _text(item.get("url")) or _text(item.get("external_url"))
    link = urljoin(url, link) if link else ""
    title = plain_text(_text(item.get("title")))
    text = _text(item.get("content_text")) or _text(item.get("summary"))
    html = _text(item.get("content_html")) or "".join(f"<p>{escape(p)}</p>" for p in text.split("\n\n") if p.strip())
    raw_id = item.get("id")
    guid = str(raw_id) if isinstance(raw_id, (str, int, float)) and str(raw_id) else (link or digest(title + html))
    attachments = [a for a in item.get("attachments") or [] if isinstance(a, dict) and _text(a.get("url"))]
    image = _text(item.get("image")) or _text(item.get("banner_image"))
    tags = item.get("tags") if isinstance(item.get("tags"), list) else []
    return ParsedEntry(
        guid=guid,
        url=link,
        title=title,
        author=_author(item),
        published=_date(item.get("date_published")) or _date(item.get("date_modified")),
        tags=[t for t in tags if isinstance(t, str)],
        content_html=clean_html(html, link or url),
        enclosures=[{"url": urljoin(url, a["url"]), "type": _text(a.get("mime_type")),
                     "length": str(a.get("size_in_bytes") or "")} for a in attachments],
        thumbnail=urljoin(url, image) if image else "",
    )
