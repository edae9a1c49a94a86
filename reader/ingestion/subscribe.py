"""Subscribing: the one way a user comes to follow feeds, for the subscribe form, the Google Reader API, OPML
import, `add_feed` and the demo; and unsubscribing.

subscribe(user, url) follows the feed at or behind a URL. A feed the server already knows is followed as it is
(its stories join the user's feed; it stays on its schedule). A new feed is stored from the body discovery
fetched, as Miniflux does, so its stories are in the user's feed when the request ends and the worker does not
fetch it again at once: its pages are queued when the transaction commits. Only when discovery did not fetch the
feed itself (a page linking to it) is it fetched here, within what is left of discovery's time, and failing that
its first fetch is queued.

follow(user, wanted) is the part shared with OPML import, for many feeds at once: feeds, subscriptions, entries
for the stories the feeds already have, a retrain of the user's model, and each new feed's first fetch queued.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from extraction.fetch import FetchError

from .. import queue, unread_cache
from ..models import Entry, Feed, Rating, Story, Subscription
from ..ranking import scores
from . import feeds
from .discovery import Budget, Candidate, DiscoveryError, discover
from .politeness import HostBusy

class TooManyFeeds(Exception):
    """The user already follows MAX_FEEDS_PER_USER feeds."""


@dataclass
class Followed:
    feed_ids: dict[str, int] = field(default_factory=dict)  # every wanted URL -> its feed
    new_feed_ids: list[int] = field(default_factory=list)  # feeds the server did not know before
    already: set[int] = field(default_factory=set)  # feeds the user followed before


def room_for(user) -> int:
    """How many more feeds the user may follow."""
    return max(0, settings.MAX_FEEDS_PER_USER - Subscription.objects.filter(user=user).count())


def subscribe(user, url: str, folder: str = "") -> tuple[Feed | None, bool, list[Candidate]]:
    """Follow the one feed at or behind url: (feed, created_subscription, candidates), or (None, False, candidates)
    when discovery found several and the user must choose (subscribing to the chosen URL then follows it).

    A URL already known as a feed is followed without fetching anything. Raises DiscoveryError when there is no
    feed there, TooManyFeeds for a new subscription past MAX_FEEDS_PER_USER.
    """
    if Feed.objects.filter(url=url).exists():
        return *_follow_one(user, url, folder, None), []
    budget = Budget(settings.DISCOVERY_TIMEOUT)
    candidates = discover(url, budget)
    if len(candidates) > 1:
        return None, False, candidates
    found = candidates[0]
    response = found.response
    if response is None and not Feed.objects.filter(url=found.url).exists():
        response = _fetch_within(budget, found.url)
    return *_follow_one(user, found.url, folder, response), candidates


def subscribe_typed(user, url: str, folder: str = "", *, scheme_guessed: bool = False):
    """subscribe() for an address a person typed: when they gave no scheme, https:// was assumed; if that site
    cannot be reached over it (no TLS on the port, the connection refused), its http:// address is tried."""
    try:
        return subscribe(user, url, folder)
    except DiscoveryError as exc:
        failed = exc.__cause__
        if not (scheme_guessed and url.startswith("https://") and isinstance(failed, FetchError)
                and failed.kind in (FetchError.TLS, FetchError.CONNECTION)):
            raise
    return subscribe(user, "http://" + url.removeprefix("https://"), folder)


def _fetch_within(budget: Budget, url: str):
    """The feed a page links to, fetched in the time discovery left; None if it could not be (the worker tries)."""
    try:
        return budget.fetch(url)
    except (FetchError, HostBusy, DiscoveryError):
        return None


@transaction.atomic
def _follow_one(user, url: str, folder: str, response) -> tuple[Feed, bool]:
    existing = Subscription.objects.filter(user=user, feed__url=url).select_related("feed").first()
    if existing:  # nothing to fetch or queue: the feed is on its schedule
        return existing.feed, False
    if not room_for(user):
        raise TooManyFeeds(f"You follow {settings.MAX_FEEDS_PER_USER} feeds, the most this server allows; "
                           f"unsubscribe from one first.")
    followed = follow(user, {url: (folder, "")}, {url: response} if response is not None else {})
    return Feed.objects.get(id=followed.feed_ids[url]), url not in followed.already


def follow(user, wanted: dict[str, tuple[str, str]], bodies: dict | None = None) -> Followed:
    """Subscribe user to each URL -> (folder, label) they do not follow yet; the feeds are made if new.

    A new feed whose body is in ``bodies`` (URL -> the response fetched for it) is stored now, its pages queued on
    commit; any other new feed's first fetch is queued on commit. Known feeds keep their schedule.
    """
    with transaction.atomic():
        known = set(Feed.objects.filter(url__in=list(wanted)).values_list("url", flat=True))
        Feed.objects.bulk_create([Feed(url=u) for u in wanted if u not in known], ignore_conflicts=True)
        found = Followed(feed_ids=dict(Feed.objects.filter(url__in=list(wanted)).values_list("url", "id")))
        found.new_feed_ids = [found.feed_ids[u] for u in wanted if u not in known]
        found.already = set(Subscription.objects.filter(user=user, feed_id__in=found.feed_ids.values())
                            .values_list("feed_id", flat=True))
        # A label is this user's name for the feed; the feed's own title comes from its first fetch.
        Subscription.objects.bulk_create(
            [Subscription(user=user, feed_id=found.feed_ids[u], folder=folder[:200], title=label[:500])
             for u, (folder, label) in wanted.items() if found.feed_ids[u] not in found.already],
            ignore_conflicts=True)
        joined = [i for i in found.feed_ids.values() if i not in found.already]
        Entry.objects.bulk_create([Entry(user=user, story_id=sid, feed_id=fid) for sid, fid in
                                   Story.objects.filter(feed_id__in=joined).values_list("id", "feed_id")],
                                  ignore_conflicts=True)
        if joined:  # the feeds' stories scored for them, and the new feeds are ones they chose
            unread_cache.forget([user.id])  # bulk writes send no signals
            scores.queue_retrain(user.id)
        for url in wanted:
            if url not in known:
                _first_fetch(found.feed_ids[url], (bodies or {}).get(url))
    return found


def _first_fetch(feed_id: int, response) -> None:
    """A new feed's first fetch: the body already fetched stored now (its pages queued on commit), else queued."""
    if response is None:
        queue.send(queue.FETCH_FEED, feed_id)
        return
    outcome = feeds.take(Feed.objects.get(id=feed_id), response, timezone.now())
    if outcome.new_story_ids:
        queue.send(queue.QUEUE_PAGES, outcome.new_story_ids)


@transaction.atomic
def unsubscribe(subscription: Subscription) -> None:
    """The feed leaves the user's list, with its unrated entries. The stories stay (other readers may follow the
    feed, and ratings keep teaching the model)."""
    rated = Rating.objects.filter(user_id=subscription.user_id).values("story_id")
    (Entry.objects.filter(user_id=subscription.user_id, feed_id=subscription.feed_id)
     .exclude(story_id__in=rated).delete())
    subscription.delete()
