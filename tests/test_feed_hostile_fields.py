"""Issue 16, findings 4 and 5: one hostile field or header is dropped or clamped and noted on the feed.

Each feed (tests/feed_hostile_cases.py) holds one good entry ("Kept") carrying one hostile field. Before the fix each crashed parsing
(or scheduling, after the stories were stored): the subscribe form answered 500 and the worker dropped the
whole feed with no error recorded.
"""
from datetime import timedelta

import pytest
from django.urls import reverse

from feed_hostile_cases import CASES, XML, rss
from reader.ingestion import feeds
from reader.models import Feed, Story, Subscription
from ui_factories import ann, client_ann, record_sends  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


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
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
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


@pytest.mark.django_db
def test_lone_surrogates_in_a_json_feed_become_replacement_characters_and_the_feed_is_stored():
    """JSON escapes can spell a lone surrogate (the fuzzer found "id": "\\ud800"); no database stores one."""
    from reader.ingestion.parsing import parse

    body = (b'{"version": "https://jsonfeed.org/version/1.1", "title": "T\\ud800", "items": ['
            b'{"id": "\\ud800", "title": "Half \\udc00 a pair", "tags": ["x\\ud800"], "content_text": "ok \\ud83d\\ude00",'
            b' "attachments": [{"url": "https://e.example/\\ud800.mp3", "mime_type": "audio/mpeg"}]},'
            b'{"id": "2", "title": "Fine", "content_text": "fine"}]}')
    feed = Feed.objects.create(url="https://e.example/feed.json")
    feeds.store(feed, parse(body, feed.url))
    stories = {s.guid: s for s in Story.objects.filter(feed=feed)}
    assert set(stories) == {"\ufffd", "2"}
    odd = stories["\ufffd"]
    assert odd.title == "Half \ufffd a pair" and odd.tags == ["x\ufffd"] and "😀" in odd.summary_html
