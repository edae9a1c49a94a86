"""New stories are scored in one batch per feed fetch, once their pages are extracted, and never left out."""
import pytest

from reader import tasks
from reader.models import Feed, Story

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
    assert calls["later"] == [(([stories[2]], 1), tasks.SCORE_RECHECK)]


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
