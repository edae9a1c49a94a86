"""The admin lists feeds with their health and filters those failing for days."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from kombu.exceptions import OperationalError

from django.contrib.admin import site

from reader import queue
from reader.models import Feed, Story
from ui_factories import record_sends

pytestmark = pytest.mark.django_db


def test_failing_feeds_show_their_error_and_can_be_filtered(client):
    admin = User.objects.create_superuser("root", password="pw")
    client.force_login(admin)
    Feed.objects.create(url="http://ok.example/feed", title="Fine feed")
    Feed.objects.create(url="http://down.example/feed", title="Down feed", error_count=9,
                        last_error="http://down.example/feed: cannot connect", failing_since=timezone.now() - timedelta(days=3))
    page = client.get("/admin/reader/feed/?health=days").content.decode()
    assert "Down feed" in page and "cannot connect" in page and "3\xa0days" in page
    assert "Fine feed" not in page
    assert "Fine feed" in client.get("/admin/reader/feed/?health=ok").content.decode()


def test_format_filter_names_feeds_not_read_yet(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    Feed.objects.create(url="http://new.example/feed", title="New feed")
    Feed.objects.create(url="http://atom.example/feed", title="Atom feed", format="atom10")
    page = client.get("/admin/reader/feed/").content.decode()
    assert 'href="?format=unknown"' in page and ">not read yet</a>" in page and 'href="?format="' not in page
    unknown = client.get("/admin/reader/feed/?format=unknown").content.decode()
    assert "New feed" in unknown and "Atom feed" not in unknown
    assert "Atom feed" in client.get("/admin/reader/feed/?format=atom10").content.decode()


@pytest.mark.parametrize("model", [Feed, Story])
def test_an_address_pasted_without_a_scheme_is_read_as_https(model, rf):
    request = rf.get("/admin/")
    request.user = User.objects.create_superuser("root", password="pw")
    form = site._registry[model].get_form(request)
    assert form.base_fields["url"].clean("example.org/feed") == "https://example.org/feed"


def feed_form(client, feed) -> dict:
    """The change form's fields as the browser posts them back, from the page the admin loaded."""
    form = client.get(f"/admin/reader/feed/{feed.id}/change/").context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    stamp = data.pop("next_fetch_at")
    return {**{k: v for k, v in data.items() if v is not None},
            "next_fetch_at_0": stamp.strftime("%Y-%m-%d"), "next_fetch_at_1": stamp.strftime("%H:%M:%S")}


def test_saving_a_feed_keeps_the_lock_a_worker_took_after_the_form_loaded(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    feed = Feed.objects.create(url="http://busy.example/feed", title="Busy feed")
    data = feed_form(client, feed)
    until = timezone.now() + timedelta(minutes=2)
    Feed.objects.filter(id=feed.id).update(locked_by="task-7", locked_until=until)
    response = client.post(f"/admin/reader/feed/{feed.id}/change/", {**data, "title": "Renamed"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    feed.refresh_from_db()
    assert (feed.title, feed.locked_by, feed.locked_until) == ("Renamed", "task-7", until)


def test_story_list_never_scans_every_story_for_its_filters(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    feed = Feed.objects.create(url="http://news.example/feed", title="News")
    Story.objects.create(feed=feed, guid="old", title="Old story", published=timezone.now() - timedelta(days=30))
    Story.objects.create(feed=feed, guid="new", title="New story", extraction_method="clump",
                         extraction_status=Story.Extraction.DONE)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/admin/reader/story/").content.decode()
    assert "Old story" in page and "New story" in page
    assert not [q["sql"] for q in queries if "DISTINCT" in q["sql"] or "MIN(" in q["sql"]]
    week = client.get("/admin/reader/story/", {"published__gte": str(timezone.now() - timedelta(days=7))})
    assert "New story" in week.content.decode() and "Old story" not in week.content.decode()
    clump = client.get("/admin/reader/story/?method=clump").content.decode()
    assert "New story" in clump and "Old story" not in clump
    pending = client.get("/admin/reader/story/?method=default").content.decode()
    assert "Old story" in pending and "New story" not in pending


def test_feed_list_counts_stories_per_listed_feed_without_joining_every_story(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    busy = Feed.objects.create(url="http://busy.example/feed", title="Busy feed")
    Feed.objects.create(url="http://quiet.example/feed", title="Quiet feed")
    Story.objects.bulk_create([Story(feed=busy, guid=str(i), title=f"Story {i}") for i in range(3)])
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/admin/reader/feed/?o=10")  # sorted by the stories column, fewest first
    listed = [(feed.title, feed.story_count) for feed in response.context["cl"].result_list]
    assert listed == [("Quiet feed", 0), ("Busy feed", 3)]
    assert not [q["sql"] for q in queries if 'JOIN "reader_story"' in q["sql"]]


@pytest.mark.django_db(transaction=True)  # the action's messages go to the broker as they would in production
def test_fetch_now_queues_the_feeds_and_says_so_when_the_broker_is_down(client, monkeypatch):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    feeds = [Feed.objects.create(url=f"http://site{i}.example/feed", title=f"Feed {i}") for i in range(2)]
    sent = record_sends(monkeypatch, "reader.tasks.fetch_feed")
    action = {"action": "fetch_now", "_selected_action": [feed.id for feed in feeds]}
    response = client.post("/admin/reader/feed/", action, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Queued 2 feed(s) for fetching."]
    assert sorted(sent) == sorted(feed.id for feed in feeds)

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(queue.app, "send_task", broker_down)
    response = client.post("/admin/reader/feed/", action, follow=True)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Could not queue the fetch: the task broker is unreachable (Error 111 connecting to 127.0.0.1:6379. "
        "Connection refused.)."]


def test_a_long_error_is_cut_with_an_ellipsis_and_shown_whole_on_hover(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    error = "http://slow.example/feed: " + "the server sent a page of rubbish " * 10 + "at the end"
    Feed.objects.create(url="http://slow.example/feed", title="Slow feed", error_count=1, last_error=error)
    page = client.get("/admin/reader/feed/").content.decode()
    assert f'<span title="{error}">{error[:119]}…</span>' in page
    assert "at the end</" not in page
