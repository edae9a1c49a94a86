"""The nav's counts and the feed page's side list are cached (reader/unread_cache) yet never stale after a change
the reader or a worker makes, and a feed page drawn from the cache asks the database only for its stories."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reader.ingestion.feeds import store
from reader.ingestion.parsing import parse
from reader.models import Entry, Subscription
from ui_factories import ann, client_ann, make_entries, make_feed  # noqa: F401

pytestmark = pytest.mark.django_db

RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour desk</title><link>https://h.example/</link>
%s</channel></rss>"""


def items(*guids: str) -> bytes:
    return RSS % b"".join(b"<item><guid>%s</guid><title>Story %s</title><link>https://h.example/%s</link></item>"
                          % (g.encode(), g.encode(), g.encode()) for g in guids)


def nav_total(html: str) -> int | None:
    found = re.search(r'data-unread-total[^>]*>(\d+)</span>', html)
    return int(found.group(1)) if found else None


def test_stories_a_worker_stores_count_at_once(ann, client_ann):
    feed = make_feed(ann, url="https://h.example/feed")
    store(feed, parse(items("a", "b"), feed.url))
    assert nav_total(client_ann.get("/").content.decode()) == 2  # now cached
    store(feed, parse(items("a", "b", "c"), feed.url))
    html = client_ann.get("/").content.decode()
    assert nav_total(html) == 3
    top = Entry.objects.filter(user=ann).order_by("-id").first().id
    assert f'name="upto" value="{top}"' in html  # mark all read reaches the newest story


def test_following_filing_and_leaving_a_feed_show_in_the_side_list_at_once(ann, client_ann):
    make_entries(ann, make_feed(ann, url="https://a.example/feed", title="Alps desk"), [0.5])
    assert "Alps desk" in client_ann.get("/").content.decode()
    harbour = make_feed(ann, url="https://h.example/feed", title="Harbour desk")
    make_entries(ann, harbour, [0.4])
    html = client_ann.get("/").content.decode()
    assert "Harbour desk" in html and nav_total(html) == 2
    subscription = Subscription.objects.get(user=ann, feed=harbour)
    client_ann.post(f"/subscriptions/{subscription.id}/folder", {"folder": "Local"})
    assert re.search(r'folder=Local"[^>]*>Local</a>', client_ann.get("/").content.decode())
    client_ann.post(f"/subscriptions/{subscription.id}/unsubscribe")
    html = client_ann.get("/").content.decode()
    assert "Harbour desk" not in html[html.index('class="tree"'):] and nav_total(html) == 1


def test_a_feed_page_from_the_cache_asks_only_for_its_stories(ann, client_ann):
    make_entries(ann, make_feed(ann, url="https://a.example/feed", title="Alps desk"), [0.9, 0.5, 0.1])
    client_ann.get("/?filter=all")  # fills the cache
    with CaptureQueriesContext(connection) as queries:
        html = client_ann.get("/?filter=all").content.decode()
    assert nav_total(html) == 3
    tables = [q["sql"] for q in queries.captured_queries]
    # The session, its user, and one query for the page's stories: no counts, no feed list, no MAX(id).
    assert len(tables) == 3, tables
    assert not any("COUNT(" in sql.upper() or "MAX(" in sql.upper() for sql in tables)


def test_a_page_reads_the_cached_counts_once(ann, client_ann, monkeypatch):
    from reader import unread_cache

    make_entries(ann, make_feed(ann, url="https://a.example/feed", title="Alps desk"), [0.9, 0.5])
    client_ann.get("/?filter=all")
    reads = []
    real = unread_cache._cached
    monkeypatch.setattr(unread_cache, "_cached", lambda key, user: reads.append(key) or real(key, user))
    client_ann.get("/?filter=all")
    assert sorted(reads) == [f"feed-list:{ann.pk}", f"unread:{ann.pk}"]  # the nav, the side list and mark all share one


def test_the_pages_that_follow_a_workers_fetches_show_its_stories_in_the_counts(ann, client_ann, monkeypatch):
    """Under the default per-process cache a worker cannot drop the web's copy: the progress and OPML import
    pages, which a newcomer watches while the worker fetches, drop it, so the next page counts the new stories."""
    from types import SimpleNamespace

    from reader.ingestion import feeds
    from reader.models import OpmlImport

    feed = make_feed(ann, url="https://h.example/feed")
    store(feed, parse(items("a"), feed.url))
    assert nav_total(client_ann.get("/").content.decode()) == 1  # now cached
    # The worker's drop of the cache, which in another process leaves the web's copy as it was.
    monkeypatch.setattr(feeds, "unread_cache", SimpleNamespace(forget=lambda user_ids: None))
    store(feed, parse(items("a", "b"), feed.url))
    assert nav_total(client_ann.get("/").content.decode()) == 1  # the web's copy, stale
    client_ann.get(f"/api/progress?feeds={feed.id}")
    assert nav_total(client_ann.get("/").content.decode()) == 2
    store(feed, parse(items("a", "b", "c"), feed.url))
    job = OpmlImport.objects.create(user=ann, status=OpmlImport.Status.DONE)
    assert nav_total(client_ann.get(f"/subscriptions/import/{job.id}/").content.decode()) == 3
