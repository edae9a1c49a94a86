"""The reader's fetch policy, built once from settings for extraction.fetch."""
from functools import lru_cache

from django.conf import settings

from extraction.fetch import FetchPolicy, StaticHosts, fetch, parse_networks, system_resolver

from . import politeness


@lru_cache(maxsize=1)
def policy() -> FetchPolicy:
    resolver = StaticHosts(settings.FETCH_STATIC_HOSTS) if settings.FETCH_STATIC_HOSTS else system_resolver
    return FetchPolicy(
        allowed_networks=parse_networks(settings.FETCH_ALLOWED_NETWORKS),
        connect_timeout=settings.FETCH_CONNECT_TIMEOUT,
        read_timeout=settings.FETCH_READ_TIMEOUT,
        total_timeout=settings.FETCH_TIMEOUT,
        max_bytes=settings.FETCH_MAX_BYTES,
        max_redirects=settings.FETCH_MAX_REDIRECTS,
        resolver=resolver,
    )


def get(url: str, headers: dict | None = None, max_wait: float = 30.0, booking: int | None = None):
    """Fetch url politely: waits up to max_wait for the host's turn, else raises politeness.HostBusy."""
    with politeness.gate().slot(politeness.host_of(url), max_wait, booking):
        return fetch(url, policy(), headers)
