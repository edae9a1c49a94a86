"""Celery tasks: short, take ids, call the library functions that do the work."""
from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from . import articles, feeds, ranking
from .models import Feed, Story

FEED_LOCK = timedelta(minutes=5)
BATCH = 500


def claim(feed_id: int) -> bool:
    """Take the per-feed lock atomically, so one feed is never fetched twice at once."""
    now = timezone.now()
    return bool(
        Feed.objects.filter(Q(locked_until__isnull=True) | Q(locked_until__lt=now), id=feed_id).update(
            locked_until=now + FEED_LOCK
        )
    )


@shared_task
def schedule_due_feeds() -> int:
    now = timezone.now()
    due = list(Feed.objects.filter(next_fetch_at__lte=now).order_by("next_fetch_at").values_list("id", flat=True)[:BATCH])
    # Push the next fetch out now, so the next beat tick does not queue the same feeds again.
    Feed.objects.filter(id__in=due).update(next_fetch_at=now + FEED_LOCK)
    for feed_id in due:
        fetch_feed.delay(feed_id)
    return len(due)


@shared_task
def fetch_feed(feed_id: int) -> int:
    if not claim(feed_id):
        return 0
    try:
        feed = Feed.objects.get(id=feed_id)
        outcome = feeds.refresh(feed)
    finally:
        Feed.objects.filter(id=feed_id).update(locked_until=None)
    for story_id in outcome.new_story_ids:
        fetch_story_page.delay(story_id)
    return len(outcome.new_story_ids)


@shared_task
def fetch_story_page(story_id: int) -> str:
    story = Story.objects.select_related("feed").filter(id=story_id).first()
    if story is None:
        return "gone"
    articles.extract_story(story)
    score_stories.delay([story_id])
    return story.extraction_status


@shared_task
def score_stories(story_ids: list[int]) -> int:
    return ranking.score_stories(story_ids)


@shared_task
def retrain_user(user_id: int) -> bool:
    return ranking.retrain(user_id)
