"""Self-healing after worker death: a periodic sweep queues again the work a dead worker's broker lost.

A worker killed whole (kill -9, out of memory, power loss) takes the messages it held with it: on the disk
broker they are gone, on Redis they come back only after the visibility timeout. The database knows what is
unfinished, so the sweep looks there, for two things:

- a story still pending HEAL_PAGE_AFTER seconds after its page task was due (`Story.page_due_at`, stamped when
  the page is queued), or stored that long ago and never queued (a death between storing and queueing);
- a feed whose lock outlived its holder: a live fetch always releases its lock, and the lock (FEED_LOCK_SECONDS)
  outlasts fetch_feed's hard time limit, so an expired lock still held belongs to a task that is gone.

Idempotent, so that a healthy system does no double work: a story queued again is stamped due now, and later
sweeps leave it alone for another HEAL_PAGE_AFTER; a page task finding its story done does nothing; a feed's
lock is released only while the dead task still holds it. Rows are taken with SKIP LOCKED (PostgreSQL; SQLite
writers run one at a time), so two sweeps never take the same story. A page lost again and again (a page that
kills its worker) is marked failed after HEAL_PAGE_MAX_REQUEUES, with the reason on the story.

Scoring follows: a healed page is ticked off the batch it was first queued in (its batch's other new stories
are scored now, instead of waiting for ever on the lost page) and queued in a new batch, scored when it is done.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Callable

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from ..models import Feed, Story

log = logging.getLogger(__name__)

SWEEP_LIMIT = 2000  # stories per sweep: a big loss is worked off over a few sweeps, each a short transaction


@dataclass
class Healed:
    pages: list[int] = field(default_factory=list)  # stories whose page task was queued again
    given_up: list[int] = field(default_factory=list)  # stories marked failed after too many losses
    feeds: list[int] = field(default_factory=list)  # feeds whose dead lock was released, queued again


def heal(queue_pages: Callable[[list[int]], None], finish_page: Callable[[str, int], None],
         queue_feed: Callable[[int], None]) -> Healed:
    """Queue again what is stuck past its bound, after the commit.

    The callers' queueing functions are passed in (services never import tasks): queue_pages(story_ids) queues
    pages in a new batch, finish_page(batch, story_id) ticks a page off its batch, queue_feed(feed_id)."""
    now, healed = timezone.now(), Healed()
    with transaction.atomic():
        stuck = _stuck_pages(now)
        healed.given_up = [sid for sid, _, requeues in stuck if requeues >= settings.HEAL_PAGE_MAX_REQUEUES]
        healed.pages = [sid for sid, _, requeues in stuck if requeues < settings.HEAL_PAGE_MAX_REQUEUES]
        Story.objects.filter(id__in=healed.pages).update(page_due_at=now, page_requeues=F("page_requeues") + 1)
        Story.objects.filter(id__in=healed.given_up).update(
            extraction_status=Story.Extraction.FAILED, updated_at=now,
            extraction_error=f"the page's task was lost {settings.HEAL_PAGE_MAX_REQUEUES + 1} times "
                             f"(its worker died each time), so it was not tried again")
        healed.feeds = _release_dead_locks(now)
        old_batches = [(batch, sid) for sid, batch, _ in stuck if batch]
        transaction.on_commit(lambda: _queue(healed, old_batches, queue_pages, finish_page, queue_feed))
    if healed.pages or healed.given_up or healed.feeds:
        log.warning("healing: %d pages queued again, %d given up, %d feed locks released and feeds queued again",
                    len(healed.pages), len(healed.given_up), len(healed.feeds))
    return healed


def _stuck_pages(now) -> list[tuple[int, str, int]]:
    """(id, batch, requeues) of pending stories past the bound, oldest first."""
    bound = now - timedelta(seconds=settings.HEAL_PAGE_AFTER)
    return list(Story.objects.filter(extraction_status=Story.Extraction.PENDING)
                .filter(Q(page_due_at__lt=bound) | Q(page_due_at__isnull=True, created_at__lt=bound))
                .order_by(F("page_due_at").asc(nulls_first=True)).select_for_update(skip_locked=True)
                .values_list("id", "page_batch", "page_requeues")[:SWEEP_LIMIT])


def _release_dead_locks(now) -> list[int]:
    dead = list(Feed.objects.filter(locked_until__lt=now).exclude(locked_by="")
                .select_for_update(skip_locked=True).values_list("id", flat=True))
    Feed.objects.filter(id__in=dead, locked_until__lt=now).update(locked_until=None, locked_by="")
    return dead


def _queue(healed: Healed, old_batches, queue_pages, finish_page, queue_feed) -> None:
    for batch, story_id in old_batches:
        finish_page(batch, story_id)
    queue_pages(healed.pages)
    for feed_id in healed.feeds:
        queue_feed(feed_id)
