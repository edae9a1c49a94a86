"""New stories are scored in one batch per feed fetch, the moment the last of their pages is done."""
import os

import pytest
from django.db import OperationalError

from reader.ranking import scores
from reader import tasks
from reader.ingestion.batches import FileBatches, RedisBatches
from reader.models import Entry, Feed, Story, TasteModel
from ui_factories import make_feed, make_story, make_user

pytestmark = pytest.mark.django_db


def redis_batches(tmp_path):
    return RedisBatches(os.environ["REDIS_URL"])


def file_batches(tmp_path):
    return FileBatches(tmp_path / "batches")


# As for politeness: the Redis tracker where there is a Redis (the PostgreSQL + Redis suite), files everywhere.
TRACKERS = [pytest.param(file_batches, id="file")] + (
    [pytest.param(redis_batches, id="redis")] if os.environ.get("REDIS_URL") else [])


@pytest.mark.parametrize("make", TRACKERS)
def test_the_last_page_of_a_batch_hands_over_its_ids_once_closed(make, tmp_path):
    tracker = make(tmp_path)
    batch = tracker.open([3, 1, 2])
    assert tracker.finish(batch, 1) is None
    assert tracker.finish(batch, 1) is None  # a redelivered page of a batch still waiting
    assert tracker.finish(batch, 3) is None
    assert tracker.finish(batch, 2) == [3, 1, 2]
    # A worker killed before closing: its redelivered message gets the ids again.
    assert tracker.finish(batch, 2) == [3, 1, 2]
    tracker.close(batch)
    assert tracker.finish(batch, 2) is None
    assert tracker.finish("never-opened", 1) is None


@pytest.fixture
def batched(monkeypatch, tmp_path):
    tracker = FileBatches(tmp_path / "batches")
    monkeypatch.setattr(tasks, "batches", lambda: tracker)
    scored = []
    monkeypatch.setattr(tasks.score_stories, "apply_async", lambda args, **kw: scored.append(args[0]))
    return tracker, scored


@pytest.fixture
def stories():
    feed = Feed.objects.create(url="http://127.0.0.1/feed")  # an exempt host: no booking
    return [Story.objects.create(feed=feed, guid=str(i), url=f"http://127.0.0.1/{i}").id for i in range(3)]


def test_queueing_pages_opens_one_batch_and_the_last_page_done_or_failed_queues_its_scoring(
        batched, stories, monkeypatch):
    tracker, scored = batched
    pages = []
    monkeypatch.setattr(tasks.fetch_story_page, "apply_async", lambda args, **kw: pages.append(args))
    tasks.queue_pages(stories)
    assert sorted(p[0] for p in pages) == stories and len({p[3] for p in pages}) == 1
    outcomes = iter(["done", "busy", "failed", "done"])
    monkeypatch.setattr(tasks, "extract_story_page", lambda *args: next(outcomes))
    for story_id, attempt, booking, batch in pages:
        tasks.fetch_story_page(story_id, attempt, booking, batch)
    assert scored == []  # the second page's host was busy: it comes back later
    tasks.fetch_story_page(*pages[1])
    assert scored == [sorted(stories)]
    assert tracker.finish(pages[0][3], stories[0]) is None  # closed


def test_an_unexpected_error_still_ticks_the_page_off_and_a_database_error_does_not(batched, stories, monkeypatch):
    tracker, scored = batched
    batch = tracker.open(stories[:2])
    for error in (RuntimeError("bug"), OperationalError("restarting")):
        monkeypatch.setattr(tasks, "extract_story_page", lambda *args, error=error: (_ for _ in ()).throw(error))
        with pytest.raises(type(error)):
            tasks.fetch_story_page.run(stories[0], 0, None, batch)
    assert scored == [] and tracker.finish(batch, stories[1]) == stories[:2]


def test_a_database_error_on_the_last_retry_ticks_the_page_off(batched, stories, monkeypatch):
    """Otherwise the batch's other stories would wait for a page that never comes back, and stay unscored."""
    tracker, scored = batched
    batch = tracker.open(stories[:2])
    tracker.finish(batch, stories[1])
    monkeypatch.setattr(tasks, "extract_story_page", lambda *args: (_ for _ in ()).throw(OperationalError("gone")))
    tasks.fetch_story_page.push_request(retries=tasks.DB_RETRY["max_retries"])
    try:
        with pytest.raises(OperationalError):
            tasks.fetch_story_page.run(stories[0], 0, None, batch)
    finally:
        tasks.fetch_story_page.pop_request()
    assert scored == [stories[:2]]


def test_scoring_a_batch_writes_its_scores_and_creates_a_missing_model_without_rescoring_the_feed():
    """The batch's scores land in one statement; a reader without a model gets one, but the rest of their
    feed keeps its scores (each batch is scored by its own task, not again whenever a model is created)."""
    user = make_user("erin")
    feed = make_feed(user)
    older, *new = [make_story(feed, n, title=f"Harbour ferry strike day {n}") for n in range(3)]
    for story in (older, *new):
        Entry.objects.create(user=user, story=story, score=-1.0, reasons=["not scored yet"])
    assert not TasteModel.objects.filter(user=user).exists()

    assert scores.score_stories([s.id for s in new]) == 2

    assert TasteModel.objects.filter(user=user).exists()
    scored = Entry.objects.filter(user=user, story__in=new)
    assert all(0.0 <= e.score <= 1.0 and e.reasons != ["not scored yet"] for e in scored)
    untouched = Entry.objects.get(user=user, story=older)
    assert (untouched.score, untouched.reasons) == (-1.0, ["not scored yet"])
