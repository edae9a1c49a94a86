"""Finding 9: a web request never waits on the crawl's calendar. With minutes of pages booked on a host, the
widget and the subscribe form fetch at once and book nothing; with every connection to the host taken, they
answer a clear error (JSON 503 with Retry-After, or the form's message), never an uncaught HostBusy."""
import json
import time
import uuid

import pytest
from django.test import Client

from reader.ingestion import fetching, politeness
from reader.models import Subscription
from ui_factories import ann, client_ann, record_sends  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
PAGE = ("<html><head><title>Busy</title></head><body><article><h1>A busy site</h1>"
        + "<p>Many pages of this site are queued for the crawl, and a reader pastes one more address.</p>" * 5
        + "</article></body></html>")
FEED = ("<?xml version='1.0'?><rss version='2.0'><channel><title>Busy</title><link>http://busy/</link>"
        "<item><title>One</title><link>http://busy/1</link><guid>1</guid></item></channel></rss>")


@pytest.fixture
def busy_host(settings, allow_loopback):
    """A fresh host name (not exempt from politeness) that resolves to the loopback fixture server."""
    host = f"busy-{uuid.uuid4().hex[:8]}.example"
    settings.FETCH_STATIC_HOSTS = f"{host}=127.0.0.1"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"busy-{time.monotonic_ns()}"}}
    fetching.policy.cache_clear()
    yield host
    fetching.policy.cache_clear()


def on(server, host, path):
    return server.url(path).replace("127.0.0.1", host)


def next_free_turn(host) -> float:
    """Seconds until the host's next free turn, as the crawl would book it (this books one turn, at the end)."""
    return politeness.gate().book(host)[1]


def test_widget_fetches_at_once_past_a_minute_of_booked_pages_and_books_nothing(server, busy_host):
    server.add("/page", PAGE, headers={"Content-Type": "text/html"})
    politeness.gate().bookings(busy_host, 60)  # the crawl's 60 queued pages: a minute of turns at 1 s
    response = Client().post("/api/extract", json.dumps({"url": on(server, busy_host, "/page")}),
                             content_type="application/json")
    assert response.status_code == 200, response.content
    assert server.requests and server.requests[-1][0] == "/page"
    assert next_free_turn(busy_host) > 58  # still 60 turns: the web request took none of them


def test_subscribe_form_fetches_at_once_past_booked_pages(server, busy_host, ann, client_ann, monkeypatch):
    server.add("/feed.xml", FEED, headers={"Content-Type": "application/rss+xml"})
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
    politeness.gate().bookings(busy_host, 60)
    response = client_ann.post("/subscriptions/", {"url": on(server, busy_host, "/feed.xml")})
    assert response.status_code == 302
    assert Subscription.objects.filter(user=ann).count() == 1
    assert next_free_turn(busy_host) > 58


@pytest.fixture
def every_connection_taken(busy_host, settings):
    settings.WEB_HOST_WAIT = 0.3
    gate = politeness.gate()
    tokens = []
    while len(tokens) < settings.POLITE_MAX_CONNECTIONS:
        token, wait = gate.try_acquire(busy_host, 0)
        if token:
            tokens.append(token)
        else:
            time.sleep(wait)
    yield busy_host
    for token in tokens:
        gate.release(busy_host, token)


def test_widget_answers_503_when_every_connection_is_taken(server, every_connection_taken):
    server.add("/page", PAGE, headers={"Content-Type": "text/html"})
    response = Client().post("/api/extract", json.dumps({"url": on(server, every_connection_taken, "/page")}),
                             content_type="application/json")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "host_busy" and int(response["Retry-After"]) >= 1
    assert response["Access-Control-Allow-Origin"] == "*"
    assert server.requests == []


def test_subscribe_form_says_the_site_is_busy(server, every_connection_taken, ann, client_ann):
    server.add("/feed.xml", FEED, headers={"Content-Type": "application/rss+xml"})
    response = client_ann.post("/subscriptions/", {"url": on(server, every_connection_taken, "/feed.xml")})
    assert response.status_code == 200
    assert "is busy with other requests" in response.content.decode()
    assert not Subscription.objects.filter(user=ann).exists()
