"""Issue 17: subscribing stores the body discovery fetched (as Miniflux does), so a new feed is fetched once, its
stories are in the reader's feed when the request ends, and the worker does not fetch it again at once.

Every path goes through reader.ingestion.subscribe: the form, add_feed, OPML import (which fetches nothing).
"""
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from reader.ingestion import opml
from reader.ingestion.subscribe import subscribe
from reader.models import Entry, Feed, Story, Subscription
from ui_factories import ann, client_ann, make_user, record_sends  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

RSS_TYPE = {"Content-Type": "application/rss+xml", "ETag": '"v1"', "Last-Modified": "Tue, 01 Dec 2026 08:00:00 GMT"}


def rss(server, slugs) -> str:
    items = "".join(f"<item><title>{s.title()} story</title><link>{server.url('/' + s)}</link><guid>{s}</guid>"
                    f"<description>About {s}.</description></item>" for s in slugs)
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>Quay desk</title>{items}</channel></rss>'


def fetches(server, path) -> int:
    return sum(1 for requested, _ in server.requests if requested == path)


@pytest.fixture
def sent(monkeypatch):
    """The first fetches and the page queueings sent on commit."""
    return {"fetch": record_sends(monkeypatch, "reader.tasks.fetch_feed"),
            "pages": record_sends(monkeypatch, "reader.tasks.queue_story_pages")}


def test_the_form_stores_the_feed_it_fetched_once_and_shows_its_stories(server, allow_loopback, ann, client_ann,
                                                                        sent, django_capture_on_commit_callbacks):
    url = server.add("/feed.xml", rss(server, ["harbour", "ferry"]), headers=RSS_TYPE)
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        response = client_ann.post("/subscriptions/", {"url": url, "folder": ""})
    assert response.status_code == 302 and fetches(server, "/feed.xml") == 1

    home = client_ann.get(f"/?filter=all&feed={Feed.objects.get(url=url).id}").content.decode()
    assert "Harbour story" in home and "Ferry story" in home
    feed = Feed.objects.get(url=url)
    assert feed.title == "Quay desk" and feed.etag == '"v1"' and feed.last_modified == RSS_TYPE["Last-Modified"]
    assert feed.last_fetched_at >= before and feed.next_fetch_at >= before + timedelta(minutes=1)
    stories = sorted(Story.objects.filter(feed=feed).values_list("id", flat=True))
    assert sent["fetch"] == [] and [sorted(ids) for ids in sent["pages"]] == [stories]


def test_a_page_linking_its_feed_fetches_each_address_once(server, allow_loopback, sent,
                                                           django_capture_on_commit_callbacks):
    server.add("/blog/", '<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml">'
                         '</head><body>Hello</body></html>', headers={"Content-Type": "text/html"})
    server.add("/feed.xml", rss(server, ["tide"]), headers=RSS_TYPE)
    sam = make_user("sam")
    with django_capture_on_commit_callbacks(execute=True):
        feed, created, _ = subscribe(sam, server.url("/blog/"))
    assert created and feed.url == server.url("/feed.xml")
    assert [path for path, _ in server.requests] == ["/blog/", "/feed.xml"]
    assert list(Entry.objects.filter(user=sam).values_list("story__title", flat=True)) == ["Tide story"]
    assert sent["fetch"] == [] and len(sent["pages"]) == 1


def test_a_known_feed_is_followed_without_a_fetch_and_resubscribing_queues_nothing(
        server, allow_loopback, sent, django_capture_on_commit_callbacks):
    url = server.add("/feed.xml", rss(server, ["pier"]), headers=RSS_TYPE)
    first, second = make_user("sam"), make_user("kim")
    with django_capture_on_commit_callbacks(execute=True):
        subscribe(first, url)
    with django_capture_on_commit_callbacks(execute=True):
        _, again, _ = subscribe(first, url)
        _, joined, _ = subscribe(second, url)
    assert not again and joined
    assert fetches(server, "/feed.xml") == 1 and sent["fetch"] == [] and len(sent["pages"]) == 1
    assert list(Entry.objects.filter(user=second).values_list("story__title", flat=True)) == ["Pier story"]


def test_a_linked_feed_that_cannot_be_fetched_now_is_left_to_the_worker(server, allow_loopback, sent,
                                                                        django_capture_on_commit_callbacks):
    server.add("/blog/", '<html><head><link rel="alternate" type="application/rss+xml" href="/gone.xml">'
                         '</head><body>Hello</body></html>', headers={"Content-Type": "text/html"})
    with django_capture_on_commit_callbacks(execute=True):
        feed, created, _ = subscribe(make_user("sam"), server.url("/blog/"))
    assert created and sent["fetch"] == [feed.id] and sent["pages"] == []
    assert not Story.objects.exists()


def test_add_feed_stores_the_stories_at_once(server, allow_loopback, sent, capsys):
    make_user("ada")
    url = server.add("/feed.xml", rss(server, ["market", "bridge"]), headers=RSS_TYPE)
    call_command("add_feed", url, "--user", "ada", "--folder", "Town")
    out = capsys.readouterr().out
    assert f"subscribed: {url}" in out and "2 stories" in out
    assert Subscription.objects.get(user__username="ada", feed__url=url).folder == "Town"
    assert Story.objects.filter(feed__url=url).count() == 2 and fetches(server, "/feed.xml") == 1


def test_opml_import_fetches_nothing_and_queues_each_new_feed_once(server, allow_loopback, sent,
                                                                   django_capture_on_commit_callbacks):
    url = server.add("/feed.xml", rss(server, ["quay"]), headers=RSS_TYPE)
    sam = make_user("sam")
    document = (f'<opml version="2.0"><body><outline type="rss" text="Quay" xmlUrl="{url}"/>'
                f'<outline type="rss" text="Other" xmlUrl="{server.url("/other.xml")}"/></body></opml>').encode()
    with django_capture_on_commit_callbacks(execute=True):
        report = opml.import_opml(sam, document)
    with django_capture_on_commit_callbacks(execute=True):
        again = opml.import_opml(sam, document)
    assert server.requests == [] and sorted(sent["fetch"]) == sorted(report.new_feed_ids)
    assert report.subscribed == 2 and again.already == 2 and again.new_feed_ids == []
