"""The per-user cache behind the nav and the feed page's side list: the user's feeds by folder, and their unread
counts with the newest unread entry's id (the bound "mark all read" is given).

Counting a user's unread stories by feed reads every unread entry's row in one index (entry_unread_by_feed), and
every page shows the total, so both are cached. The cache is dropped when its facts change: by the
web when a user marks stories, subscribes or files a feed, and by the worker that stores new entries. With the
embedded default the cache is per process, so a worker cannot drop the web's copy: there the counts are at most
TTL seconds late, except that the pages following a worker's fetches and imports drop the web's copy as they poll.
It lives here, below web and ingestion, so that both can drop it.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max
from django.db.models.signals import post_delete, post_save

from .models import Entry, Subscription

TTL = 60


@dataclass(frozen=True)
class Unread:
    by_feed: dict[int, int]  # feed id -> unread stories (feeds with none are left out)
    top: int  # the newest unread entry's id, 0 if none

    @property
    def total(self) -> int:
        return sum(self.by_feed.values())


def _keys(user_id: int) -> tuple[str, str]:
    return f"unread:{user_id}", f"feed-list:{user_id}"


def _stamp(user) -> float:
    # A user id can come back (a deleted account, a test database rolled back): a cached value is the user's only
    # if it carries the date they joined.
    return user.date_joined.timestamp()


def _cached(key: str, user):
    found = cache.get(key)
    return found[1] if isinstance(found, tuple) and found[0] == _stamp(user) else None


def _remembered(user, memo: str, key: str, compute, keep=lambda found: True):
    """The user's value: from this request's memo, else the shared cache, else computed (and cached if `keep`).

    A page asks more than once (the nav, the side list, mark all, the stories' feed names), so the value is kept on
    the user object for the request. getattr, not __dict__: request.user is a lazy proxy, which passes attributes
    through to the user but keeps a __dict__ of its own."""
    found = getattr(user, memo, None)
    if found is None:
        found = _cached(key, user)
    if found is None:
        found = compute()
        if keep(found):
            cache.set(key, (_stamp(user), found), TTL)
    setattr(user, memo, found)
    return found


def _count_unread(user) -> Unread:
    rows = (Entry.objects.filter(user=user, read=False).values_list("feed_id")
            .annotate(unread=Count("id"), top=Max("id")).order_by())
    return Unread({feed: n for feed, n, _ in rows}, max((top for *_, top in rows), default=0))


def unread(user) -> Unread:
    # None yet is cheap to count again, and a new reader's first stories show at once: not cached.
    return _remembered(user, "_unread", _keys(user.pk)[0], lambda: _count_unread(user),
                       keep=lambda found: bool(found.by_feed))


def feed_list(user) -> list[tuple[str, int, str]]:
    """(folder, feed id, the feed's name for this user) of every feed the user follows, by folder then name."""
    return _remembered(user, "_feed_list", _keys(user.pk)[1], lambda: [
        (sub.folder, sub.feed_id, sub.name)
        for sub in user.subscriptions.select_related("feed").order_by("folder", "feed__title", "feed__url")])


def _drop(keys: list[str]) -> None:
    # Now, and again once the change is committed: a page drawn in between would cache the old facts again.
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


def forget_counts(user) -> None:
    user._unread = None
    _drop([_keys(user.pk)[0]])


def forget(user_ids) -> None:
    """Drop both for these users: their feeds or entries changed."""
    keys = [key for user_id in user_ids for key in _keys(user_id)]
    if keys:
        _drop(keys)


def _subscription_changed(sender, instance, **kwargs) -> None:
    forget([instance.user_id])


# Every save or delete of a subscription, whoever makes it (the views, the APIs, the admin); bulk writes call
# forget themselves.
post_save.connect(_subscription_changed, sender=Subscription, dispatch_uid="unread-cache-save")
post_delete.connect(_subscription_changed, sender=Subscription, dispatch_uid="unread-cache-delete")
