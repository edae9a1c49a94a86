"""The reader's fetch policy, built once from settings for extraction.fetch, and its two ways to fetch:
get() for the crawl (on the host's politeness calendar) and get_now() for a person waiting on a web request."""
import dataclasses
import socket
from functools import lru_cache
from http import HTTPStatus

from django.conf import settings

from extraction.fetch import FetchError, FetchPolicy, StaticHosts, fetch, parse_networks, system_resolver

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


def get_now(url: str, timeout: float | None = None, max_bytes: int | None = None):
    """Fetch url for a web request: at once, within WEB_FETCH_TIMEOUT (or the shorter timeout), never waiting on
    the crawl's calendar; raises politeness.HostBusy when the host's connections stay taken for WEB_HOST_WAIT."""
    limits = {"total_timeout": min(settings.WEB_FETCH_TIMEOUT, settings.FETCH_TIMEOUT, timeout or float("inf"))}
    if max_bytes is not None:
        limits["max_bytes"] = min(max_bytes, settings.FETCH_MAX_BYTES)
    with politeness.gate().slot_now(politeness.host_of(url), settings.WEB_HOST_WAIT):
        return fetch(url, dataclasses.replace(policy(), **limits))


def explain(exc: FetchError, url: str) -> str:
    """What went wrong, for a person: the site's name and the reason, never a library's internals."""
    host = readable_host(politeness.host_of(url)) or "that address"
    if exc.kind == FetchError.CONNECTION:
        return f"Could not reach {host}: {_connection_reason(exc)}."
    if exc.kind == FetchError.HTTP:
        try:
            return f"{host} answered {exc.status} ({HTTPStatus(exc.status).phrase})."
        except ValueError:  # a status no standard names
            return f"{host} answered with error {exc.status}."
    return {
        FetchError.INVALID_URL: "That is not a web address this server can fetch (only http:// and https:// ones).",
        FetchError.REFUSED: f"{host} is a private or local address, which this server does not fetch.",
        FetchError.TOO_LARGE: f"The page at {host} is too large.",
        FetchError.TIMEOUT: f"{host} took too long to answer.",
        FetchError.REDIRECTS: f"{host} redirects too many times.",
        FetchError.TLS: f"{host} has no valid secure connection (HTTPS certificate or protocol problem).",
    }.get(exc.kind, f"{host} could not be fetched.")


def readable_host(host: str) -> str:
    """The host as the person wrote it: bücher.example, not the xn--bcher-kva.example that goes on the wire."""
    try:
        return host.encode().decode("idna")
    except UnicodeError:  # a punycode label that does not decode: shown as it is
        return host


def _connection_reason(exc: FetchError) -> str:
    cause = exc.__cause__
    while cause is not None and not isinstance(cause, (socket.gaierror, ConnectionRefusedError)):
        cause = cause.__cause__ or cause.__context__
    if isinstance(cause, socket.gaierror) or "cannot resolve" in str(exc):
        return "no such site (the name does not resolve)"
    if isinstance(cause, ConnectionRefusedError) or "refused" in str(exc).lower():
        return "the site refused the connection"
    return "the connection failed"
