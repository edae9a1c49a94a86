"""New stories are scored in one batch per feed fetch, once their pages are extracted, and never left out."""
import pytest

from reader import ranking, tasks
from reader.models import Entry, Feed, Story, TasteModel
from ui_factories import make_feed, make_story, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def calls(monkeypatch):
    seen = {"scored": [], "later": []}
    monkeypatch.setattr(tasks.ranking, "score_stories", lambda ids: seen["scored"].append(sorted(ids)) or len(ids))
    monkeypatch.setattr(tasks.score_when_extracted, "apply_async",
                        lambda args, countdown=None, **kw: seen["later"].append((args, countdown)))
    return seen


@pytest.fixture
def stories():
    feed = Feed.objects.create(url="http://s.example/feed")
    status = ["done", "failed", "pending"]
    return [Story.objects.create(feed=feed, guid=str(i), extraction_status=status[i]).id for i in range(3)]


def test_extracted_and_failed_are_scored_and_pending_looked_at_later(calls, stories):
    assert tasks.score_when_extracted(stories) == 2
    assert calls["scored"] == [sorted(stories[:2])]
    assert calls["later"] == [(([stories[2]], 1), 5)]


def test_rechecks_come_sooner_first_then_every_30_seconds():
    assert [tasks.recheck_in(t) for t in range(6)] == [5, 10, 20, 30, 30, 30]
    assert sum(tasks.recheck_in(t) for t in range(tasks.SCORE_TRIES)) < 600


def test_a_page_that_never_finishes_is_scored_in_the_end(calls, stories):
    tasks.score_when_extracted([stories[2]], tries=tasks.SCORE_TRIES)
    assert calls["scored"] == [[stories[2]]] and calls["later"] == []


def test_queueing_pages_queues_one_scoring_after_the_last_turn(calls, stories, monkeypatch):
    pages = []
    monkeypatch.setattr(tasks.fetch_story_page, "apply_async", lambda args, **kw: pages.append(args[0]))
    Story.objects.filter(id__in=stories).update(url="http://127.0.0.1/page")  # exempt host: no booking
    tasks.queue_pages(stories)
    assert sorted(pages) == sorted(stories)
    assert calls["later"] == [((sorted(stories),), 5.0)]


def test_scoring_a_batch_writes_its_scores_and_creates_a_missing_model_without_rescoring_the_feed():
    """The batch's scores land in one statement; a reader without a model gets one, but the rest of their
    feed keeps its scores (each batch is scored by its own task, not again whenever a model is created)."""
    user = make_user("erin")
    feed = make_feed(user)
    older, *new = [make_story(feed, n, title=f"Harbour ferry strike day {n}") for n in range(3)]
    for story in (older, *new):
        Entry.objects.create(user=user, story=story, score=-1.0, reasons=["not scored yet"])
    assert not TasteModel.objects.filter(user=user).exists()

    assert ranking.score_stories([s.id for s in new]) == 2

    assert TasteModel.objects.filter(user=user).exists()
    scored = Entry.objects.filter(user=user, story__in=new)
    assert all(0.0 <= e.score <= 1.0 and e.reasons != ["not scored yet"] for e in scored)
    untouched = Entry.objects.get(user=user, story=older)
    assert (untouched.score, untouched.reasons) == (-1.0, ["not scored yet"])
