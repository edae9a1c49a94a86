"""Unread counts, one feed or folder as a view, newest first, read/unread, mark all read, refresh now (issue 19),
and no state change on GET (issue 16, finding 14)."""
import re
import sqlite3
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.utils import timezone

from reader.web import reading, stream
from reader.models import Entry, Feed, Story
from ui_factories import (ann, client_ann, make_entries, make_feed, make_story, make_user,  # noqa: F401
                          record_sends)

pytestmark = pytest.mark.django_db


def titles(html: str) -> list[str]:
    return re.findall(r'<h2 class="title"><a [^>]*>([^<]*)</a>', html)


def two_feeds(user):
    """Harbour desk (folder Local, 3 stories) and Alps desk (no folder, 2 stories)."""
    harbour = make_feed(user, url="https://harbour.example/feed", title="Harbour desk", folder="Local")
    alps = make_feed(user, url="https://alps.example/feed", title="Alps desk")
    for n, score in enumerate([0.9, 0.5, 0.1]):
        Entry.objects.create(user=user, story=make_story(harbour, n, title=f"Harbour {n}"), score=score)
    for n, score in enumerate([0.8, 0.3]):
        Entry.objects.create(user=user, story=make_story(alps, n, title=f"Alps {n}"), score=score)
    return harbour, alps


def test_get_of_a_story_changes_nothing_and_read_is_post_only(ann, client_ann):
    entry = make_entries(ann, make_feed(ann), [0.5])[0]
    assert client_ann.get(f"/stories/{entry.story_id}/").status_code == 200
    assert client_ann.get(f"/stories/{entry.story_id}/read").status_code == 405
    assert client_ann.get("/read-all").status_code == 405 and client_ann.get("/refresh").status_code == 405
    assert not Entry.objects.get(id=entry.id).read


def test_read_toggle_form_marks_read_and_unread_own_stories_only(ann, client_ann):
    entry = make_entries(ann, make_feed(ann), [0.5])[0]
    client_ann.post(f"/stories/{entry.story_id}/read", {"read": "true", "next": "/"})
    assert Entry.objects.get(id=entry.id).read
    html = client_ann.get("/?filter=all").content.decode()
    assert "Mark unread" in html and 'class="entry read' in html
    client_ann.post(f"/stories/{entry.story_id}/read", {"read": "false"})
    assert not Entry.objects.get(id=entry.id).read
    bob = Client()
    bob.force_login(make_user("bob"))
    assert bob.post(f"/stories/{entry.story_id}/read", {"read": "true"}).status_code == 404
    assert not Entry.objects.get(id=entry.id).read


def test_api_marks_several_read_and_refuses_bad_ids(ann, client_ann):
    entries = make_entries(ann, make_feed(ann), [0.9, 0.8, 0.7])
    other = make_user("bob")
    theirs = Entry.objects.create(user=other, story=entries[0].story)
    ids = [e.story_id for e in entries[:2]]
    answer = client_ann.post("/api/stories/read", {"ids": ids}, content_type="application/json")
    assert answer.json() == {"changed": 2, "read": True}
    assert sorted(Entry.objects.filter(user=ann, read=True).values_list("story_id", flat=True)) == sorted(ids)
    assert not Entry.objects.get(id=theirs.id).read
    for bad in ({"ids": "1"}, {"ids": [True]}, {"ids": [2 ** 63]}, {"ids": list(range(1, 502))}, {"ids": [1.5]},
                {"ids": [1], "read": "yes"}):
        response = client_ann.post("/api/stories/read", bad, content_type="application/json")
        assert response.status_code == 400, bad
    undo = client_ann.post("/api/stories/read", {"ids": ids, "read": False}, content_type="application/json")
    assert undo.json()["changed"] == 2


def test_unread_counts_in_nav_per_feed_and_per_folder(ann, client_ann):
    harbour, alps = two_feeds(ann)
    Entry.objects.filter(story__title="Harbour 0").update(read=True)
    html = client_ann.get("/").content.decode()
    assert re.search(r'data-unread-total[^>]*>4</span>', html)
    tree = html[html.index('class="tree"'):]
    assert re.search(rf'folder=Local"[^>]*>Local</a> <span class="count"[^>]*>2</span>', tree)
    assert re.search(rf'feed={harbour.id}"[^>]*>Harbour desk</a> <span class="count"[^>]*>2</span>', tree)
    assert re.search(rf'feed={alps.id}"[^>]*>Alps desk</a> <span class="count"[^>]*>2</span>', tree)
    assert re.search(r'folder="[^>]*>No folder</a> <span class="count"[^>]*>2</span>', tree)
    # The counts are cached, and dropped when the reader marks a story, by the form or either API.
    alps_0 = Story.objects.get(title="Alps 0").id
    client_ann.post(f"/stories/{alps_0}/read", {"read": "true"})
    assert re.search(r'data-unread-total[^>]*>3</span>', client_ann.get("/").content.decode())
    client_ann.post(f"/api/stories/{alps_0}/read", {"read": False}, content_type="application/json")
    assert re.search(r'data-unread-total[^>]*>4</span>', client_ann.get("/").content.decode())


def test_a_feed_and_a_folder_are_views_of_their_own(ann, client_ann):
    harbour, alps = two_feeds(ann)
    assert titles(client_ann.get(f"/?filter=all&feed={alps.id}").content.decode()) == ["Alps 0", "Alps 1"]
    assert titles(client_ann.get("/?filter=all&folder=Local").content.decode()) == ["Harbour 0", "Harbour 1",
                                                                                    "Harbour 2"]
    assert titles(client_ann.get("/?filter=all&folder=").content.decode()) == ["Alps 0", "Alps 1"]
    html = client_ann.get(f"/?filter=all&feed={alps.id}").content.decode()
    assert "<h1>Alps desk</h1>" in html
    story = Story.objects.get(title="Alps 0")
    # The reading view walks within the same view.
    reading = client_ann.get(f"/stories/{story.id}/?filter=all&feed={alps.id}").content.decode()
    following = Story.objects.get(title="Alps 1").id
    assert re.search(rf'href="/stories/{following}/\?filter=all&amp;feed={alps.id}" rel="next"', reading)
    assert client_ann.get("/?feed=12x").status_code == 404
    assert client_ann.get("/?feed=" + "9" * 5000).status_code == 404
    stranger = Feed.objects.create(url="https://else.example/feed")
    assert client_ann.get(f"/?feed={stranger.id}").status_code == 404


def test_newest_first_orders_by_publication_and_pages_by_its_own_cursor(ann, client_ann, monkeypatch):
    monkeypatch.setattr(stream, "PAGE_SIZE", 2)
    feed = make_feed(ann)
    now = timezone.now()
    # Published out of score order, with a tie on the time to be broken by story id.
    for n, (hours, score) in enumerate([(5, 0.9), (1, 0.1), (3, 0.5), (3, 0.7), (0, 0.3)]):
        Entry.objects.create(user=ann, story=make_story(feed, n, published=now - timedelta(hours=hours)), score=score)
    seen, url = [], "/?filter=all&sort=newest"
    while url:
        html = client_ann.get(url).content.decode()
        seen += titles(html)
        more = re.search(r'data-more href="([^"]+)"', html)
        url = "/" + more.group(1).replace("&amp;", "&") + "&partial=1" if more else None
    assert seen == ["Story 4", "Story 1", "Story 3", "Story 2", "Story 0"]
    by_score = titles(client_ann.get("/?filter=all").content.decode())
    assert by_score == ["Story 0", "Story 3"]
    assert client_ann.get("/?sort=newest&cursor=0_3").status_code == 200  # 1970: a valid time, nothing after
    for bad in ("0.5_3", "9" * 30 + "_3", "-" + "9" * 30 + "_3", "nan_3"):  # a score's cursor, or past year 9999
        assert client_ann.get(f"/?sort=newest&cursor={bad}").status_code == 404, bad


def test_mark_all_read_marks_only_the_view_and_only_what_the_page_knew(ann, client_ann):
    harbour, alps = two_feeds(ann)
    html = client_ann.get("/?filter=all&folder=Local").content.decode()
    upto = re.search(r'name="upto" value="(\d+)"', html).group(1)
    late = Entry.objects.create(user=ann, story=make_story(harbour, 9, title="Harbour late"), score=0.99)
    response = client_ann.post("/read-all", {"filter": "all", "folder": "Local", "upto": upto,
                                             "next": "/?folder=Local"})
    assert response.status_code == 302 and response["Location"] == "/?folder=Local"
    read = set(Entry.objects.filter(user=ann, read=True).values_list("story__title", flat=True))
    assert read == {"Harbour 0", "Harbour 1", "Harbour 2"}
    assert not Entry.objects.get(id=late.id).read
    for bad in ("x" * 5000, "-" + "9" * 30, "\u00b2"):  # below the smallest row id, the database overflowed: a 500
        assert client_ann.post("/read-all", {"filter": "all", "feed": str(alps.id), "upto": bad}).status_code == 302
    assert Entry.objects.filter(user=ann, read=False).count() == 3  # a bad bound marks nothing


def test_mark_all_read_can_be_undone_once_and_only_for_what_it_marked(ann, client_ann):
    """One key (A) marks a whole view read; a newcomer who pressed it by mistake had no way back."""
    harbour, alps = two_feeds(ann)
    Entry.objects.filter(story__title="Harbour 2").update(read=True)  # read before: stays read after the undo
    other = make_user("bea")
    theirs = make_entries(other, make_feed(other, url="https://bea.example/feed"), [0.5])[0]
    html = client_ann.get("/?filter=all&folder=Local").content.decode()
    upto = re.search(r'name="upto" value="(\d+)"', html).group(1)
    page = client_ann.post("/read-all", {"filter": "all", "folder": "Local", "upto": upto, "next": "/?folder=Local"},
                           follow=True).content.decode()
    assert "Marked 2 stories read" in page and 'action="/read-all/undo"' in page
    assert client_ann.session["undo_mark_all_read"] and theirs.id not in client_ann.session["undo_mark_all_read"]
    page = client_ann.post("/read-all/undo", {"next": "/?folder=Local"}, follow=True).content.decode()
    assert "Marked 2 stories unread again" in page and 'action="/read-all/undo"' not in page
    unread = set(Entry.objects.filter(user=ann, read=False).values_list("story__title", flat=True))
    assert unread == {"Harbour 0", "Harbour 1", "Alps 0", "Alps 1"}
    Entry.objects.filter(user=ann).update(read=True)
    assert "Marked 0 stories unread again" in client_ann.post("/read-all/undo", follow=True).content.decode()
    assert client_ann.get("/read-all/undo").status_code == 405
    assert Entry.objects.filter(user=ann, read=False).count() == 0


def test_past_undo_max_every_story_is_counted_and_no_undo_offered(ann, client_ann, monkeypatch):
    """Only the first UNDO_MAX + 1 ids are kept (a sync client may mark a whole backlog); the rest are counted."""
    monkeypatch.setattr(reading, "UNDO_MAX", 3)
    two_feeds(ann)
    page = client_ann.post("/read-all", {"filter": "all", "upto": "999999"}, follow=True).content.decode()
    assert "Marked 5 stories read" in page and 'action="/read-all/undo"' not in page
    assert client_ann.session["undo_mark_all_read"] == []
    assert not Entry.objects.filter(user=ann, read=False).exists()


def test_an_sqlite_without_returning_is_refused_at_start_up(monkeypatch):
    """Mark all as read uses UPDATE ... RETURNING, which SQLite before 3.35 fails: a 500 at the first use."""
    from reader import checks

    monkeypatch.setattr(checks, "connection", SimpleNamespace(vendor="sqlite"))
    assert checks.sqlite_returns_rows(None) == [] or sqlite3.sqlite_version_info < (3, 35)
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 34, 1))
    assert [error.id for error in checks.sqlite_returns_rows(None)] == ["reader.E003"]
    monkeypatch.setattr(checks, "connection", SimpleNamespace(vendor="postgresql"))
    assert checks.sqlite_returns_rows(None) == []


def test_undo_restores_exactly_what_mark_all_read_changed_when_another_request_writes_meanwhile(ann, client_ann):
    """Under PostgreSQL's read committed, a story marked unread by another request (another tab, the sync API) after
    the ids were listed and before the update was marked read but not listed: 'Marked 3 stories read', then
    'Marked 2 stories unread again', and that story stayed read. The ids are now what the update itself returns,
    so no write falls between (the one below then never runs)."""
    harbour, _ = two_feeds(ann)
    Entry.objects.filter(story__title="Harbour 2").update(read=True)

    def other_request(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.lstrip().upper().startswith("SELECT E.ID"):  # the ids listed, the update not yet run
            Entry.objects.filter(story__title="Harbour 2").update(read=False)
        return result

    with connection.execute_wrapper(other_request):
        client_ann.post("/read-all", {"filter": "all", "folder": "Local", "upto": "999999"})
    page = client_ann.get("/").content.decode()
    marked = int(re.search(r"Marked (\d+) stories read", page).group(1))
    assert marked == len(client_ann.session["undo_mark_all_read"])
    undone = client_ann.post("/read-all/undo", follow=True).content.decode()
    assert f"Marked {marked} stories unread again" in undone
    assert Entry.objects.filter(story__feed=harbour, read=False).count() == marked


@pytest.fixture
def fresh_limits(settings):
    cache.clear()
    settings.REFRESH_RATE_LIMIT, settings.REFRESH_MIN_AGE = 2, 60
    yield settings
    cache.clear()


def test_refresh_now_queues_stale_feeds_after_commit_and_is_rate_limited(
        ann, client_ann, monkeypatch, fresh_limits, django_capture_on_commit_callbacks):
    stale = make_feed(ann, url="https://a.example/feed")
    fresh = make_feed(ann, url="https://b.example/feed")
    busy = make_feed(ann, url="https://c.example/feed")
    make_feed(None, url="https://not-mine.example/feed")
    now = timezone.now()
    Feed.objects.filter(id=stale.id).update(last_fetched_at=now - timedelta(hours=12))
    Feed.objects.filter(id=fresh.id).update(last_fetched_at=now - timedelta(seconds=10))
    Feed.objects.filter(id=busy.id).update(locked_until=now + timedelta(minutes=2))
    queued = record_sends(monkeypatch, "reader.tasks.fetch_feed")
    with django_capture_on_commit_callbacks() as callbacks:
        response = client_ann.post("/refresh", {"next": "/?filter=all"})
        assert queued == []  # nothing is sent before the request's transaction commits
    for callback in callbacks:
        callback()
    assert response.status_code == 302 and response["Location"] == "/?filter=all"
    assert queued == [stale.id]
    with django_capture_on_commit_callbacks() as second:
        client_ann.post("/refresh")
    with django_capture_on_commit_callbacks() as third:
        refused = client_ann.post("/refresh", follow=True)
    assert "try again in" in refused.content.decode()
    assert (len(second), len(third)) == (1, 0)  # the third press within the window queues nothing


def test_search_finds_words_in_titles_and_full_text_of_own_stories_only(ann, client_ann):
    harbour, alps = two_feeds(ann)
    Story.objects.filter(title="Harbour 1").update(extracted_text="The ferry to Ærø leaves at dawn",
                                                   extraction_status="done")
    Story.objects.filter(title="Alps 1").update(summary_html="<p>A ferry on the lake</p>")
    bob = make_user("bob")
    theirs = make_feed(bob, url="https://bob.example/feed")
    Entry.objects.create(user=bob, story=make_story(theirs, 1, title="Ferry for bob"))

    def found(query):
        return titles(client_ann.get("/", {"q": query, "filter": "all"}).content.decode())

    assert found("ferry") == ["Harbour 1", "Alps 1"]  # by score, as the view is
    assert found("FERRY dawn") == ["Harbour 1"]  # every word, any case
    assert found("ærø") == ["Harbour 1"]
    assert found("fer") == []  # words, not parts of words
    assert found("alps") == ["Alps 0", "Alps 1"]
    assert found("nothing-like-this") == []
    for hostile in ('"', "ferry OR NOT", "*", "NEAR(a b)", "a:b", "x" * 5000, "_ _", "ferry)"):
        assert client_ann.get("/", {"q": hostile, "filter": "all"}).status_code == 200, hostile
    assert client_ann.get("/?filter=all&q=%ED%A0%80").status_code == 200  # a lone surrogate, as UTF-8 bytes
    newest = titles(client_ann.get("/", {"q": "ferry", "filter": "all", "sort": "newest"}).content.decode())
    assert newest == ["Alps 1", "Harbour 1"]
    assert found("ferry desk") == []  # a word of the feed's name is not in the story
    Story.objects.filter(title="Harbour 1").update(title="Renamed")  # the index follows edits
    assert found("renamed") == ["Renamed"] and found("harbour") == ["Harbour 0", "Harbour 2"]


@pytest.mark.parametrize("few, ask_us, plan", [(300, 75, "start from the matches"),
                                               (0, 10 ** 9, "walk, checking a list"), (0, 0, "walk, asking the index")])
def test_every_search_plan_finds_the_same_stories_in_the_same_order(ann, client_ann, monkeypatch, few, ask_us, plan):
    from reader.web import search
    monkeypatch.setattr(search, "FEW", few)
    monkeypatch.setattr(search, "ASK_US", ask_us)
    monkeypatch.setattr(search, "FEW_PG", 2000 if few else 0)  # PostgreSQL: look the matches up, or walk
    monkeypatch.setattr(stream, "PAGE_SIZE", 2)
    feed = make_feed(ann)
    for n in range(7):
        text = "ferry news" if n % 2 else "other news"
        Entry.objects.create(user=ann, story=make_story(feed, n, summary_html=f"<p>{text}</p>"), score=n / 10,
                             read=n == 3)
    if connection.vendor == "sqlite":  # PostgreSQL's planner makes this choice itself
        assert search._sqlite_plan('"ferry"', 1, stream.PAGE_SIZE) == plan
    for sort, expected in (("score", ["Story 5", "Story 3", "Story 1"]), ("newest", ["Story 1", "Story 3", "Story 5"])):
        seen, url = [], f"/?filter=all&q=ferry&sort={sort}"
        while url:
            html = client_ann.get(url).content.decode()
            seen += titles(html)
            more = re.search(r'data-more href="([^"]+)"', html)
            url = "/" + more.group(1).replace("&amp;", "&") + "&partial=1" if more else None
        assert seen == expected, sort
    assert titles(client_ann.get("/?filter=unread&q=ferry").content.decode()) == ["Story 5", "Story 1"]


def test_api_lists_a_feed_folder_search_newest_first(ann, client_ann):
    harbour, alps = two_feeds(ann)

    def listed(**params):
        answer = client_ann.get("/api/stories", {"filter": "all", **params})
        return answer.status_code, [s["title"] for s in answer.json().get("stories", [])]

    assert listed(feed=alps.id) == (200, ["Alps 0", "Alps 1"])
    assert listed(folder="Local", sort="newest") == (200, ["Harbour 0", "Harbour 1", "Harbour 2"])
    assert listed(q="alps") == (200, ["Alps 0", "Alps 1"])
    assert listed(sort="sideways")[0] == 400 and listed(feed="1e3")[0] == 400
