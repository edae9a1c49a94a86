"""Subscribing a user by feed URL or page URL, shared by the UI, the API, OPML import and add_feed.

discover(url) finds the feeds behind a URL: the URL itself when it is a feed, else the page's
<link rel="alternate"> feeds, else the first of the common feed paths that answers with a feed.
When it finds several, the caller lets the user choose. A person waits on it, so its fetches never wait on
the crawl's calendar, and all of them together stop at DISCOVERY_TIMEOUT.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from urllib.parse import urljoin

from django.conf import settings
from django.db import transaction

from extraction import ExtractionError
from extraction.document import parse as parse_html
from extraction.fetch import FetchError

from ..models import Entry, Feed, Subscription
from ..ranking import scores
from . import fetching
from .feed_fields import NotAFeed
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


class DiscoveryError(Exception):
    """No feed could be found at or behind the URL; the message says why, for a person."""


class TooManyFeeds(Exception):
    """The user already follows MAX_FEEDS_PER_USER feeds."""


class _Budget:
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


def _as_feed(response) -> Candidate | None:
    try:
        parsed = parse(response.content, response.url, response.headers.get("content-type", ""), max_entries=1)
    except NotAFeed:
        return None
    return Candidate(response.url, parsed.title, parsed.format)


def _alternates(response) -> list[Candidate]:
    try:
        doc = parse_html(response.content, response.charset)
    except ExtractionError:
        return []
    base = (doc.xpath("//base/@href") or [response.url])[0]
    found = {}
    for link in doc.xpath("//link[@href]"):
        rels = (link.get("rel") or "").lower().split()
        kind = FEED_TYPES.get((link.get("type") or "").split(";")[0].strip().lower())
        if "alternate" in rels and kind and "comments" not in (link.get("title") or "").lower():
            url = urljoin(urljoin(response.url, base), link.get("href").strip())
            if url.startswith(("http://", "https://")):
                found.setdefault(url, Candidate(url, " ".join((link.get("title") or "").split()), kind))
    return list(found.values())


def _common_paths(page_url: str, budget: _Budget) -> list[Candidate]:
    for path in COMMON_PATHS:
        try:
            candidate = _as_feed(budget.fetch(urljoin(page_url, path)))
        except FetchError:
            continue
        if candidate:
            return [candidate]
    return []


def discover(url: str) -> list[Candidate]:
    """The feeds at or behind url, best first; raises DiscoveryError when there are none."""
    budget = _Budget(settings.DISCOVERY_TIMEOUT)
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
    return candidates


def room_for(user) -> int:
    """How many more feeds the user may follow."""
    return max(0, settings.MAX_FEEDS_PER_USER - Subscription.objects.filter(user=user).count())


@transaction.atomic
def subscribe(user, url: str, folder: str = "") -> tuple[Feed, bool]:
    """Subscribe user to the feed at url; returns (feed, created_subscription). Existing stories join the feed.

    Raises TooManyFeeds for a new feed past MAX_FEEDS_PER_USER.
    """
    existing = Subscription.objects.filter(user=user, feed__url=url).select_related("feed").first()
    if existing:
        return existing.feed, False
    if not room_for(user):
        raise TooManyFeeds(f"You follow {settings.MAX_FEEDS_PER_USER} feeds, the most this server allows; "
                           f"unsubscribe from one first.")
    feed, _ = Feed.objects.get_or_create(url=url)
    _, created = Subscription.objects.get_or_create(user=user, feed=feed, defaults={"folder": folder[:200]})
    if created:
        Entry.objects.bulk_create(
            [Entry(user=user, story_id=sid) for sid in feed.stories.values_list("id", flat=True)],
            ignore_conflicts=True,
        )
        scores.queue_retrain(user.id)  # the feed's stories scored for them, and the new feed is one they chose
    return feed, created


def subscribe_url(user, url: str, folder: str = "") -> tuple[Feed | None, bool, list[Candidate]]:
    """Subscribe to the one feed behind url: (feed, created_subscription, candidates); or (None, False, candidates)
    when the user must choose.

    A URL already known as a feed is subscribed without fetching anything.
    """
    if Feed.objects.filter(url=url).exists():
        return *subscribe(user, url, folder), []
    candidates = discover(url)
    if len(candidates) > 1:
        return None, False, candidates
    return *subscribe(user, candidates[0].url, folder), candidates


def subscribe_typed(user, url: str, folder: str = "", *, scheme_guessed: bool = False):
    """subscribe_url for an address a person typed: when they gave no scheme, https:// was assumed; if that
    site cannot be reached over it (no TLS on the port, the connection refused), its http:// address is tried."""
    try:
        return subscribe_url(user, url, folder)
    except DiscoveryError as exc:
        failed = exc.__cause__
        if not (scheme_guessed and url.startswith("https://") and isinstance(failed, FetchError)
                and failed.kind in (FetchError.TLS, FetchError.CONNECTION)):
            raise
    return subscribe_url(user, "http://" + url.removeprefix("https://"), folder)
