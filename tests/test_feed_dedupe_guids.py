"""Issue 16, findings 8 and 15: a distinct guid is a distinct story, and so is a distinct link under one guid.

Before the fix, ten podcast episodes linking to the show's page, or ten live-blog updates at "#update-N", were
stored as one story; so were items sharing a guid but not their link.
"""
import pytest
from django.contrib.auth.models import User

from reader.ingestion import feeds
from reader.models import Entry, Story
from conftest import follow_feed

pytestmark = pytest.mark.django_db


def rss(*items):
    """items: (title, link, guid or None, enclosure URL or None)"""
    body = ""
    for title, link, guid, enclosure in items:
        body += (f"<item><title>{title}</title><link>{link}</link><description>Notes for {title}</description>"
                 + (f'<guid isPermaLink="false">{guid}</guid>' if guid else "")
                 + (f'<enclosure url="{enclosure}" type="audio/mpeg" length="1"/>' if enclosure else "") + "</item>")
    return f'<rss version="2.0"><channel><title>Show</title>{body}</channel></rss>'


@pytest.fixture
def user():
    return User.objects.create_user("pod")


@pytest.fixture
def fetch(server, allow_loopback, user):
    feed = follow_feed(user, server.add("/feed.xml", rss()))

    def fetch(*items):
        server.add("/feed.xml", rss(*items))
        return feeds.refresh(feed)
    fetch.feed = feed
    return fetch


def episodes(numbers, guid="ep{}"):
    return [(f"Episode {n}", "http://show.example/", guid.format(n) if guid else None,
             f"http://show.example/{n}.mp3") for n in numbers]


def test_podcast_episodes_linking_to_the_show_page_are_all_kept(fetch, user):
    outcome = fetch(*episodes(range(1, 11)))
    assert len(outcome.new_story_ids) == 10
    assert Entry.objects.filter(user=user).count() == 10


def test_live_blog_updates_are_all_kept_with_or_without_guids(fetch):
    updates = [(f"Update {n}", f"http://news.example/live#update-{n}", f"u{n}", None) for n in range(10)]
    assert len(fetch(*updates).new_story_ids) == 10
    no_guids = [(f"Later {n}", f"http://news.example/live2#update-{n}", None, None) for n in range(10)]
    assert len(fetch(*no_guids).new_story_ids) == 10


def test_a_new_episode_is_new_and_a_refetch_adds_nothing(fetch):
    fetch(*episodes(range(1, 11)))
    outcome = fetch(*episodes(range(2, 12)))  # episode 11 arrives, episode 1 falls off the feed
    assert [Story.objects.get(id=i).title for i in outcome.new_story_ids] == ["Episode 11"]
    assert fetch(*episodes(range(2, 12))).new_story_ids == []
    assert Story.objects.filter(feed=fetch.feed).count() == 11


def test_a_daily_show_of_one_item_under_one_title_keeps_every_day(fetch):
    fetch(("Daily news", "http://show.example/", "d1", "http://show.example/d1.mp3"))
    outcome = fetch(("Daily news", "http://show.example/", "d2", "http://show.example/d2.mp3"))
    assert len(outcome.new_story_ids) == 1 and Story.objects.filter(feed=fetch.feed).count() == 2


def test_items_sharing_a_guid_with_distinct_links_are_all_kept_and_stay_so(fetch):
    items = [(f"Post {n}", f"http://blog.example/{n}", "same-guid", None) for n in range(3)]
    assert len(fetch(*items).new_story_ids) == 3
    assert fetch(*items).new_story_ids == []
    assert fetch(*reversed(items)).new_story_ids == []
    titles = Story.objects.filter(feed=fetch.feed).values_list("title", flat=True)
    assert sorted(titles) == ["Post 0", "Post 1", "Post 2"]


def test_items_sharing_a_guid_and_link_but_not_a_title_are_all_kept(fetch):
    items = [(f"Episode {n}", "http://show.example/", None, None) for n in range(4)]  # no guid: the link stands in
    assert len(fetch(*items).new_story_ids) == 4
    assert fetch(*items).new_story_ids == []


def test_a_story_joined_later_by_another_under_its_guid_keeps_its_identity(fetch):
    (first,) = fetch(("Post A", "http://blog.example/a", "g", None)).new_story_ids
    outcome = fetch(("Post B", "http://blog.example/b", "g", None), ("Post A", "http://blog.example/a", "g", None))
    assert len(outcome.new_story_ids) == 1 and outcome.changed_link_ids == []
    assert Story.objects.get(id=first).url == "http://blog.example/a"
    assert Story.objects.get(id=outcome.new_story_ids[0]).title == "Post B"


def test_a_redelivered_identical_item_is_one_story(fetch):
    item = ("Post", "http://blog.example/p", "g", None)
    assert len(fetch(item, item, item).new_story_ids) == 1
    assert fetch(item).new_story_ids == []


def test_long_guids_sharing_their_first_thousand_characters_are_two_stories(fetch):
    """Guids are cut to fit the index; the later story took the earlier one's cut guid and overwrote it."""
    stem = "tag:blog.example,2026:" + "x" * 1200
    (first,) = fetch(("Post A", "http://blog.example/a", stem + "/a", None)).new_story_ids
    (second,) = fetch(("Post B", "http://blog.example/b", stem + "/b", None)).new_story_ids
    assert first != second and Story.objects.get(id=first).title == "Post A"
    assert fetch(("Post B", "http://blog.example/b", stem + "/b", None)).new_story_ids == []
