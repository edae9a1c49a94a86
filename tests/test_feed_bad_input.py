"""Bad input from the issue's list: each a recorded error with a clear message, and no stored story lost."""
import socket

import pytest

import hostile
from reader.ingestion import articles, feeds
from reader.models import Feed, Story

pytestmark = pytest.mark.django_db

GOOD = """<?xml version="1.0"?><rss version="2.0"><channel><title>Good desk</title>
<item><title>Kept one</title><link>http://x.example/1</link><guid>k1</guid><description>One</description></item>
<item><title>Kept two</title><link>http://x.example/2</link><guid>k2</guid><description>Two</description></item>
</channel></rss>"""

BILLION_LAUGHS = """<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa">
<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">]>
<rss version="2.0"><channel><title>&e;&e;&e;&e;</title><item><title>&e;</title></item></channel></rss>"""

EXTERNAL_ENTITY = """<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>t</title><item><title>&xxe;</title><guid>x</guid></item></channel></rss>"""


BAD = {
    "html error page as 200": ("<html><head><title>Oops</title></head><body><h1>500</h1></body></html>", 200, {},
                               "an HTML page, not RSS, Atom or JSON Feed"),
    "not a feed": ("Hello, plain text", 200, {"Content-Type": "text/plain"}, "not a feed"),
    "invalid xml": ("<?xml version='1.0'?><rss version='2.0'><<<>>>&&&", 200, {}, "not a feed: invalid XML"),
    "xml bomb": (BILLION_LAUGHS, 200, {}, "declares XML entities"),
    "external entity": (EXTERNAL_ENTITY, 200, {}, "declares XML entities"),
    "http 500": ("down", 500, {}, "answered HTTP 500"),
    "redirect loop": ("", 302, {"Location": "/feed.xml"}, "more than 5 redirects"),
    "endless response": (hostile.endless, 200, {}, "byte limit"),
}


@pytest.fixture
def good_feed(server, allow_loopback, settings):
    settings.FETCH_MAX_BYTES = 2_000_000
    feed = Feed.objects.create(url=server.add("/feed.xml", GOOD))
    assert len(feeds.refresh(feed).new_story_ids) == 2
    return feed


@pytest.mark.parametrize("case", BAD)
def test_bad_feed_response_is_recorded_and_loses_nothing(server, good_feed, case):
    body, status, headers, message = BAD[case]
    server.add("/feed.xml", body, status=status, headers=headers)
    outcome = feeds.refresh(good_feed)
    good_feed.refresh_from_db()
    assert message in good_feed.last_error and message in outcome.error
    assert "HTTPConnection" not in good_feed.last_error and "(" not in good_feed.last_error.split(")")[-1]
    assert good_feed.error_count == 1 and good_feed.next_fetch_at > good_feed.last_fetched_at
    assert sorted(Story.objects.filter(feed=good_feed).values_list("title", flat=True)) == ["Kept one", "Kept two"]


def test_host_that_never_answers_is_recorded(good_feed, settings):
    settings.FETCH_READ_TIMEOUT = 0.5
    from reader.ingestion import fetching
    fetching.policy.cache_clear()
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        good_feed.url = f"http://127.0.0.1:{silent.getsockname()[1]}/feed.xml"
        feeds.refresh(good_feed)
    good_feed.refresh_from_db()
    assert good_feed.error_count == 1 and "took too long to answer" in good_feed.last_error
    assert Story.objects.filter(feed=good_feed).count() == 2


def test_tls_error_is_recorded(server, good_feed):
    good_feed.url = good_feed.url.replace("http://", "https://")
    feeds.refresh(good_feed)
    good_feed.refresh_from_db()
    assert "no valid secure connection" in good_feed.last_error


@pytest.mark.parametrize("body, headers", [
    ("<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel><title>Caf\xe9</title>"
     "<item><title>R\xe9sum\xe9</title><guid>c</guid></item></channel></rss>".encode("latin-1"), {}),
    ("<?xml version='1.0'?><rss version='2.0'><channel><title>Café</title>"
     "<item><title>Résumé</title><guid>c</guid></item></channel></rss>".encode("utf-8"),
     {"Content-Type": "application/rss+xml; charset=iso-8859-1"}),
    ("<rss version='2.0'><channel><title>Café</title><item><title>Résumé</title><guid>c</guid></item></channel></rss>"
     .encode("utf-8"), {"Content-Type": "text/xml"}),
])
def test_wrong_or_missing_charsets_still_store_the_story(server, allow_loopback, body, headers):
    feed = Feed.objects.create(url=server.add("/feed.xml", body, headers=headers))
    assert len(feeds.refresh(feed).new_story_ids) == 1
    assert Story.objects.get(feed=feed).title == "Résumé"


def test_truncated_xml_keeps_what_can_be_read_and_says_so(server, allow_loopback):
    body = GOOD.replace("</channel></rss>", "<item><title>Cut off<guid>k3")
    feed = Feed.objects.create(url=server.add("/feed.xml", body))
    assert len(feeds.refresh(feed).new_story_ids) >= 2
    feed.refresh_from_db()
    assert feed.error_count == 0 and feed.notice.startswith("read leniently:")


def test_ten_thousand_entries_are_capped_with_a_notice_and_never_duplicated(server, allow_loopback, settings):
    settings.FEED_MAX_ENTRIES = 300
    items = "".join(f"<item><title>Item {i}</title><guid isPermaLink='false'>g{i}</guid>"
                    f"<description>Text {i}</description></item>" for i in range(10_000))
    feed = Feed.objects.create(url=server.add("/feed.xml", f"<rss version='2.0'><channel><title>Big</title>{items}"
                                              "</channel></rss>"))
    assert len(feeds.refresh(feed).new_story_ids) == 300
    assert len(feeds.refresh(feed).new_story_ids) == 0
    feed.refresh_from_db()
    assert Story.objects.filter(feed=feed).count() == 300 and feed.error_count == 0
    assert feed.notice == "the feed has 10000 entries; only the first 300 are read"


def test_story_page_of_100_megabytes_is_recorded_on_the_story(server, good_feed):
    story = Story.objects.filter(feed=good_feed).first()
    story.url = server.add("/huge.html", hostile.huge(100, declared=False))  # the cap must cut the stream
    articles.extract_story(story)
    story.refresh_from_db()
    assert story.extraction_status == "failed" and "byte limit" in story.extraction_error
