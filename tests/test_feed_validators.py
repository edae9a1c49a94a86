"""Header values from a feed's server: ETag and Last-Modified are sent back as they came or not kept, and a
redirect's Location is read as a browser reads it. One hostile header value never stops the feed from being
stored or its error from being recorded (PostgreSQL refuses a NUL in text), and no cut validator is sent."""
import pytest
from django.contrib.auth.models import User

from conftest import follow_feed
from reader.ingestion import feeds
from test_feed_refresh import RSS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value, kept", [('"v1"', True), ('W/"a\u00ff"', True), ('"a\x00b"', False),
                                         ('"\x01\x7f"', False), ('"' + "x" * 600 + '"', False)])
def test_a_validator_is_kept_whole_or_not_at_all(server, allow_loopback, value, kept):
    user = User.objects.create_user("ann", password="pw")
    url = server.add("/feed.xml", RSS.format(base=server.url("")), headers={"ETag": value, "Last-Modified": value})
    feed = follow_feed(user, url)
    assert len(feeds.refresh(feed).new_story_ids) == 2
    feed.refresh_from_db()
    assert feed.error_count == 0 and feed.stories.count() == 2
    assert (feed.etag, feed.last_modified) == ((value, value) if kept and len(value) <= 100 else
                                               (value, "") if kept else ("", ""))
    feeds.refresh(feed)
    sent = server.requests[-1][1]
    assert sent.get("If-None-Match") == (value if kept else None)


@pytest.mark.parametrize("location, path", [("/a\x00b", "/a%00b"), (" /x\x01y z\x7f\t", "/x%01y%20z%7F")])
def test_a_redirect_with_control_characters_is_escaped_as_a_browser_does(server, allow_loopback, location, path):
    # Unescaped, the NUL went on into the next URL and the feed's error, which PostgreSQL refused to store:
    # the refresh raised and the feed's subscribers never saw why it failed.
    user = User.objects.create_user("ann", password="pw")
    feed = follow_feed(user, server.add("/feed.xml", status=302, headers={"Location": location}))
    assert feeds.refresh(feed).error
    feed.refresh_from_db()
    assert feed.error_count == 1 and feed.last_error == f"{server.url(path)} answered HTTP 404"
