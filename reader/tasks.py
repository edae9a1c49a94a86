"""Celery tasks: they take ids and call the services that do the work (reader/ingestion, reader/ranking).

What stays here is the queueing between tasks, which needs the tasks themselves: a feed's new pages booked on
their hosts' calendars and queued in one batch (queue_pages), a task coming back at its booked turn when its host
is busy, a transient page failure retried later, and a batch's last page queueing its scoring.

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
from django.utils import timezone

from extraction.fetch import FetchError

from .ingestion import articles, crawl, feeds, healing, opml_import, politeness
from .ingestion.batches import batches
from .ingestion.politeness import HostBusy
from .models import Feed, Story
from .ranking import crowd, scores

HOST_WAIT = 2.0  # a task waits this long for a busy host, then re-queues itself instead of holding a worker
PAGE_RETRIES = 3

# Database hiccups (a restart, a lock timeout) are worth retrying; everything else is recorded.
DB_RETRY = dict(autoretry_for=(OperationalError,), retry_backoff=5, retry_jitter=True, max_retries=3)


@shared_task
def schedule_due_feeds() -> int:
    return crawl.queue_due_feeds()


@shared_task(bind=True, soft_time_limit=120, time_limit=150, **DB_RETRY)
def fetch_feed(self, feed_id: int, booking: int | None = None) -> int:
    owner = self.request.id or uuid.uuid4().hex
    # Our own lock still held means this message ran before and its worker died, perhaps after storing the
    # stories but before queueing their pages (and the feed may now answer 304): queue what is still pending.
    taken_back = Feed.objects.filter(id=feed_id, locked_by=owner, locked_until__gte=timezone.now()).exists()
    if not crawl.claim(feed_id, owner):
        return 0
    try:
        feed = Feed.objects.get(id=feed_id)
        outcome = feeds.refresh(feed, max_wait=HOST_WAIT, booking=booking)
        stranded = (list(Story.objects.filter(feed_id=feed_id, extraction_status=Story.Extraction.PENDING)
                         .exclude(id__in=outcome.new_story_ids).values_list("id", flat=True)) if taken_back else [])
        # The lock is released only once the pages are queued, so a death in between is seen as above.
        queue_pages(outcome.new_story_ids + outcome.changed_link_ids + stranded)
        if outcome.new_story_ids:  # scored from the feed's text now, and again once their pages are in
            score_stories.apply_async((outcome.new_story_ids,))
    except HostBusy as busy:  # come back at the booked turn
        fetch_feed.apply_async((feed_id, busy.booking), countdown=busy.retry_in)
        return 0
    except SoftTimeLimitExceeded:
        feeds.record_error(feed, TimeoutError("the feed took longer than the time limit to process"), timezone.now())
        return 0
    finally:
        crawl.release(feed_id)
    return len(outcome.new_story_ids)


def queue_pages(story_ids: list[int]) -> None:
    """Queue each page for its host's next free turn, in one batch: the last page done queues its scoring."""
    if not story_ids:
        return
    gate, by_host, batch, now = politeness.gate(), {}, batches().open(sorted(story_ids)), timezone.now()
    for story_id, url in Story.objects.filter(id__in=story_ids).order_by("id").values_list("id", "url"):
        by_host.setdefault(politeness.host_of(url), []).append(story_id)
    # One broker round trip for the lot (a Redis pipeline), instead of one per message. Inside it a publish only
    # appends to the pipeline: nothing to retry, and nothing to declare (the default exchange puts a message
    # straight on its queue's list), so kombu's retry wrapper and declaration, a third of a publish's CPU, are skipped.
    with fetch_story_page.app.producer_or_acquire() as producer, producer.batch():
        for host, ids in by_host.items():
            if gate.exempted(host):
                turns = [(None, 0.0)] * len(ids)
            else:
                turns = gate.bookings(host, len(ids))
            # Stamped before publishing, for the healing sweep: a death in between leaves the pages past due.
            Story.objects.filter(id__in=ids).update(page_due_at=now + timedelta(seconds=turns[-1][1]),
                                                    page_batch=batch)
            for story_id, (booking, wait) in zip(ids, turns):
                fetch_story_page.apply_async((story_id, 0, booking, batch), countdown=wait or None, producer=producer,
                                             retry=False, declare=[])


@shared_task
def queue_story_pages(story_ids: list[int]) -> None:
    """queue_pages for stories a service stored (a new feed's first body, stored when a user subscribed)."""
    queue_pages(story_ids)


@shared_task(bind=True, soft_time_limit=60, time_limit=90, **DB_RETRY)
def fetch_story_page(self, story_id: int, attempt: int = 0, booking: int | None = None, batch: str = "") -> str:
    outcome = "failed"
    try:
        outcome = extract_story_page(story_id, attempt, booking, batch)
        return outcome
    except OperationalError:
        if self.request.retries < DB_RETRY["max_retries"]:
            outcome = "retry"  # DB_RETRY queues the task again; after its last try the page is over
        raise
    finally:
        # Any other end, an unexpected error included, is this page's last: its batch must not wait for it.
        if batch and outcome not in ("busy", "retry"):
            score_if_last(batch, story_id)


def extract_story_page(story_id: int, attempt: int, booking: int | None, batch: str) -> str:
    story = articles.load(story_id)
    if story is None:
        return "gone"
    if story.extraction_status == Story.Extraction.DONE:
        return "done"  # a redelivered message
    try:
        articles.extract_story(story, max_wait=HOST_WAIT, raise_transient=attempt < PAGE_RETRIES, booking=booking)
    except HostBusy as busy:
        requeue_page(story_id, attempt, busy.booking, batch, busy.retry_in)
        return "busy"
    except FetchError:  # transient, with tries left
        requeue_page(story_id, attempt + 1, None, batch, 30 * 2 ** attempt * random.uniform(0.5, 1.5))
        return "retry"
    except SoftTimeLimitExceeded:
        articles.record_failure(story, "the page took longer than the time limit to extract")
    return story.extraction_status


def requeue_page(story_id: int, attempt: int, booking: int | None, batch: str, countdown: float) -> None:
    """Queue the page again later, its due time stamped so the healing sweep waits for it."""
    Story.objects.filter(id=story_id).update(page_due_at=timezone.now() + timedelta(seconds=countdown))
    fetch_story_page.apply_async((story_id, attempt, booking, batch), countdown=countdown)


def score_if_last(batch: str, story_id: int) -> None:
    """Tick the page off its batch; the last one queues the batch's scoring, then closes the batch (a death in
    between leaves it open, and the redelivered message queues the scoring again)."""
    ready = batches().finish(batch, story_id)
    if ready:
        score_stories.apply_async((ready,))
        batches().close(batch)


@shared_task
def heal_stuck_work() -> int:
    """The healing sweep (reader/ingestion/healing.py), run by the beat."""
    healed = healing.heal(queue_pages=queue_pages, finish_page=score_if_last, queue_feed=fetch_feed.delay)
    return len(healed.pages) + len(healed.given_up) + len(healed.feeds)


@shared_task
def score_stories(story_ids: list[int]) -> int:
    return scores.score_stories(story_ids)


@shared_task
def retrain_user(user_id: int) -> bool:
    return scores.retrain(user_id)


@shared_task(soft_time_limit=1800, time_limit=1900, **DB_RETRY)
def import_opml(import_id: int) -> None:
    opml_import.run(import_id)


@shared_task
def rescore_user(user_id: int) -> bool:
    return scores.rescore(user_id)


@shared_task
def rescore_story_readers(story_id: int, after_user: int = 0) -> None:
    for last in scores.rescore_story_readers(story_id, after_user):  # more readers left: the next chunk
        rescore_story_readers.apply_async((story_id, last))


@shared_task
def fit_crowd() -> int:
    return crowd.fit_snapshot()
