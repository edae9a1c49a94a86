"""Celery tasks: short, take ids, call the library functions that do the work.

Every task is idempotent (a redelivered message changes nothing twice): feeds are claimed with a lock,
stories are inserted or ignored, and a page already extracted is not fetched again.
"""
from __future__ import annotations

import random
import uuid
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import OperationalError
from django.db.models import Q
from django.utils import timezone

from extraction.fetch import FetchError

from . import articles, feeds, politeness, ranking
from .models import Feed, Story
from .politeness import HostBusy

FEED_LOCK = timedelta(minutes=5)
BATCH = 500
HOST_WAIT = 2.0  # a task waits this long for a busy host, then re-queues itself instead of holding a worker
PAGE_RETRIES = 3
# Database hiccups (a restart, a lock timeout) are worth retrying; everything else is recorded.
DB_RETRY = dict(autoretry_for=(OperationalError,), retry_backoff=5, retry_jitter=True, max_retries=3)


def claim(feed_id: int, owner: str) -> bool:
    """Take the per-feed lock atomically, so one feed is never fetched twice at once.

    The owner is the task id: a message redelivered after its worker was killed carries the same id and
    takes the dead task's lock back, instead of finding the feed locked for FEED_LOCK and dropping it.
    """
    now = timezone.now()
    return bool(
        Feed.objects.filter(Q(locked_until__isnull=True) | Q(locked_until__lt=now) | Q(locked_by=owner),
                            id=feed_id).update(locked_until=now + FEED_LOCK, locked_by=owner)
    )


def _later(busy: HostBusy) -> float:
    return busy.retry_in + random.uniform(0, 1)


@shared_task
def schedule_due_feeds() -> int:
    now = timezone.now()
    due = list(Feed.objects.filter(next_fetch_at__lte=now).order_by("next_fetch_at").values_list("id", flat=True)[:BATCH])
    # Push the next fetch out now, so the next beat tick does not queue the same feeds again.
    Feed.objects.filter(id__in=due).update(next_fetch_at=now + FEED_LOCK)
    for feed_id in due:
        fetch_feed.delay(feed_id)
    return len(due)


@shared_task(bind=True, soft_time_limit=120, time_limit=150, **DB_RETRY)
def fetch_feed(self, feed_id: int) -> int:
    if not claim(feed_id, self.request.id or uuid.uuid4().hex):
        return 0
    try:
        feed = Feed.objects.get(id=feed_id)
        outcome = feeds.refresh(feed, max_wait=HOST_WAIT)
    except HostBusy as busy:
        fetch_feed.apply_async((feed_id,), countdown=_later(busy))
        return 0
    except SoftTimeLimitExceeded:
        feeds.record_error(feed, TimeoutError("the feed took longer than the time limit to process"), timezone.now())
        return 0
    finally:
        Feed.objects.filter(id=feed_id).update(locked_until=None, locked_by="")
    queue_pages(outcome.new_story_ids + outcome.changed_link_ids)
    return len(outcome.new_story_ids)


def queue_pages(story_ids: list[int]) -> None:
    """Queue each page at its host's next booked start, so a feed's pages do not queue up at the gate."""
    gate = politeness.gate()
    for story_id, url in Story.objects.filter(id__in=story_ids).values_list("id", "url"):
        fetch_story_page.apply_async((story_id,), countdown=gate.book(politeness.host_of(url)) or None)


@shared_task(soft_time_limit=60, time_limit=90, **DB_RETRY)
def fetch_story_page(story_id: int, attempt: int = 0) -> str:
    story = Story.objects.select_related("feed").filter(id=story_id).first()
    if story is None:
        return "gone"
    if story.extraction_status == Story.Extraction.DONE:
        return "done"  # a redelivered message
    try:
        articles.extract_story(story, max_wait=HOST_WAIT, raise_transient=attempt < PAGE_RETRIES)
    except HostBusy as busy:
        fetch_story_page.apply_async((story_id, attempt), countdown=_later(busy))
        return "busy"
    except FetchError:  # transient, with tries left
        fetch_story_page.apply_async((story_id, attempt + 1), countdown=30 * 2 ** attempt * random.uniform(0.5, 1.5))
        return "retry"
    except SoftTimeLimitExceeded:
        articles.record_failure(story, "the page took longer than the time limit to extract")
    score_stories.delay([story_id])
    return story.extraction_status


@shared_task
def score_stories(story_ids: list[int]) -> int:
    return ranking.score_stories(story_ids)


@shared_task
def retrain_user(user_id: int) -> bool:
    return ranking.retrain(user_id)
