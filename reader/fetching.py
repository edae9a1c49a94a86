"""The reader's fetch policy, built once from settings for extraction.fetch."""
from functools import lru_cache

from django.conf import settings

from extraction.fetch import FetchPolicy, fetch, parse_networks


@lru_cache(maxsize=1)
def policy() -> FetchPolicy:
    return FetchPolicy(
        allowed_networks=parse_networks(settings.FETCH_ALLOWED_NETWORKS),
        total_timeout=settings.FETCH_TIMEOUT,
        max_bytes=settings.FETCH_MAX_BYTES,
    )


def get(url: str, headers: dict | None = None):
    return fetch(url, policy(), headers)
