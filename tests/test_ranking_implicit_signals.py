"""Implicit signals in the reader: recorded only for users who opted in, bounded, CSRF-protected, hostile items
dropped one by one, deleted on opting out, and used by the next retrain."""
import json

import pytest
from django.test import Client

from reader.models import Entry, Preferences, Rating, Signal, TasteModel
from reader.ranking import crowd, implicit, scores
from ui_factories import ann, client_ann, make_entries, make_feed, make_story, make_user  # noqa: F401

pytestmark = pytest.mark.django_db


def post_signals(client, signals):
    return client.post("/api/stories/signals", json.dumps({"signals": signals}), content_type="application/json")


def opt_in(client):
    assert client.post("/taste/signals", {"implicit_signals": "on"}).status_code == 302


def test_nothing_is_recorded_until_the_user_opts_in(ann, client_ann):
    entries = make_entries(ann, make_feed(ann), [0.5, 0.5])
    response = post_signals(client_ann, [{"id": entries[0].story_id, "kind": "opened"}])
    assert response.json() == {"recorded": 0, "enabled": False}
    client_ann.post(f"/stories/{entries[1].story_id}/save", {"saved": "true"})
    assert not Signal.objects.exists()
    assert "data-signals" not in client_ann.get("/").content.decode()


def test_an_opted_in_user_s_signals_are_kept_and_hostile_items_dropped(ann, client_ann):
    entries = make_entries(ann, make_feed(ann), [0.5, 0.5, 0.5])
    other = make_user("bob")
    elsewhere = make_story(make_feed(other, url="https://other.example/feed"), 9)
    opt_in(client_ann)
    assert 'data-signals' in client_ann.get("/").content.decode()
    a, b, c = (e.story_id for e in entries)
    response = post_signals(client_ann, [
        {"id": a, "kind": "opened"}, {"id": a, "kind": "read"}, {"id": a, "kind": "opened"},
        {"id": b, "kind": "skipped"}, {"id": b, "kind": "liked"}, {"id": str(c), "kind": "opened"},
        {"id": elsewhere.id, "kind": "opened"}, "junk", {"id": 2 ** 70, "kind": "opened"}])
    assert response.status_code == 200 and response.json() == {"recorded": 3, "enabled": True}
    client_ann.post(f"/stories/{c}/save", {"saved": "true"})
    assert set(Signal.objects.values_list("story_id", "kind")) == {(a, "opened"), (a, "read"), (b, "skipped"),
                                                                    (c, "saved")}
    assert post_signals(client_ann, [{"id": a, "kind": "opened"}]).json()["recorded"] == 0  # once per kind


@pytest.mark.parametrize("body", [{"signals": "opened"}, {"signals": [{"id": 1, "kind": "opened"}] * 501}, {}])
def test_a_batch_that_is_no_list_or_too_long_is_refused(client_ann, body):
    response = client_ann.post("/api/stories/signals", json.dumps(body), content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_signals"


def test_signals_need_the_csrf_token(ann):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    assert post_signals(client, []).status_code == 403
    assert client.post("/taste/signals", {"implicit_signals": "on"}).status_code == 403
    assert not Preferences.objects.filter(implicit_signals=True).exists()


def test_rows_per_user_are_bounded_newest_kept(ann, client_ann, monkeypatch):
    entries = make_entries(ann, make_feed(ann), [0.5] * 5)
    opt_in(client_ann)
    monkeypatch.setattr(implicit, "MAX_PER_USER", 3)
    for entry in entries:
        post_signals(client_ann, [{"id": entry.story_id, "kind": "skipped"}])
    assert sorted(Signal.objects.values_list("story_id", flat=True)) == sorted(e.story_id for e in entries[2:])


def test_opting_out_deletes_what_was_recorded(ann, client_ann):
    entries = make_entries(ann, make_feed(ann), [0.5])
    opt_in(client_ann)
    post_signals(client_ann, [{"id": entries[0].story_id, "kind": "opened"}])
    assert Signal.objects.count() == 1
    client_ann.post("/taste/signals", {})
    assert not Signal.objects.exists() and not implicit.enabled(ann.id)
    assert "checked" not in client_ann.get("/taste/").content.decode().split("implicit_signals")[1][:40]


TOPICS = {"space": "The rocket carried a satellite into orbit above the launch site",
          "football": "The striker scored in the derby before the league leaders equalised"}


def test_a_retrain_learns_from_the_signals_of_an_opted_in_user(ann, client_ann):
    feed = make_feed(ann)
    stories = {topic: [make_story(feed, n + 10 * i, title=f"{topic} story {n}", extracted_text=f"{text}. Report {n}.",
                                  extraction_status="done") for n in range(8)]
               for i, (topic, text) in enumerate(TOPICS.items())}
    Entry.objects.bulk_create([Entry(user=ann, story=s) for group in stories.values() for s in group])
    Rating.objects.create(user=ann, story=stories["space"][0], value=Rating.GOOD)
    Rating.objects.create(user=ann, story=stories["football"][0], value=Rating.BAD)
    opt_in(client_ann)
    post_signals(client_ann, [{"id": s.id, "kind": kind} for s in stories["space"][1:5] for kind in ("opened", "read")]
                 + [{"id": s.id, "kind": "skipped"} for s in stories["football"][1:5]])
    crowd.forget()

    def gap():
        scores.retrain(ann.id)
        score = dict(Entry.objects.filter(user=ann).values_list("story_id", "score"))
        return (sum(score[s.id] for s in stories["space"][5:]) - sum(score[s.id] for s in stories["football"][5:])) / 3
    with_signals = gap()
    assert TasteModel.objects.get(user=ann).rating_count == 2  # signals are no ratings
    Preferences.objects.filter(user=ann).update(implicit_signals=False)  # kept, but no longer used
    without = gap()
    assert with_signals > without > 0
