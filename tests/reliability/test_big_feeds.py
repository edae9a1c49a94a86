"""Big and repetitive feeds: 10,000 entries stored once and re-imported without duplicates, and a feed
whose every entry shares one guid."""
import time

import pytest
from django.contrib.auth.models import User
from django.db.models import Count

from reader.ingestion import feeds
from reader.models import Entry, Feed, Story, Subscription

from .figures import record

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]

ENTRIES = 10_000


def big_rss(server, count: int, guid=lambda i: f"item-{i}") -> bytes:
    items = "".join(f"<item><title>Story {i}</title><link>{server.url(f'/s/{i}')}</link><guid>{guid(i)}</guid>"
                    f"<description>Body of story {i}.</description></item>" for i in range(count))
    return f'<rss version="2.0"><channel><title>Big</title>{items}</channel></rss>'.encode()


def duplicates(feed) -> int:
    by_guid = Story.objects.filter(feed=feed).values("guid").annotate(n=Count("id")).filter(n__gt=1).count()
    by_link = Story.objects.filter(feed=feed).exclude(url="").values("url").annotate(n=Count("id")).filter(n__gt=1)
    by_entry = Entry.objects.values("user", "story").annotate(n=Count("id")).filter(n__gt=1).count()
    return by_guid + by_link.count() + by_entry


def subscribed(url: str, readers: int = 2) -> Feed:
    feed = Feed.objects.create(url=url)
    for i in range(readers):
        Subscription.objects.create(user=User.objects.create_user(f"reader-{feed.id}-{i}"), feed=feed)
    return feed


def timed_refresh(feed: Feed) -> tuple[float, object]:
    started = time.monotonic()
    outcome = feeds.refresh(feed)
    return time.monotonic() - started, outcome


def test_big_feed_is_stored_once_and_reimported_without_duplicates(server, allow_loopback, settings):
    settings.FEED_MAX_ENTRIES = ENTRIES
    feed = subscribed(server.add("/big.xml", big_rss(server, ENTRIES), headers={"Content-Type": "application/rss+xml"}))
    first_seconds, first = timed_refresh(feed)
    again_seconds, again = timed_refresh(Feed.objects.get(id=feed.id))
    stored = Story.objects.filter(feed=feed).count()
    entries = Entry.objects.filter(story__feed=feed).count()

    capped = subscribed(server.add("/capped.xml", big_rss(server, ENTRIES), headers={"Content-Type": "application/rss+xml"}))
    settings.FEED_MAX_ENTRIES = 500
    timed_refresh(capped)
    capped.refresh_from_db()

    same = subscribed(server.add("/same.xml", big_rss(server, ENTRIES, guid=lambda i: "the-one-guid"),
                                 headers={"Content-Type": "application/rss+xml"}))
    settings.FEED_MAX_ENTRIES = ENTRIES
    same_seconds, _ = timed_refresh(same)
    same_stored = Story.objects.filter(feed=same).count()
    dupes = duplicates(feed) + duplicates(same) + duplicates(capped)
    record("big_feeds", "Big feeds: 10,000 entries, re-imported; 10,000 entries sharing one guid", {
        "stored (first import)": stored, "new on re-import": len(again.new_story_ids),
        "entries (2 subscribers)": entries, "first import s": round(first_seconds, 1),
        "re-import s": round(again_seconds, 1), "stored with the default 500 cap": capped.stories.count(),
        "one-guid feed stored": same_stored, "one-guid import s": round(same_seconds, 1), "duplicates": dupes,
    }, "10,000 stored, 0 new on re-import, 0 duplicates; items sharing a guid but not their link all kept")
    assert stored == len(first.new_story_ids) == ENTRIES
    assert again.new_story_ids == [] and entries == 2 * ENTRIES
    assert capped.stories.count() == 500 and "10000 entries" in capped.notice
    assert same_stored == ENTRIES  # distinct links under one guid are distinct stories (issue 16, finding 15)
    assert dupes == 0
