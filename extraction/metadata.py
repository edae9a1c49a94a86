"""Page metadata: title, author, publication date, lead image, language.

Read from Open Graph / article meta tags and JSON-LD first, then from markup.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from functools import cache

from lxml import etree

from .blocks import string_value


@dataclass
class Metadata:
    title: str = ""
    author: str | None = None
    published: str | None = None
    lead_image: str | None = None
    language: str | None = None
    # The first <head><base href>, unresolved.
    base_href: str | None = None
    # The title the page declares for itself (Open Graph, Twitter card or <title>), not
    # one read from a heading: what a heading in the text may repeat.
    declared_title: str = ""


# The elements metadata is read from, gathered in one walk over the page.
_SOURCE_TAGS = ("meta", "script", "time", "h1", "title", "base")


def _sources(doc) -> dict[str, list]:
    """Tag -> the page's elements with that tag, in page order."""
    found: dict[str, list] = {tag: [] for tag in _SOURCE_TAGS}
    for el in doc.iter(*_SOURCE_TAGS):
        found[el.tag].append(el)
    return found


def _meta_tags(metas) -> dict[str, str]:
    """property/name/itemprop -> content of every <meta>, first one wins."""
    found: dict[str, str] = {}
    for el in metas:
        content = (el.get("content") or "").strip()
        if content:
            for key in ("property", "name", "itemprop"):
                name = el.get(key)
                if name:
                    found.setdefault(name.strip().lower(), content)
    return found


_DATE_TAGS = ("article:published_time", "datepublished", "pubdate", "date")
_LONGEST_DATE = 64


def _iso_date(value: str | None) -> str | None:
    """A stated publication date as ISO 8601 (a date, or a time with its offset), None when it names none.

    Pages state ISO 8601 or e-mail style (RFC 2822) dates; anything else ("²⁰²⁴-01-01", 5,000 digits,
    year 0, an offset of 99 hours) is dropped so that no caller is handed it as a date.
    """
    value = (value or "").strip()
    if not value or len(value) > _LONGEST_DATE or not value.isascii():
        return None
    try:
        return (date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value)).isoformat()
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(value).isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _first(tags: dict[str, str], *names: str) -> str | None:
    return next((tags[n] for n in names if n in tags), None)


def _json_ld(scripts) -> list[dict]:
    found = []
    for script in scripts:
        # The type first: reading .text decodes the whole script, and most are code.
        if (script.get("type") or "").strip().lower() != "application/ld+json" or not (raw := script.text):
            continue
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):  # nesting deeper than the parser's stack
            continue
        stack = [data]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                found.append(item)
                stack.extend(v for k, v in item.items() if k == "@graph")
    return found


def _ld_value(items: list[dict], key: str) -> str | None:
    for item in items:
        value = item.get(key)
        if isinstance(value, list):
            value = value[0] if value else None
        if isinstance(value, dict):
            value = value.get("name") or value.get("url")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def title_of(sources: dict[str, list], tags: dict[str, str], headings: bool = True) -> str:
    """Open Graph or Twitter card title, then the first <h1> (unless ``headings`` is
    false), then <title>."""
    found = _first(tags, "og:title", "twitter:title")
    if found:
        return " ".join(found.split())
    for tag in ("h1", "title") if headings else ("title",):
        for el in sources[tag]:
            text = " ".join(string_value(el).split())
            if text:
                return text
    return ""


# The first element marked as the author's; scanning attributes rather than elements
# halves the cost of this full-page query.
_AUTHOR_MARKUP = etree.XPath("string((//@rel[.='author'] | //@itemprop[.='author'])[1]/..)")


def read_metadata(doc) -> Metadata:
    """Metadata from the whole page; call before the page is cut down to the article."""
    sources = _sources(doc)
    tags = _meta_tags(sources["meta"])

    # JSON-LD and markup are read only for what the meta tags leave open.
    @cache
    def ld_items() -> list[dict]:
        return [item for item in _json_ld(sources["script"]) if "headline" in item or "author" in item or "datePublished" in item]

    def ld_value(key: str) -> str | None:
        return _ld_value(ld_items(), key)

    author = _first(tags, "author", "article:author", "byl") or ld_value("author")
    if author is None:
        rel = _AUTHOR_MARKUP(doc).strip()
        author = " ".join(rel.split()) or None
    if author and re.match(r"https?://", author):
        author = None
    def stated_dates():
        # In order, and lazily: JSON-LD is read only when no meta tag states a date.
        yield from (tags.get(name) for name in _DATE_TAGS)
        yield ld_value("datePublished")
        yield from (t.get("datetime") for t in sources["time"])

    published = next(filter(None, map(_iso_date, stated_dates())), None)
    image = _first(tags, "og:image", "twitter:image", "twitter:image:src") or ld_value("image")
    language = (doc.get("lang") or _first(tags, "og:locale") or "").replace("_", "-").strip() or None
    base = next((href for el in sources["base"] if el.getparent().tag == "head"
                 and (href := el.get("href")) is not None), None)
    return Metadata(title_of(sources, tags), author, published, image, language, base,
                    title_of(sources, tags, headings=False))
