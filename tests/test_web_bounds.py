"""Finding 10: every web request's work is bounded: page size caps for the extractor (smaller for comparing every
method), one time budget for discovery, a per-user feed limit (subscribe form and OPML import)."""
import json
import time

import pytest
from django.test import Client

from reader.ingestion import opml_import
from reader.models import OpmlImport, Subscription
from reader.ingestion.discovery import COMMON_PATHS, DiscoveryError, discover
from ui_factories import ann, client_ann, make_feed, record_sends  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
PARAGRAPH = "<p>Paragraph of a long story, with words enough to read like the body of an article.</p>"


def page(kilobytes: int) -> str:
    return ("<html><head><title>Long</title></head><body><article><h1>Long</h1>"
            + PARAGRAPH * (kilobytes * 1024 // len(PARAGRAPH)) + "</article></body></html>")


@pytest.fixture(autouse=True)
def local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"bounds-{time.monotonic_ns()}"}}


def extract(data):
    return Client().post("/api/extract", json.dumps(data), content_type="application/json")


def test_compare_all_refuses_a_page_over_its_smaller_cap(settings):
    settings.EXTRACT_COMPARE_MAX_BYTES = 100 * 1024
    big = page(300)
    response = extract({"html": big, "compare": True})
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"
    assert "comparing all methods" in response.json()["error"]["message"]
    assert extract({"html": big}).status_code == 200  # one method may take it


def test_pasted_html_over_the_cap_is_refused(settings):
    settings.EXTRACT_MAX_HTML_BYTES = 100 * 1024
    response = extract({"html": page(300)})
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_a_fetched_page_over_the_extractor_cap_is_not_read(server, allow_loopback, settings):
    settings.EXTRACT_MAX_HTML_BYTES = 100 * 1024
    url = server.add("/long", page(300), headers={"Content-Type": "text/html"})
    response = extract({"url": url})
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


def test_compare_all_cap_applies_to_a_fetched_page_too(server, allow_loopback, settings):
    settings.EXTRACT_COMPARE_MAX_BYTES = 100 * 1024
    url = server.add("/long", page(300), headers={"Content-Type": "text/html"})
    assert extract({"url": url, "compare": True}).status_code == 413


def slow(seconds: float):
    def answer(handler):
        time.sleep(seconds)
        handler.send_response(404)
        handler.send_header("Content-Length", "0")
        handler.end_headers()
    return answer


def test_discovery_stops_at_its_time_budget(server, allow_loopback, settings):
    settings.DISCOVERY_TIMEOUT = 2.5
    home = server.add("/", "<html><head><title>No feed links</title></head><body><p>Hello</p></body></html>",
                      headers={"Content-Type": "text/html"})
    for path in COMMON_PATHS:
        server.add(path, slow(1.0))
    with pytest.raises(DiscoveryError, match="took longer than 2.5 s"):
        discover(home)
    tried = [path for path, _ in server.requests if path in COMMON_PATHS]
    assert 1 <= len(tried) < len(COMMON_PATHS)


def test_subscribe_form_stops_at_the_per_user_limit(ann, client_ann, settings, monkeypatch):
    settings.MAX_FEEDS_PER_USER = 2
    make_feed(ann, "https://a.example/feed")
    make_feed(ann, "https://b.example/feed")
    make_feed(None, "https://c.example/feed")  # known: subscribing fetches nothing
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
    response = client_ann.post("/subscriptions/", {"url": "https://c.example/feed"})
    assert response.status_code == 200 and "the most this server allows" in response.content.decode()
    assert Subscription.objects.filter(user=ann).count() == 2


def test_opml_import_stops_at_the_per_user_limit_and_says_so(ann, settings, monkeypatch):
    settings.MAX_FEEDS_PER_USER, settings.OPML_IMPORT_BATCH = 3, 2
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
    make_feed(ann, "https://known.example/feed")
    outlines = "".join(f'<outline type="rss" text="F{i}" xmlUrl="https://f{i}.example/feed"/>' for i in range(5))
    data = (f'<?xml version="1.0"?><opml version="2.0"><body><outline text="Folder">{outlines}</outline>'
            f'<outline type="rss" text="Known" xmlUrl="https://known.example/feed"/></body></opml>').encode()
    job = opml_import.create(ann, data)
    opml_import.run(job.id)
    job.refresh_from_db()
    assert job.status == OpmlImport.Status.DONE and (job.found, job.processed) == (6, 6)
    assert (job.subscribed, job.already, job.skipped) == (2, 1, 3)
    assert Subscription.objects.filter(user=ann).count() == 3
    assert Subscription.objects.filter(user=ann, folder="Folder").count() == 2
    assert [why for _, why in job.problems] == ["over your limit of 3 feeds"] * 3
    assert bytes(job.data) == b""
