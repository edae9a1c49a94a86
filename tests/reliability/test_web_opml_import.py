"""Finding 10: a 10,000-feed OPML file. The upload returns at once; a real Celery worker subscribes the user
and queues every feed's first fetch in batches, and the import page follows its progress to the end."""
import os
import re
import signal
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from conftest import wait_for
from reader.models import Feed, OpmlImport, Subscription

from .figures import record

pytestmark = [pytest.mark.reliability, pytest.mark.integration]
FEEDS = 10_000


@pytest.fixture
def room_for_all(monkeypatch, settings):
    """The worker process reads its settings from the environment: let this user follow every feed."""
    monkeypatch.setenv("MAX_FEEDS_PER_USER", str(FEEDS))
    settings.MAX_FEEDS_PER_USER = FEEDS


def opml_file(server) -> bytes:
    outlines = "".join(f'<outline type="rss" text="Feed {i}" xmlUrl="{server.url(f"/f{i}.xml")}"/>'
                       for i in range(FEEDS))
    return (f'<?xml version="1.0"?><opml version="2.0"><body><outline text="Many">{outlines}</outline>'
            f'</body></opml>').encode()


def queued_fetches(settings) -> int:
    """First fetches still waiting in the broker's feeds queue."""
    if settings.CELERY_BROKER_URL == "filesystem://":
        return sum(1 for _ in Path(settings.BROKER_DIR).glob("*.feeds.msg"))
    from celery import current_app

    with current_app.connection_for_write() as conn:
        return conn.default_channel.client.llen("feeds")


def test_ten_thousand_feed_opml_imports_in_a_task(room_for_all, celery_worker_process, server, settings):
    user = User.objects.create_user("many")
    client = Client()
    client.force_login(user)
    upload = SimpleUploadedFile("many.opml", opml_file(server), content_type="text/x-opml")
    started = time.monotonic()
    response = client.post("/subscriptions/import", {"file": upload})
    request_seconds = time.monotonic() - started
    assert response.status_code == 302 and re.match(r"/subscriptions/import/\d+/$", response["Location"])
    pages = []

    def finished():
        pages.append(client.get(response["Location"]).content.decode())
        return OpmlImport.objects.filter(user=user, status=OpmlImport.Status.DONE).first()

    job = wait_for(finished, timeout=240, interval=2, message="the import task")
    import_seconds = time.monotonic() - started
    # Fetching 10,000 feeds takes the worker far longer than the import: pause it and count what is done and
    # what waits in the queue (up to two messages are in the worker's hands, neither done nor queued).
    os.killpg(celery_worker_process.pid, signal.SIGSTOP)
    try:
        fetched = Feed.objects.filter(last_fetched_at__isnull=False).count()
        queued = queued_fetches(settings)
    finally:
        os.killpg(celery_worker_process.pid, signal.SIGCONT)
    in_between = [p for p in pages if re.search(r"[1-9]\d* of 10000 feeds in the file read", p) and "Done:" not in p]
    record("opml_import", "OPML import: 10,000 feeds, uploaded through the page, imported by a worker task", {
        "upload request s": round(request_seconds, 2), "import done s": round(import_seconds, 1),
        "subscribed": job.subscribed, "first fetches done or queued": fetched + queued,
        "progress pages seen mid-import": len(in_between),
    }, "the upload answers at once; every feed subscribed and its first fetch queued, with progress shown")
    assert FEEDS - 4 <= fetched + queued <= FEEDS
    assert in_between
    assert job.subscribed == FEEDS and job.skipped == 0
    assert Subscription.objects.filter(user=user, folder="Many").count() == FEEDS
    assert len(job.feed_ids) == 2000
    assert "Done: 10000 of 10000 feeds in the file read" in client.get(response["Location"]).content.decode()
