"""Stories are deduplicated by guid; a story under a new guid is found by link and title, or content; updates update."""
import pytest
from django.contrib.auth.models import User

from reader.ingestion import feeds
from reader.models import Entry, Story
from reader.ingestion.feed_fields import normalised_link
from conftest import follow_feed

pytestmark = pytest.mark.django_db


def rss(*items):
    body = ""
    for title, link, guid, text in items:
        guid = f'<guid isPermaLink="false">{guid}</guid>' if guid else ""
        body += f"<item><title>{title}</title><link>{link}</link>{guid}<description>{text}</description></item>"
    return f'<rss version="2.0"><channel><title>Dedupe desk</title>{body}</channel></rss>'


@pytest.fixture
def feed(server, allow_loopback):
    user = User.objects.create_user("dee")
    feed = follow_feed(user, server.add("/feed.xml", rss()))
    return feed


def serve(server, feed, *items):
    server.add("/feed.xml", rss(*items))
    return feeds.refresh(feed)


def test_a_repeated_item_in_one_feed_yields_one_story(server, feed):
    outcome = serve(server, feed, ("A", "http://x.example/a", "g1", "one"), ("A", "http://x.example/a", "g1", "one"))
    assert len(outcome.new_story_ids) == 1 and Story.objects.get(feed=feed).title == "A"


def test_a_new_guid_for_the_same_link_and_title_is_the_same_story(server, feed):
    serve(server, feed, ("A", "http://x.example/a?utm_source=rss", "g1", "one"))
    outcome = serve(server, feed, ("A", "https://www.x.example/a#top", "g2", "one, edited"))
    assert outcome.new_story_ids == []
    story = Story.objects.get(feed=feed)
    assert (story.guid, story.summary_html) == ("g1", "one, edited")


def test_a_new_guid_and_link_with_the_same_content_is_the_same_story(server, feed):
    serve(server, feed, ("Same words", "http://x.example/a?session=1", "g1", "Identical body"))
    outcome = serve(server, feed, ("Same words", "http://x.example/a?session=2", "g2", "Identical body"))
    assert outcome.new_story_ids == [] and Story.objects.filter(feed=feed).count() == 1


def test_stories_without_text_are_not_merged_by_content(server, feed):
    outcome = serve(server, feed, ("Update", "http://x.example/1", "g1", ""), ("Update", "http://x.example/2", "g2", ""))
    assert len(outcome.new_story_ids) == 2


def test_updated_story_is_updated_and_a_moved_link_is_extracted_again(server, feed):
    (story_id,) = serve(server, feed, ("Draft", "http://x.example/old", "g1", "text")).new_story_ids
    Story.objects.filter(id=story_id).update(extraction_status=Story.Extraction.DONE, extracted_text="page text")
    outcome = serve(server, feed, ("Final", "http://x.example/new", "g1", "better text"))
    story = Story.objects.get(id=story_id)
    assert outcome.new_story_ids == [] and outcome.changed_link_ids == [story_id]
    assert (story.title, story.url, story.extraction_status) == ("Final", "http://x.example/new", "pending")
    assert story.extracted_text == "page text"  # kept until the new page is extracted


def test_subscribers_get_each_new_story_once(server, feed):
    other = User.objects.create_user("eve")
    follow_feed(other, feed.url)
    serve(server, feed, ("A", "http://x.example/a", "g1", "one"), ("B", "http://x.example/b", "g2", "two"))
    serve(server, feed, ("A", "http://x.example/a", "g1", "one"), ("B", "http://x.example/b", "g2", "two"))
    assert Entry.objects.filter(user=other).count() == 2 and Entry.objects.count() == 4


@pytest.mark.parametrize("a, b", [
    ("http://x.example/a?utm_source=rss&id=3", "https://www.X.example/a/?id=3#c"),
    ("http://x.example:80/a?b=2&a=1", "http://x.example/a?a=1&b=2"),
])
def test_normalised_links_match(a, b):
    assert normalised_link(a) == normalised_link(b)


def test_different_articles_keep_different_links():
    assert normalised_link("http://x.example/a?id=3") != normalised_link("http://x.example/a?id=4")
    assert normalised_link("http://x.example/a") != normalised_link("http://y.example/a")
