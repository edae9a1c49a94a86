"""The story value type: everything the recommender may look at, nothing Django-specific."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
import re
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Story:
    """One story as the recommender sees it.

    ``id`` is the caller's key (any hashable, e.g. the database primary key); ``feed`` is the feed's
    stable id or name, ``feed_title`` the words shown to the user for it ("Energy desk").
    ``domain`` is taken from ``url`` when not given.
    """

    id: object
    title: str = ""
    text: str = ""
    feed: object = None
    feed_title: str = ""
    author: str = ""
    tags: tuple[str, ...] = ()
    published: datetime | None = None
    url: str = ""
    domain: str = ""

    def __post_init__(self):
        # Callers pass lists; a tuple keeps the story hashable and immutable. Tags come from feeds: anything
        # but a non-blank string (a number, a dict from a hostile JSON field) is not a tag and is dropped.
        tags = tuple(clean_text(t) for t in (self.tags or ()) if isinstance(t, str) and t.strip())
        object.__setattr__(self, "tags", tags)
        for name in ("title", "text", "feed_title", "author", "url", "domain"):
            object.__setattr__(self, name, clean_text(getattr(self, name)))
        object.__setattr__(self, "published", _moment(self.published))
        if not self.domain and self.url:
            object.__setattr__(self, "domain", _host(self.url).removeprefix("www."))


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(value) -> str:
    """A field as text the model can hash and store: anything but a string is no text, and a lone surrogate
    (which no UTF-8 encoder takes) becomes U+FFFD."""
    if not isinstance(value, str):
        return ""
    return value if value.isascii() else _SURROGATE.sub("\ufffd", value)


def _moment(value) -> datetime | None:
    """A datetime as given; anything else (a string from a hostile JSON field) is no date."""
    return value if isinstance(value, datetime) else None


def as_utc(moment: datetime) -> datetime:
    """For comparing dates from many callers: Python refuses to compare naive with aware, and naive is taken as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _host(url: str) -> str:
    try:
        return urlsplit(url).hostname or ""
    except ValueError:  # "http://[x/": no host to be read
        return ""
