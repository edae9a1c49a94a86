"""reader.queue: work is sent by task name, after the transaction that wrote its rows commits."""
import pytest

from reader import queue
from reader.celery import app
from reader.models import Feed
from ranking_crowd import queued  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_send_waits_for_the_commit_and_names_the_task(queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        feed = Feed.objects.create(url="https://news.example/feed")
        queue.send(queue.FETCH_FEED, feed.id)
        assert queued == []  # a worker must not look for the feed before its row is committed
    for callback in callbacks:
        callback()
    assert queued == [("reader.tasks.fetch_feed", (feed.id,))]


def test_the_names_sent_are_the_registered_tasks():
    from reader import tasks  # noqa: F401 (registers the tasks, as a worker does)

    assert {queue.FETCH_FEED, queue.IMPORT_OPML} <= set(app.tasks)
