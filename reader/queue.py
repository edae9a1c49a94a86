"""The one way services and views queue work: tasks are sent by name when the current transaction commits, so
nothing outside the Celery wiring imports reader.tasks, and a task never runs before the rows it reads exist.

`send` queues a task; `send_each` queues many at once, not waiting for a commit (the beat's due feeds).
`queue_once` queues a ranking task once per key: a burst of ratings queues one retrain of the user, not one per
click. A key ("retrain:12") is taken in the database before its task is queued and freed when the task starts,
so ratings that arrive while a retrain runs queue exactly one more, which sees them. A key held longer than
STALE (its message lost with a dead worker) is taken again.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from .celery import app
from .models import RankingJob

STALE = timedelta(minutes=10)  # beyond the ranking tasks' time limit (5 minutes)
FETCH_FEED = "reader.tasks.fetch_feed"
IMPORT_OPML = "reader.tasks.import_opml"
QUEUE_PAGES = "reader.tasks.queue_story_pages"
SCORE_STORIES = "reader.tasks.score_stories"


def send(task: str, *args) -> None:
    """After the current transaction commits (at once outside one), queue the task named ``task``."""
    transaction.on_commit(lambda: app.send_task(task, args))


def send_each(task: str, each_args: list[tuple]) -> None:
    """Queue the task once per arguments, now (not on commit), over one broker connection: a beat tick queues
    thousands of feeds."""
    with app.producer_or_acquire() as producer:
        for args in each_args:
            app.send_task(task, args, producer=producer)


def queue_once(key: str, task: str, args: tuple, countdown: float = 0.0) -> None:
    """After the current transaction commits, queue ``task`` unless one with this key is already queued."""
    transaction.on_commit(lambda: _send_if_free(key, task, args, countdown))


def _send_if_free(key: str, task: str, args: tuple, countdown: float) -> None:
    now = timezone.now()
    taken = RankingJob.objects.filter(key=key, queued_at__lt=now - STALE).update(queued_at=now)
    if not taken:
        _, taken = RankingJob.objects.get_or_create(key=key, defaults={"queued_at": now})
    if taken:
        try:
            app.send_task(task, args, countdown=countdown or None)
        except Exception:  # not queued: the next call may try again
            started(key)
            raise


def started(key: str) -> None:
    """The task holding ``key`` has started: work queued from now on needs another run."""
    RankingJob.objects.filter(key=key).delete()
