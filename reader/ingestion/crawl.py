"""The crawl's feed side, as services: queueing the due feeds, and the per-feed lock that keeps one feed from
being fetched twice at once. The fetch_feed task and the fetch_feeds command both fetch under that lock.
"""
from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from .. import queue
from ..models import Feed
from . import feeds

CHUNK = 1000  # due feeds read and pushed out per query
MAX_PER_TICK = 50_000  # a beat tick every 30 s then queues up to ~1,600 feeds/s: a million feeds every 10 min


def queue_due_feeds() -> int:
    """Queue every due feed's fetch, most overdue first, a chunk at a time; how many were queued."""
    queued = 0
    while queued < MAX_PER_TICK:
        now = timezone.now()
        due = list(Feed.objects.filter(next_fetch_at__lte=now).order_by("next_fetch_at")
                   .values_list("id", flat=True)[:CHUNK])
        if not due:
            break
        # Push the next fetch out now, so the next beat tick does not queue the same feeds again (but a tick
        # after FEED_REQUEUE_AFTER does, if the message was lost).
        Feed.objects.filter(id__in=due).update(next_fetch_at=now + timedelta(seconds=settings.FEED_REQUEUE_AFTER))
        queue.send_each(queue.FETCH_FEED, [(feed_id,) for feed_id in due])
        queued += len(due)
    return queued


def claim(feed_id: int, owner: str) -> bool:
    """Take the per-feed lock atomically, so one feed is never fetched twice at once.

    The owner is the task id: a message redelivered after its worker was killed carries the same id and
    takes the dead task's lock back, instead of finding the feed locked and dropping it.
    """
    now = timezone.now()
    return bool(
        Feed.objects.filter(Q(locked_until__isnull=True) | Q(locked_until__lt=now) | Q(locked_by=owner),
                            id=feed_id).update(locked_until=now + timedelta(seconds=settings.FEED_LOCK_SECONDS),
                                               locked_by=owner)
    )


def release(feed_id: int) -> None:
    Feed.objects.filter(id=feed_id).update(locked_until=None, locked_by="")


def fetch_here(feed: Feed) -> feeds.FetchOutcome | None:
    """Fetch the feed in this process (a person at a shell: it waits for the host's turn), under its lock; its new
    stories' pages and scoring are queued to the workers. None when a worker holds the feed's lock.

    Raises politeness.HostBusy when the host's turn is further off than the wait.
    """
    if not claim(feed.id, uuid.uuid4().hex):
        return None
    try:
        outcome = feeds.refresh(feed)
    finally:
        release(feed.id)
    if outcome.new_story_ids or outcome.changed_link_ids:
        queue.send(queue.QUEUE_PAGES, outcome.new_story_ids + outcome.changed_link_ids)
    if outcome.new_story_ids:
        queue.send(queue.SCORE_STORIES, outcome.new_story_ids)
    return outcome
