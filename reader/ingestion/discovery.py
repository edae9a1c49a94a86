"""Feed discovery for subscribing (reader/ingestion/subscribe.py): which feeds are at or behind a URL.

discover(url) finds the feeds behind a URL: the URL itself when it is a feed, else the page's
<link rel="alternate"> feeds, else the first of the common feed paths that answers with a feed.
When it finds several, the caller lets the user choose. A person waits on it, so its fetches never wait on
the crawl's calendar, and all of them together stop at DISCOVERY_TIMEOUT. A candidate fetched on the way (the URL
itself, or a common path) keeps its response, so that subscribing stores that body instead of fetching it again.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from urllib.parse import urljoin

from django.conf import settings

from extraction import ExtractionError
from extraction.document import parse as parse_html
from extraction.fetch import FetchError

from . import fetching
from .feed_fields import Notes, NotAFeed, absolute_url, unstorable_url
from .parsing import parse
from .politeness import HostBusy

FEED_TYPES = {
    "application/rss+xml": "rss",
    "application/atom+xml": "atom",
    "application/feed+json": "json",
    "application/json": "json",
    "application/rdf+xml": "rss",
    "application/xml": "rss",
    "text/xml": "rss",
}
COMMON_PATHS = ("/feed", "/rss", "/feed.xml", "/rss.xml", "/atom.xml", "/index.xml", "/feed.json",
                "/feeds/posts/default", "/?feed=rss2")
# The most feeds of one page a person is offered to choose from, in the page's order. The links are the page author's:
# one listing 70,000 made a choice page as long, and looking up which of them the user follows was a 500.
MAX_CANDIDATES = 100


class DiscoveryError(Exception):
    """No feed could be found at or behind the URL; the message says why, for a person."""


class Budget:
    """The time left for one discovery; each fetch gets what remains."""

    def __init__(self, seconds: float):
        self.seconds, self.deadline = seconds, time.monotonic() + seconds

    def fetch(self, url: str):
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise DiscoveryError(f"Looking for a feed took longer than {self.seconds:g} s; "
                                 f"try the feed's own address.")
        return fetching.get_now(url, timeout=remaining)


@dataclass(frozen=True)
class Candidate:
    url: str
    title: str
    kind: str  # rss, atom, json (or the parsed format when the URL is a feed itself)
    response: object = field(default=None, compare=False, repr=False)  # the feed as fetched, if it was


def _as_feed(response) -> Candidate | None:
    try:
        parsed = parse(response.content, response.url, response.headers.get("content-type", ""), max_entries=1)
    except NotAFeed:
        return None
    return Candidate(response.url, parsed.title, parsed.format, response)


def _alternates(response) -> list[Candidate]:
    try:
        doc = parse_html(response.content, response.charset)
    except ExtractionError:
        return []
    # A link that is no web address ("http://[x/", javascript:) is passed over, not the page with it.
    ignored = Notes()
    base = absolute_url(response.url, (doc.xpath("//base/@href") or [""])[0], ignored, "base") or response.url
    found = {}
    for link in doc.xpath("//link[@href]"):
        rels = (link.get("rel") or "").lower().split()
        kind = FEED_TYPES.get((link.get("type") or "").split(";")[0].strip().lower())
        if "alternate" in rels and kind and "comments" not in (link.get("title") or "").lower():
            url = absolute_url(base, link.get("href"), ignored, "feed")
            if url:
                found.setdefault(url, Candidate(url, " ".join((link.get("title") or "").split()), kind))
            if len(found) == MAX_CANDIDATES:
                break
    return list(found.values())


def _common_paths(page_url: str, budget: Budget) -> list[Candidate]:
    for path in COMMON_PATHS:
        try:
            candidate = _as_feed(budget.fetch(urljoin(page_url, path)))
        except FetchError:
            continue
        if candidate:
            return [candidate]
    return []


def discover(url: str, budget: Budget | None = None) -> list[Candidate]:
    """The feeds at or behind url, best first; raises DiscoveryError when there are none."""
    budget = budget or Budget(settings.DISCOVERY_TIMEOUT)
    try:
        response = budget.fetch(url)
        direct = _as_feed(response)
        if direct:
            return [direct]
        candidates = _alternates(response) or _common_paths(response.url, budget)
    except FetchError as exc:
        raise DiscoveryError(fetching.explain(exc, url)) from exc
    except HostBusy as busy:
        raise DiscoveryError(f"{busy.host} is busy with other requests from this server; "
                             f"try again in a minute.") from busy
    if not candidates:
        raise DiscoveryError("No feed found there: the page is not a feed, links to none, and none of the "
                             "usual feed addresses answered with one.")
    return _storable(candidates)


def _storable(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates whose address can be stored as a feed's; DiscoveryError if none can."""
    kept = [c for c in candidates if not unstorable_url(c.url)]
    if not kept:
        raise DiscoveryError(f"The feed's address cannot be used: {unstorable_url(candidates[0].url)}.")
    return kept
