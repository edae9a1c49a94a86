"""The admin's entry form: the story's feed is copied, never chosen from a list of every feed."""
import pytest
from django.contrib.auth.models import User

from reader.models import Entry, Feed, Rating, Story

pytestmark = pytest.mark.django_db


def test_entry_form_lists_no_feeds_and_keeps_the_feed_of_its_story(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    reader = User.objects.create_user("ann")
    feeds = Feed.objects.bulk_create([Feed(url=f"http://site{i}.example/feed", title=f"Feed {i}") for i in range(50)])
    first = Story.objects.create(feed=feeds[0], guid="a", title="First")
    moved_to = Story.objects.create(feed=feeds[1], guid="b", title="Second")
    entry = Entry.objects.create(user=reader, story=first)
    page = client.get(f"/admin/reader/entry/{entry.id}/change/").content.decode()
    assert 'name="feed"' not in page and "Feed 49" not in page
    response = client.post(f"/admin/reader/entry/{entry.id}/change/",
                           {"user": reader.id, "story": moved_to.id, "score": "0.5"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.feed_id == feeds[1].id


def test_entry_and_rating_pages_name_the_story_and_reader(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    reader = User.objects.create_user("ann")
    story = Story.objects.create(feed=Feed.objects.create(url="http://news.example/feed"), guid="a",
                                 title="Ferry returns")
    entry = Entry.objects.create(user=reader, story=story)
    rating = Rating.objects.create(user=reader, story=story, value=Rating.GOOD)
    entry_page = client.get(f"/admin/reader/entry/{entry.id}/change/").content.decode()
    assert "<title>Ferry returns in ann&#x27;s feed | Change entry" in entry_page
    rating_page = client.get(f"/admin/reader/rating/{rating.id}/change/").content.decode()
    assert "<title>ann rated Ferry returns: good | Change rating" in rating_page
