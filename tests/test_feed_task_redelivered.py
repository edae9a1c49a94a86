"""A feed task whose worker died after storing stories but before queueing their pages: the redelivered
message (same task id, its lock still held) queues the stranded pages even when the feed answers 304."""
from datetime import timedelta

import pytest
from django.utils import timezone

from reader.ingestion import feeds
from reader import tasks
from reader.models import Feed, Story

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("redelivered", [True, False])
def test_redelivered_feed_task_queues_pages_left_pending(monkeypatch, redelivered):
    feed = Feed.objects.create(url="http://news.example/feed.xml", locked_by="task-1" if redelivered else "",
                               locked_until=timezone.now() + timedelta(minutes=5) if redelivered else None)
    stranded = Story.objects.create(feed=feed, guid="a", url="http://news.example/a")
    Story.objects.create(feed=feed, guid="b", url="http://news.example/b", extraction_status="done")
    monkeypatch.setattr(feeds, "refresh", lambda feed, **kw: feeds.FetchOutcome(not_modified=True))
    queued = []
    monkeypatch.setattr(tasks, "queue_pages", queued.append)
    tasks.fetch_feed.apply(args=(feed.id,), task_id="task-1")
    assert queued == [[stranded.id] if redelivered else []]
    assert Feed.objects.get(id=feed.id).locked_by == ""
