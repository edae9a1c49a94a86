"""Issue 19, bugs 4, 6, 7 and 8: what people and the log are told when a site fails or a feed is followed twice."""
import json
import logging
import os
import subprocess
import sys
import time

import pytest
from django.test import Client
from django.utils import timezone

from reader.models import Feed
from conftest import ROOT
from ui_factories import ann, client_ann, make_entries, make_feed, record_sends  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"messages-{time.monotonic_ns()}"}}


def extract(url):
    return Client().post("/api/extract", json.dumps({"url": url}), content_type="application/json")


def test_a_404_or_refused_site_is_a_warning_not_our_error(server, allow_loopback, caplog):
    caplog.set_level(logging.INFO)
    missing = extract(server.url("/missing"))
    refused = extract("http://127.0.0.1:9/")
    assert (missing.status_code, refused.status_code) == (502, 502)
    request_logs = [r for r in caplog.records if r.name == "django.request"]
    assert len(request_logs) == 2 and {r.levelname for r in request_logs} == {"WARNING"}


def test_widget_errors_are_written_for_people(server, allow_loopback):
    refused = extract("http://127.0.0.1:9/story").json()["error"]["message"]
    missing = extract(server.url("/missing")).json()["error"]["message"]
    nothing = Client().post("/api/extract", "{}", content_type="application/json").json()["error"]["message"]
    assert refused == "Could not reach 127.0.0.1: the site refused the connection."
    assert missing == "127.0.0.1 answered 404 (Not Found)."
    assert nothing == "Give the address of a page, or paste its HTML."
    for message in (refused, missing, nothing):
        assert "HTTPConnection" not in message and "Errno" not in message and '("' not in message


def test_resubscribing_says_so_and_queues_no_fetch(ann, client_ann, monkeypatch, django_capture_on_commit_callbacks):
    queued = record_sends(monkeypatch, "reader.tasks.fetch_feed")
    feed = make_feed(ann, "https://site.example/feed.xml")
    with django_capture_on_commit_callbacks(execute=True):
        response = client_ann.post("/subscriptions/", {"url": feed.url}, follow=True)
    assert queued == []
    assert f"You already follow {feed}" in response.content.decode()


def test_progress_says_a_failed_feed_failed(ann, client_ann):
    feed = make_feed(ann, "https://gone.example/feed.xml")
    Feed.objects.filter(id=feed.id).update(last_fetched_at=timezone.now(), error_count=1,
                                           last_error="https://gone.example/feed.xml answered HTTP 404")
    data = client_ann.get(f"/api/progress?feeds={feed.id}").json()
    assert data["done"] and data["feeds"][0]["failed"]
    assert data["summary"] == "The feed could not be fetched: see the error below."


def test_progress_counts_failed_feeds_apart(ann, client_ann):
    good, bad = make_feed(ann, "https://ok.example/feed.xml"), make_feed(ann, "https://gone.example/feed.xml")
    Feed.objects.filter(id=good.id).update(last_fetched_at=timezone.now())
    Feed.objects.filter(id=bad.id).update(last_fetched_at=timezone.now(), last_error="answered HTTP 404")
    data = client_ann.get(f"/api/progress?feeds={good.id},{bad.id}").json()
    assert data["summary"] == "1 of 2 feeds fetched, 0 stories are in your feed; 1 could not be fetched (see below)."


def test_progress_counts_in_words_not_feed_s(ann, client_ann):
    feed = make_feed(ann, "https://ok.example/feed.xml")
    waiting = client_ann.get(f"/api/progress?feeds={feed.id}").json()
    assert waiting["summary"] == "0 of 1 feed fetched, 0 stories so far…"
    Feed.objects.filter(id=feed.id).update(last_fetched_at=timezone.now())
    done = client_ann.get(f"/api/progress?feeds={feed.id}").json()
    assert done["summary"] == "Done: 1 feed fetched, 0 stories are in your feed."
    make_entries(ann, feed, [0.5])  # its article still to extract
    extracting = client_ann.get(f"/api/progress?feeds={feed.id}").json()
    assert extracting["summary"] == "1 of 1 feed fetched, 1 story so far…"


@pytest.mark.parametrize("name, value", [("WEB_FETCH_TIMEOUT", "soon"), ("WEB_FETCH_TIMEOUT", "-1"),
                                         ("MAX_FEEDS_PER_USER", "0"), ("TRUSTED_PROXY_HOPS", "1.5"),
                                         ("LOGIN_FAILURE_LIMIT", "nan"), ("DISCOVERY_TIMEOUT", "nan"),
                                         ("BEHIND_PROXY", "ture"), ("DEBUG", "enabled"), ("FETCH_TIMEOUT", "soon"),
                                         ("POLITE_MAX_CONNECTIONS", "0"), ("HEAL_PAGE_AFTER", "²")])
def test_bad_settings_stop_start_up(name, value):
    result = subprocess.run([sys.executable, "-c", "import reader.settings"], cwd=ROOT, capture_output=True,
                            text=True, env={**os.environ, "SECRET_KEY": "x", name: value})
    assert result.returncode != 0 and "ImproperlyConfigured" in result.stderr and name in result.stderr
