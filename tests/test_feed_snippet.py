"""The feed page's snippet is stored with the story: the feed's teaser first, the article once extracted."""
from datetime import timedelta

import pytest
from django.utils import timezone

from reader.ingestion import articles, feeds
from reader.web.jinja import ago
from reader.models import Feed, Story

pytestmark = pytest.mark.django_db

RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Desk</title><link>{base}</link>
<item><title>Harbour reopens</title><link>{base}/a</link><guid>a</guid><description>Teaser of the harbour story</description></item>
</channel></rss>"""
PAGE = ("<html><head><title>Harbour reopens</title></head><body><nav><a href='/'>Home</a></nav><article>"
        "<h1>Harbour reopens</h1>" + "".join(
            f"<p>Paragraph {i}: the ferries came back on Monday, the fish market opened its doors again and the "
            f"harbour master counted the boats, one by one, as they returned from the winter moorings.</p>"
            for i in range(6)) + "</article><footer>Contact us</footer></body></html>")


def test_snippet_follows_the_better_article(server, allow_loopback):
    server.add("/a", PAGE, headers={"Content-Type": "text/html"})
    feed = Feed.objects.create(url=server.add("/feed.xml", RSS.format(base=server.url("")),
                                              headers={"Content-Type": "application/rss+xml"}))
    feeds.refresh(feed)
    story = Story.objects.get(feed=feed)
    assert story.snippet == "Teaser of the harbour story"
    articles.extract_story(story)
    story.refresh_from_db()
    assert story.best_is_extracted
    # The article's own headline is dropped, and the snippet stops at 40 words.
    assert story.snippet.startswith("Paragraph 0: the ferries came back")
    assert len(story.snippet.split()) == Story.SNIPPET_WORDS and story.snippet.endswith("…")


def test_age_names_the_largest_unit():
    now = timezone.now()
    assert ago(now) == "just now"
    assert ago(now - timedelta(seconds=61)) == "1 minute ago"
    assert ago(now - timedelta(hours=3, minutes=59)) == "3 hours ago"
    assert ago(now - timedelta(days=9)) == "1 week ago"
    assert ago(now - timedelta(days=800)) == "2 years ago"
