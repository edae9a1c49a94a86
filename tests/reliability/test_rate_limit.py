"""The public extractor's rate limit: 100 widget requests in a minute from one client; the excess gets 429
and never reaches the fetcher, other clients are still served, and a forged X-Forwarded-For changes nothing."""
import random
import time

import pytest
from django.test import Client

from .figures import record

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]

ARTICLE = ("<html><head><title>Widget</title></head><body><article><h1>Widget</h1>"
           + "".join(f"<p>Paragraph {i} of the story, with enough words to read like an article body, names, places "
                     f"and a quote or two from somebody who was there.</p>" for i in range(8))
           + "</article></body></html>")


def test_excess_widget_requests_get_429_and_fetch_nothing(server, allow_loopback, settings):
    settings.EXTRACT_RATE_LIMIT, settings.EXTRACT_RATE_WINDOW = 20, 60
    page = server.add("/article.html", ARTICLE, headers={"Content-Type": "text/html"})
    client_ip = f"127.{random.randint(1, 250)}.{random.randint(1, 250)}.{random.randint(1, 250)}"  # fresh counters
    widget = Client(REMOTE_ADDR=client_ip, HTTP_ORIGIN="http://blog.example")
    # Keep the 100 requests inside one rate window, so the figure is exactly "per minute".
    if time.time() % 60 > 45:
        time.sleep(61 - time.time() % 60)
    statuses, retry_after, started = [], set(), time.monotonic()
    for i in range(100):
        forged = {"HTTP_X_FORWARDED_FOR": f"198.51.100.{i}"} if i % 2 else {}
        response = widget.post("/api/extract", {"url": page}, content_type="application/json", **forged)
        statuses.append(response.status_code)
        if response.status_code == 429:
            retry_after.add(response["Retry-After"])
            assert response["Access-Control-Allow-Origin"] == "*"  # the widget can read the error
    seconds = time.monotonic() - started
    fetched = sum(1 for path, _ in server.requests if path == "/article.html")
    other = Client(REMOTE_ADDR="127.0.0.9").post("/api/extract", {"url": page}, content_type="application/json")
    record("rate_limit", "Rate limit: 100 widget requests in a minute from one client (limit 20/min)", {
        "200": statuses.count(200), "429": statuses.count(429), "other statuses": len(statuses) - statuses.count(200)
        - statuses.count(429), "pages fetched for that client": fetched, "seconds for 100 requests": round(seconds, 1),
        "another client served": other.status_code == 200,
    }, "the first 20 served, the other 80 get 429 and fetch nothing")
    assert statuses[:20] == [200] * 20 and statuses[20:] == [429] * 80
    assert fetched == 20
    assert all(0 < int(value) <= 61 for value in retry_after)
    assert other.status_code == 200
