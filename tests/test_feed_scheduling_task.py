"""The beat task queues every due feed once, most overdue first, and leaves the others alone."""
from datetime import timedelta

import pytest
from django.utils import timezone

from reader import tasks
from reader.ingestion import crawl
from reader.models import Feed
from ui_factories import record_sends

pytestmark = pytest.mark.django_db


def test_all_due_feeds_are_queued_once_a_chunk_at_a_time(monkeypatch):
    now = timezone.now()
    Feed.objects.bulk_create([Feed(url=f"http://f{i}.example/", next_fetch_at=now - timedelta(minutes=i)) for i in range(25)]
                             + [Feed(url="http://later.example/", next_fetch_at=now + timedelta(hours=1))])
    queued = record_sends(monkeypatch, "reader.tasks.fetch_feed")
    monkeypatch.setattr(crawl, "CHUNK", 10)
    assert tasks.schedule_due_feeds() == 25
    urls = list(Feed.objects.filter(id__in=queued).order_by("-next_fetch_at").values_list("url", flat=True))
    assert len(set(queued)) == 25 and "http://later.example/" not in urls
    assert Feed.objects.get(id=queued[0]).url == "http://f24.example/"  # the most overdue first
    assert tasks.schedule_due_feeds() == 0  # pushed out: the next tick queues nothing again
