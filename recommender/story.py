"""The story value type: everything the recommender may look at, nothing Django-specific."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
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
        object.__setattr__(self, "tags", tuple(t for t in (self.tags or ()) if isinstance(t, str) and t.strip()))
        if not self.domain and self.url:
            host = urlsplit(self.url).hostname or ""
            object.__setattr__(self, "domain", host.removeprefix("www."))
        for name in ("title", "text", "feed_title", "author"):
            if getattr(self, name) is None:
                object.__setattr__(self, name, "")
