"""Finding 13: behind BEHIND_PROXY, the client is the address the trusted proxies appended to X-Forwarded-For
(TRUSTED_PROXY_HOPS from the right), not the leftmost entry, which the client writes itself."""
import json
import time

import pytest
from django.test import Client, RequestFactory

from reader.web.ratelimit import UNKNOWN, client_address

PROXY = "10.0.0.2"


def address(forwarded: str | None, remote: str = PROXY) -> str:
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))


@pytest.fixture
def behind_proxy(settings):
    settings.CLIENT_IP_FROM_PROXY, settings.TRUSTED_PROXY_HOPS = True, 1
    return settings


def test_one_trusted_hop_takes_the_rightmost_entry(behind_proxy):
    assert address("203.0.113.66, 198.51.100.7") == "198.51.100.7"
    assert address("198.51.100.7") == "198.51.100.7"


def test_two_trusted_hops_take_the_second_from_the_right(behind_proxy):
    behind_proxy.TRUSTED_PROXY_HOPS = 2
    assert address("203.0.113.66, 198.51.100.7, 10.0.0.9") == "198.51.100.7"


def test_missing_or_garbage_entries_fall_back_to_the_peer(behind_proxy):
    assert address(None) == PROXY
    assert address("203.0.113.66, not-an-address") == PROXY
    behind_proxy.TRUSTED_PROXY_HOPS = 3
    assert address("198.51.100.7, 10.0.0.9") == PROXY  # fewer hops than the proxies we trust


def test_without_a_proxy_the_header_is_ignored(settings):
    settings.CLIENT_IP_FROM_PROXY = False
    assert address("198.51.100.7") == PROXY
    assert address("198.51.100.7", remote="") == UNKNOWN


@pytest.mark.django_db
def test_forged_leftmost_entries_do_not_escape_the_rate_limit(behind_proxy, settings):
    settings.EXTRACT_RATE_LIMIT, settings.EXTRACT_RATE_WINDOW = 5, 3600
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"proxy-{time.monotonic_ns()}"}}
    client = Client(REMOTE_ADDR=PROXY)
    statuses = [client.post("/api/extract", json.dumps({"html": "<p>hi</p>"}), content_type="application/json",
                            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}, 198.51.100.7").status_code for i in range(8)]
    assert statuses.count(429) == 3
