"""Issue 16, findings 4 and 5: one hostile field or header is dropped or clamped and noted on the feed.

Each feed below holds one good entry ("Kept") carrying one hostile field. Before the fix each crashed parsing
(or scheduling, after the stories were stored): the subscribe form answered 500 and the worker dropped the
whole feed with no error recorded.
"""
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from reader import feeds, views
from reader.models import Feed, Story, Subscription
from reader.parsing import EARLIEST
from ui_factories import ann, client_ann, record_delay  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
XML = {"Content-Type": "application/rss+xml"}
JSON = {"Content-Type": "application/feed+json"}


def rss(channel="", item=""):
    return (f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">'
            f'<channel><title>Hostile desk</title>{channel}<item><title>Kept</title><link>http://x.example/1</link>'
            f'<guid>k1</guid><description>Body</description>{item}</item></channel></rss>')


def atom(updated):
    return (f'<feed xmlns="http://www.w3.org/2005/Atom"><title>Hostile desk</title><entry><title>Kept</title>'
            f'<id>k1</id><link href="http://x.example/1"/><updated>{updated}</updated><content>Body</content>'
            f'</entry></feed>')


def jsonfeed(**field):
    item = {"id": "k1", "title": "Kept", "url": "http://x.example/1", "content_text": "Body", **field}
    return json.dumps({"version": "https://jsonfeed.org/version/1.1", "title": "Hostile desk", "items": [item]})


def published(story):
    return story.published


# name: (body, headers, what the note on the feed says, what the kept story's field must be)
CASES = {
    "ttl superscript two": (rss("<ttl>\u00b2</ttl>"), XML, "<ttl> that is not a number", None),
    "ttl of 5,000 digits": (rss(f"<ttl>{'9' * 5000}</ttl>"), XML, "<ttl> of 5000 digits", None),
    "enclosure http://[x/": (rss(item='<enclosure url="http://[x/" type="audio/mpeg" length="1"/>'), XML,
                             "invalid enclosure URL", lambda s: s.enclosures == []),
    "media:thumbnail http://[x/": (rss(item='<media:thumbnail url="http://[x/"/>'), XML, "invalid thumbnail URL",
                                   lambda s: s.thumbnail == ""),
    "Atom year 0": (atom("0000-01-01T00:00:00Z"), {}, "before 1970", lambda s: s.published == EARLIEST),
    "Atom year 1 at +14:00": (atom("0001-01-01T00:00:00+14:00"), {}, "before 1970", lambda s: s.published == EARLIEST),
    "JSON attachments 5": (jsonfeed(attachments=5), JSON, "attachments that are not a list",
                           lambda s: s.enclosures == []),
    "JSON url http://[x/": (jsonfeed(url="http://[x/"), JSON, "invalid entry link URL", lambda s: s.url == ""),
    "JSON image http://[x/": (jsonfeed(image="http://[x/"), JSON, "invalid image URL", lambda s: s.thumbnail == ""),
    "JSON date 9999-12-31T23:59:59-10:00": (jsonfeed(date_published="9999-12-31T23:59:59-10:00"), JSON,
                                            "date in the future", lambda s: s.published <= timezone.now()),
    "JSON size of 5,000 digits": (jsonfeed(attachments=[{"url": "/a.mp3", "size_in_bytes": 7}])
                                  .replace(": 7}", f": {'9' * 5000}}}"), JSON, "",
                                  lambda s: s.enclosures[0]["url"].endswith("/a.mp3") and s.enclosures[0]["length"] == ""),
    "charset=undefined": (rss(), {"Content-Type": "application/rss+xml; charset=undefined"},
                          "charset 'undefined'", None),
    "encoding=zlib declared": (rss().replace('encoding="utf-8"', 'encoding="zlib_codec"'), XML,
                               "encoding 'zlib_codec'", None),
}


@pytest.fixture
def serve(server, allow_loopback):
    def serve(case):
        body, headers, _, _ = CASES[case]
        return server.add("/feed", body.encode() if isinstance(body, str) else body, headers=headers)
    return serve


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_field_is_dropped_or_clamped_and_noted_and_the_entry_kept(serve, case):
    _, _, note, check = CASES[case]
    feed = Feed.objects.create(url=serve(case))
    outcome = feeds.refresh(feed)
    feed.refresh_from_db()
    story = Story.objects.get(feed=feed)
    assert outcome.error == "" and feed.last_error == "" and feed.title == "Hostile desk"
    assert story.title == "Kept" and "Body" in story.summary_html
    assert note in feed.notice
    assert check is None or check(story)
    assert feed.next_fetch_at > feed.last_fetched_at


@pytest.mark.parametrize("case", CASES)
def test_the_subscribe_form_takes_a_feed_with_a_hostile_field(serve, client_ann, ann, monkeypatch, case):
    record_delay(monkeypatch, views.fetch_feed)
    response = client_ann.post(reverse("subscriptions"), {"url": serve(case), "folder": ""})
    assert response.status_code == 302 and Subscription.objects.filter(user=ann).count() == 1


@pytest.mark.parametrize("value", ["max-age=\u00b2", "max-age=" + "9" * 5000, "max-age=1e9, max-age=-5"])
def test_a_hostile_cache_control_still_schedules_the_feed(server, allow_loopback, settings, value):
    feed = Feed.objects.create(url=server.add("/feed", rss(), headers={**XML, "Cache-Control": value}))
    assert len(feeds.refresh(feed).new_story_ids) == 1
    feed.refresh_from_db()
    assert feed.last_error == "" and feed.last_fetched_at is not None
    assert feed.next_fetch_at <= feed.last_fetched_at + timedelta(seconds=settings.FEED_MAX_INTERVAL)


@pytest.mark.parametrize("value", ["\u00b2", "9" * 5000, "Fri, 31 Dec 99999999999 23:59:59 GMT"])
def test_a_hostile_retry_after_on_a_503_is_recorded(server, allow_loopback, value):
    feed = Feed.objects.create(url=server.add("/feed", "busy", status=503, headers={"Retry-After": value}))
    outcome = feeds.refresh(feed)
    feed.refresh_from_db()
    assert "503" in outcome.error and feed.error_count == 1 and "503" in feed.last_error
    assert feed.next_fetch_at > feed.last_fetched_at
