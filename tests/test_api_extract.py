"""POST /api/extract: open to anyone, fetched through the safe fetcher, rate-limited, errors in words."""
import json
import time

import pytest
from django.test import Client

import extraction
from extraction.fetch import FetchError
from reader.ingestion import fetching

pytestmark = pytest.mark.django_db

PAGE = """<html><head><title>Harbour news</title></head><body>
<nav><a href="/">Home</a> <a href="/city">City</a> <a href="/sport">Sport</a></nav>
<article><h1>The ferry returns to the east pier</h1>
<p>After two years of repairs the old ferry made its first crossing on Monday morning, carrying
forty passengers and a brass band across the harbour.</p>
<p>The city council said the timetable will run every half hour from next week, with a later last
crossing on Fridays and Saturdays during the summer.</p>
<p>Residents of the east side had waited for the service since the pier was damaged in a storm.</p>
</article><footer>Contact us · Privacy · Terms</footer></body></html>"""


@pytest.fixture(autouse=True)
def local_cache(settings):
    # Each test gets fresh rate-limit counters in a private cache, never the shared Redis database.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"extract-{time.monotonic_ns()}"}}


def extract(data, client=None, **headers):
    client = client or Client()
    return client.post("/api/extract", json.dumps(data), content_type="application/json", headers=headers)


def test_extracts_a_local_page_by_url(server, allow_loopback):
    url = server.add("/story", PAGE, headers={"Content-Type": "text/html; charset=utf-8"})
    response = extract({"url": url})
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["title"] and "brass band" in data["text"] and "Privacy" not in data["text"]
    assert data["method"] in extraction.METHODS and data["elapsed_ms"] >= 0 and data["url"] == url
    assert response["Access-Control-Allow-Origin"] == "*"


def test_pasted_html_needs_no_fetch_and_compare_runs_every_method(server):
    response = extract({"html": PAGE, "compare": True})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["method"] for r in results] == list(extraction.METHODS)
    assert all("ferry" in r["text"] for r in results if "error" not in r)
    assert server.requests == []


def test_get_lists_the_methods_for_the_widget():
    data = Client().get("/api/extract").json()
    assert data["methods"] == list(extraction.METHODS) and data["default"] in data["methods"]


@pytest.mark.parametrize("payload, code, status", [
    ({"url": "not a url"}, "invalid_url", 400),
    ({"url": "ftp://files.example/x"}, "invalid_url", 400),
    ({}, "invalid_url", 400),
    ({"url": "http://10.0.0.1/", "method": "no-such-method"}, "unknown_method", 400),
    ({"url": "http://10.1.2.3/story"}, "refused_address", 403),
    ({"url": "http://169.254.169.254/latest/meta-data/"}, "refused_address", 403),
    ({"url": "http://[::1]:9/"}, "refused_address", 403),
])
def test_bad_requests_get_a_clear_json_error(payload, code, status):
    response = extract(payload)
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code and len(error["message"]) > 10


def test_loopback_is_refused_unless_the_site_allows_it(server):
    url = server.add("/story", PAGE, headers={"Content-Type": "text/html"})
    response = extract({"url": url})
    assert response.status_code == 403 and "private or local" in response.json()["error"]["message"]
    assert server.requests == []  # checked before connecting


def test_not_html_too_large_and_timeout(server, allow_loopback, settings):
    image = server.add("/photo.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 100, headers={"Content-Type": "image/png"})
    assert extract({"url": image}).json()["error"]["code"] == "not_html"

    settings.FETCH_MAX_BYTES = 1000
    fetching.policy.cache_clear()
    big = server.add("/big", "<p>" + "word " * 2000 + "</p>", headers={"Content-Type": "text/html"})
    response = extract({"url": big})
    assert response.status_code == 413 and "too large" in response.json()["error"]["message"]

    settings.FETCH_MAX_BYTES, settings.FETCH_TIMEOUT = 10_000_000, 0.5
    fetching.policy.cache_clear()

    def slow(handler):
        time.sleep(1.5)
        handler.send_response(200)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    slow_url = server.add("/slow", slow)
    response = extract({"url": slow_url})
    assert response.status_code == 504 and response.json()["error"]["code"] == "timeout"


def test_upstream_http_error_and_empty_page(server, allow_loopback):
    missing = server.add("/gone", "not here", status=404, headers={"Content-Type": "text/html"})
    response = extract({"url": missing})
    assert response.status_code == 502 and "404" in response.json()["error"]["message"]
    response = extract({"html": "   "})
    assert response.status_code == 400  # nothing to extract: no URL and no HTML


def test_an_address_typed_without_its_scheme_is_read_as_https(monkeypatch):
    asked = []

    def get_now(url, **limits):
        asked.append(url)
        raise FetchError(FetchError.CONNECTION, f"cannot resolve {url}")

    monkeypatch.setattr(fetching, "get_now", get_now)
    response = extract({"url": " example.org/news/story "})
    assert asked == ["https://example.org/news/story"]
    assert response.json()["error"]["message"] == "Could not reach example.org: no such site (the name does not resolve)."


@pytest.mark.parametrize("text", ["0", "news", "two words", "javascript:alert(1)"])
def test_text_that_is_no_address_with_https_either_is_refused_unfetched(monkeypatch, text):
    def get_now(url, **limits):  # the fetcher refuses what is not http(s) before any lookup
        assert "://" not in url, f"{text!r} was fetched as {url}"
        raise FetchError(FetchError.INVALID_URL, "not an http(s) address")

    monkeypatch.setattr(fetching, "get_now", get_now)
    response = extract({"url": text})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_url"


def test_an_address_of_blanks_asks_for_an_address():
    response = extract({"url": "   "})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "Give the address of a page, or paste its HTML."


def test_clients_over_the_limit_get_429_with_retry_after(settings):
    settings.EXTRACT_RATE_LIMIT = 3
    for _ in range(3):
        assert extract({"html": PAGE}).status_code == 200
    refused = extract({"html": PAGE})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert refused.json()["error"]["code"] == "rate_limited"
    other = Client(REMOTE_ADDR="127.0.0.2")
    assert extract({"html": PAGE}, client=other).status_code == 200  # budgets are per client


def test_anonymous_needs_no_csrf_token_but_gets_no_session_powers():
    client = Client(enforce_csrf_checks=True)
    assert extract({"html": PAGE}, client=client).status_code == 200
    assert client.get("/api/stories").status_code == 401
