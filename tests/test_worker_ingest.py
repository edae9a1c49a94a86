"""The whole loop through a real Celery worker and broker: feeds in, pages fetched and extracted, bad input survived."""
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User

import hostile
from conftest import wait_for
from reader.models import Entry, Feed, Story
from reader.ingestion.subscribe import subscribe
from reader.tasks import fetch_feed

pytestmark = pytest.mark.integration

ARTICLE = """<html><head><title>{title}</title></head><body><nav><a href="/">Home</a> <a href="/world">World</a></nav>
<article><h1>{title}</h1>{paragraphs}</article><aside><h3>Related</h3><ul><li><a href="/x">Other</a></li></ul></aside>
<footer>© Test desk</footer></body></html>"""


def article(title):
    text = "".join(f"<p>{title}: paragraph {i} of the story, with enough words to read like an article body, "
                   f"names, places and a quote or two from somebody who was there.</p>" for i in range(8))
    return ARTICLE.format(title=title, paragraphs=text)


def rss(server, prefix, count):
    items = "".join(f"<item><title>{prefix} story {i}</title><link>{server.url(f'/{prefix}/{i}.html')}</link>"
                    f"<guid>{prefix}-{i}</guid><description>Teaser {i}</description></item>" for i in range(count))
    return f'<rss version="2.0"><channel><title>{prefix} desk</title>{items}</channel></rss>'


@pytest.fixture
def worker_limits(monkeypatch):
    """Short fetch limits in the worker, so slow and huge pages fail fast."""
    monkeypatch.setenv("FETCH_TIMEOUT", "3")
    monkeypatch.setenv("FETCH_READ_TIMEOUT", "2")
    monkeypatch.setenv("FETCH_MAX_BYTES", "3000000")


@pytest.fixture
def worker(worker_limits, celery_worker_process):
    """The conftest worker, with this process's broker pools reopened.

    With the disk broker, conftest closes the app's connection pool to point it at the worker's folder;
    kombu's shared pools must be reset too, or the next send fails with "Acquire on closed pool".
    """
    from celery import current_app
    from kombu import pools

    options = current_app.conf.broker_transport_options or {}
    if "data_folder_in" in options:  # the disk broker: its control files go beside its messages
        options["control_folder"] = str(Path(options["data_folder_in"]) / "control")
    pools.reset()
    current_app._pool = None
    current_app.amqp._producer_pool = None
    return celery_worker_process


def publish(server, prefix, count=3):
    for i in range(count):
        server.add(f"/{prefix}/{i}.html", article(f"{prefix} story {i}"), headers={"Content-Type": "text/html"})
    return server.add(f"/{prefix}.xml", rss(server, prefix, count), headers={"Content-Type": "application/rss+xml"})


def extracted(feed):
    return Story.objects.filter(feed=feed).exclude(extraction_status=Story.Extraction.PENDING).count()


def test_feed_to_extracted_pages_through_the_worker(worker, server):
    user = User.objects.create_user("walt")
    feed, _, _ = subscribe(user, publish(server, "loop", 3))  # stored now; the worker extracts the pages
    wait_for(lambda: extracted(feed) == 3, message="three pages extracted")
    stories = Story.objects.filter(feed=feed)
    assert all(s.extraction_status == "done" for s in stories), [s.extraction_error for s in stories]
    assert all("paragraph 7 of the story" in s.extracted_text and "Related" not in s.extracted_text for s in stories)
    assert all(s.best_is_extracted for s in stories)  # the feed only had teasers
    assert Entry.objects.filter(user=user).count() == 3
    feed.refresh_from_db()
    assert feed.error_count == 0 and feed.title == "loop desk" and feed.locked_until is None
    assert [path for path, _ in server.requests].count("/loop.xml") == 1  # the worker did not fetch it again


def test_the_worker_survives_bad_input_and_records_it(worker, server):
    broken = Feed.objects.create(url=server.add("/broken.xml", "<html><body><h1>Error</h1></body></html>"))
    looping = Feed.objects.create(url=server.add("/loop.xml", status=302, headers={"Location": "/loop.xml"}))

    server.add("/slow.html", hostile.silent)
    server.add("/huge.html", hostile.huge(5, declared=False))
    items = (f"<item><title>Slow</title><link>{server.url('/slow.html')}</link><guid>s</guid></item>"
             f"<item><title>Huge</title><link>{server.url('/huge.html')}</link><guid>h</guid></item>"
             f"<item><title>Gone</title><link>{server.url('/404.html')}</link><guid>g</guid></item>")
    pages = Feed.objects.create(url=server.add("/pages.xml", f'<rss version="2.0"><channel><title>p</title>{items}'
                                               "</channel></rss>"))
    for feed in (broken, looping, pages):
        fetch_feed.delay(feed.id)
    wait_for(lambda: Feed.objects.filter(error_count=1).count() == 2, message="both bad feeds recorded")
    # Slow is a timeout, retried later (transient); huge and 404 fail for good.
    wait_for(lambda: Story.objects.filter(feed=pages, extraction_status="failed").count() == 2, message="page errors")
    errors = dict(Story.objects.filter(feed=pages).values_list("title", "extraction_error"))
    assert "byte limit" in errors["Huge"] and "HTTP 404" in errors["Gone"]
    assert "an HTML page" in Feed.objects.get(id=broken.id).last_error
    assert "redirects" in Feed.objects.get(id=looping.id).last_error
    # The worker is still alive and working.
    good = Feed.objects.create(url=publish(server, "after", 2))
    fetch_feed.delay(good.id)
    wait_for(lambda: extracted(good) == 2, message="a good feed after the bad ones")
    assert worker.poll() is None


def test_one_feed_queued_many_times_stores_each_story_once(worker, server):
    user = User.objects.create_user("dup")
    feed, _, _ = subscribe(user, publish(server, "dup", 4))
    for _ in range(6):
        fetch_feed.delay(feed.id)
    wait_for(lambda: extracted(feed) == 4, message="four pages extracted")
    time.sleep(1)
    assert Story.objects.filter(feed=feed).count() == 4 and Entry.objects.filter(user=user).count() == 4
    assert sum(1 for path, _ in server.requests if path == "/dup/0.html") == 1
