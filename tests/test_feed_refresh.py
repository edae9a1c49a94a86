"""Fetching a feed stores its stories once, and every failure is recorded on the feed."""
import pytest
from django.contrib.auth.models import User

from reader.ingestion import feeds
from reader.models import Entry, Feed, Story
from conftest import follow_feed

RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Test desk</title><link>{base}</link>
<item><title>First story</title><link>{base}/a</link><guid>a</guid><description>Teaser A</description></item>
<item><title>Second story</title><link>{base}/b</link><guid>b</guid><description>Teaser B</description></item>
</channel></rss>"""

pytestmark = pytest.mark.django_db


@pytest.fixture
def reader_user():
    return User.objects.create_user("ann", password="pw")


def test_new_stories_are_stored_once_and_reach_subscribers(server, allow_loopback, reader_user):
    url = server.add("/feed.xml", RSS.format(base=server.url("")), headers={"Content-Type": "application/rss+xml"})
    feed = follow_feed(reader_user, url)
    assert len(feeds.refresh(feed).new_story_ids) == 2
    assert len(feeds.refresh(feed).new_story_ids) == 0
    assert Story.objects.filter(feed=feed).count() == 2
    assert Entry.objects.filter(user=reader_user).count() == 2
    feed.refresh_from_db()
    assert feed.title == "Test desk" and feed.error_count == 0


def test_conditional_get_uses_the_etag(server, allow_loopback, reader_user):
    url = server.add("/feed.xml", RSS.format(base=server.url("")), headers={"ETag": '"v1"'})
    feed = follow_feed(reader_user, url)
    feeds.refresh(feed)
    server.add("/feed.xml", status=304)
    assert feeds.refresh(feed).not_modified
    assert server.requests[-1][1].get("If-None-Match") == '"v1"'


def test_updated_story_is_updated_not_duplicated(server, allow_loopback, reader_user):
    url = server.add("/feed.xml", RSS.format(base=server.url("")))
    feed = follow_feed(reader_user, url)
    feeds.refresh(feed)
    server.add("/feed.xml", RSS.format(base=server.url("")).replace("First story", "First story, corrected"))
    feeds.refresh(feed)
    assert Story.objects.filter(feed=feed).count() == 2
    assert Story.objects.get(feed=feed, url=server.url("/a")).title == "First story, corrected"


@pytest.mark.parametrize("body", ["<html><body><h1>Not found</h1><p>Sorry.</p></body></html>", "", "\x00\x01garbage"])
def test_not_a_feed_is_recorded(server, allow_loopback, body):
    feed = Feed.objects.create(url=server.add("/feed.xml", body))
    assert feeds.refresh(feed).new_story_ids == []
    feed.refresh_from_db()
    assert feed.error_count == 1 and "not a feed" in feed.last_error
    assert feed.next_fetch_at > feed.last_fetched_at


def test_dead_host_and_refused_redirect_are_recorded(server, allow_loopback):
    dead = Feed.objects.create(url="http://127.0.0.1:9/feed.xml")
    feeds.refresh(dead)
    dead.refresh_from_db()
    assert dead.error_count == 1 and dead.last_error == "Could not reach 127.0.0.1: the site refused the connection."


def test_redirect_to_loopback_with_default_setting_is_recorded(server):
    url = server.add("/feed.xml", RSS.format(base=server.url("")))
    feed = Feed.objects.create(url=url)
    feeds.refresh(feed)
    feed.refresh_from_db()
    assert feed.error_count == 1 and "refused" in feed.last_error
    assert server.requests == []
