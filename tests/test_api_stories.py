"""GET /api/stories and the rating/read/save calls: own data only, keyset pages, clear JSON errors."""
import json

import pytest
from django.test import Client

from reader.web import stream
from reader.models import Entry, Rating, Story
from ui_factories import ann, client_ann, make_entries, make_feed, make_user  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def post(client, url, data):
    return client.post(url, json.dumps(data), content_type="application/json")


def test_stories_come_best_first_with_the_fields_the_page_needs(ann, client_ann):
    feed = make_feed(ann)
    make_entries(ann, feed, [0.2, 0.9, 0.5], reasons=["you liked stories about “tennis”"])
    data = client_ann.get("/api/stories?filter=all").json()
    assert [s["score"] for s in data["stories"]] == [0.9, 0.5, 0.2]
    first = data["stories"][0]
    assert first["title"] == "Story 1" and first["feed"]["title"] == "Example desk"
    assert first["reasons"] == ["you liked stories about “tennis”"] and first["snippet"] == "Teaser 1"
    assert data["next_cursor"] is None


def test_cursor_pages_cover_every_entry_once_even_with_equal_scores(ann, client_ann, monkeypatch):
    monkeypatch.setattr(stream, "PAGE_SIZE", 7)
    feed = make_feed(ann)
    entries = make_entries(ann, feed, [0.5] * 12 + [0.7] * 5 + [0.1] * 6)
    seen, cursor = [], ""
    for _ in range(10):
        data = client_ann.get(f"/api/stories?filter=all&cursor={cursor}").json()
        seen += [s["id"] for s in data["stories"]]
        cursor = data["next_cursor"]
        if not cursor:
            break
    assert sorted(seen) == sorted(e.story_id for e in entries)
    assert len(seen) == len(set(seen))
    scores = [Entry.objects.get(story_id=i).score for i in seen]
    assert scores == sorted(scores, reverse=True)


def test_filters_pick_recommended_unread_and_saved(ann, client_ann):
    feed = make_feed(ann)
    a, b, c = make_entries(ann, feed, [0.9, 0.6, 0.3], recommended=True)
    Entry.objects.filter(id=a.id).update(read=True)
    Entry.objects.filter(id=b.id).update(recommended=False, saved=True)
    ids = lambda f: [s["id"] for s in client_ann.get(f"/api/stories?filter={f}").json()["stories"]]  # noqa: E731
    assert ids("recommended") == [a.story_id, c.story_id]
    assert ids("unread") == [b.story_id, c.story_id]
    assert ids("saved") == [b.story_id]


def test_a_stored_script_link_is_not_handed_out(ann, client_ann):
    # Stories stored before links were checked on the way in can still hold javascript: or data: addresses.
    feed = make_feed(ann)
    bad, good = make_entries(ann, feed, [0.9, 0.5])
    Story.objects.filter(id=bad.story_id).update(url="JavaScript:alert(document.cookie)")
    Story.objects.filter(id=good.story_id).update(url="https://example.org/a")
    urls = {s["id"]: s["url"] for s in client_ann.get("/api/stories?filter=all").json()["stories"]}
    assert urls == {bad.story_id: "", good.story_id: "https://example.org/a"}


def test_bad_filter_and_bad_cursor_are_clear_400s(client_ann):
    assert client_ann.get("/api/stories?filter=everything").json()["error"]["code"] == "bad_filter"
    response = client_ann.get("/api/stories?cursor=nonsense")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_cursor"


def test_a_folder_holding_a_nul_is_a_clear_400_and_404(client_ann):
    """PostgreSQL refuses NUL in any query: the folder filter of the feed page, a story's page, "mark all read" and
    this API were 500s for ?folder=%00."""
    response = client_ann.get("/api/stories?folder=a%00b")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_folder"
    assert client_ann.get("/?folder=%00").status_code == 404
    assert client_ann.post("/read-all", {"folder": "\x00", "upto": "5"}).status_code == 404


def test_anonymous_gets_401_json():
    response = Client().get("/api/stories")
    assert response.status_code == 401 and "Log in" in response.json()["error"]["message"]


def test_rating_good_bad_and_null(ann, client_ann):
    story_id = make_entries(ann, make_feed(ann), [0.5])[0].story_id
    assert post(client_ann, f"/api/stories/{story_id}/rating", {"rating": "good"}).json()["rating"] == "good"
    assert Rating.objects.get(user=ann, story_id=story_id).value == Rating.GOOD
    post(client_ann, f"/api/stories/{story_id}/rating", {"rating": "bad"})
    assert Rating.objects.get(user=ann, story_id=story_id).value == Rating.BAD
    post(client_ann, f"/api/stories/{story_id}/rating", {"rating": None})
    assert not Rating.objects.filter(user=ann).exists()
    page = client_ann.get("/api/stories?filter=all").json()["stories"][0]
    assert page["rating"] is None


def test_invalid_rating_body_is_rejected(ann, client_ann):
    story_id = make_entries(ann, make_feed(ann), [0.5])[0].story_id
    assert post(client_ann, f"/api/stories/{story_id}/rating", {"rating": "meh"}).status_code == 400
    assert post(client_ann, f"/api/stories/{story_id}/rating", {}).status_code == 400
    broken = client_ann.post(f"/api/stories/{story_id}/rating", "{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "bad_json"
    assert not Rating.objects.exists()


def test_read_and_save_flags(ann, client_ann):
    entry = make_entries(ann, make_feed(ann), [0.5])[0]
    assert post(client_ann, f"/api/stories/{entry.story_id}/read", {}).json() == {"id": entry.story_id, "read": True}
    post(client_ann, f"/api/stories/{entry.story_id}/save", {"saved": True})
    entry.refresh_from_db()
    assert entry.read and entry.saved
    post(client_ann, f"/api/stories/{entry.story_id}/read", {"read": False})
    post(client_ann, f"/api/stories/{entry.story_id}/save", {"saved": False})
    entry.refresh_from_db()
    assert not entry.read and not entry.saved
    assert post(client_ann, f"/api/stories/{entry.story_id}/save", {"saved": "yes"}).status_code == 400


def test_a_user_never_sees_or_changes_another_users_entries(ann, client_ann):
    bob = make_user("bob")
    feed = make_feed(bob, url="https://bob.example/feed")
    bobs = make_entries(bob, feed, [0.8])[0]
    make_entries(ann, make_feed(ann), [0.4])
    listed = [s["id"] for s in client_ann.get("/api/stories?filter=all").json()["stories"]]
    assert bobs.story_id not in listed
    for what, data in (("rating", {"rating": "good"}), ("read", {}), ("save", {"saved": True})):
        assert post(client_ann, f"/api/stories/{bobs.story_id}/{what}", data).status_code == 404
    bobs.refresh_from_db()
    assert not bobs.read and not bobs.saved and not Rating.objects.exists()


def test_posts_need_the_csrf_token(ann):
    story_id = make_entries(ann, make_feed(ann), [0.5])[0].story_id
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    response = post(client, f"/api/stories/{story_id}/rating", {"rating": "good"})
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"
    client.get("/")  # sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    ok = client.post(f"/api/stories/{story_id}/rating", json.dumps({"rating": "good"}),
                     content_type="application/json", headers={"X-CSRFToken": token})
    assert ok.status_code == 200


def test_progress_reports_only_the_users_own_feeds(ann, client_ann):
    mine = make_feed(ann)
    make_entries(ann, mine, [0.5, 0.5])
    other = make_feed(make_user("bob"), url="https://bob.example/feed")
    data = client_ann.get(f"/api/progress?feeds={mine.id},{other.id}").json()
    assert [f["id"] for f in data["feeds"]] == [mine.id]
    assert data["feeds"][0]["stories"] == 2 and data["feeds"][0]["extracting"] == 2
    assert data["done"] is False
