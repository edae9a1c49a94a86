"""The public extraction demo: fetch a page through the safe fetcher (or take pasted HTML) and extract it.

Every failure becomes an ApiError with a stable code, an HTTP status and a message a person can act on.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

import extraction
from extraction.fetch import FetchError

from ..ingestion import fetching
from ..ingestion.politeness import HostBusy
from .api_errors import ApiError

HTML_TYPES = {"", "text/html", "application/xhtml+xml"}
_WEB_ADDRESS = URLValidator(schemes=["https"])
# FetchError kinds -> the HTTP status of our answer. The site's failures (502, 504) are logged as warnings.
FETCH_STATUS = {
    FetchError.INVALID_URL: 400,
    FetchError.REFUSED: 403,
    FetchError.TOO_LARGE: 413,
    FetchError.TIMEOUT: 504,
    FetchError.CONNECTION: 502,
    FetchError.HTTP: 502,
    FetchError.REDIRECTS: 502,
}


@dataclass
class Source:
    html: bytes | str
    url: str | None
    charset: str | None = None
    fetch_ms: float = 0.0


def check_methods(methods: list[str]) -> list[str]:
    unknown = [str(m) for m in methods if not isinstance(m, str) or m not in extraction.METHODS]  # JSON may send a list
    if unknown or not methods:
        raise ApiError("unknown_method", 400,
                        f"Unknown method {', '.join(unknown) or '(none)'}; choose from {', '.join(extraction.METHODS)}")
    return methods


def load(url: str | None, html: str | None) -> Source:
    """The page to extract: pasted HTML as given, or the URL fetched through the safe fetcher."""
    if html is not None and not isinstance(html, str):
        raise ApiError("bad_html", 400, "\"html\" must be the page's HTML as a string")
    if url is not None and not isinstance(url, str):
        raise ApiError("invalid_url", 400, "\"url\" must be the page's address as a string")
    url, html = well_formed(url), well_formed(html)
    if html and html.strip():
        check_size(html, settings.EXTRACT_MAX_HTML_BYTES, "Pasted HTML")
        return Source(html, url or None)
    if not url or not url.strip():
        raise ApiError("invalid_url", 400, "Give the address of a page, or paste its HTML.")
    try:
        url = with_scheme(url)
        response = fetching.get_now(url, max_bytes=settings.EXTRACT_MAX_HTML_BYTES)
    except FetchError as exc:
        raise ApiError(exc.kind, FETCH_STATUS.get(exc.kind, 502), fetching.explain(exc, url)) from exc
    except HostBusy as busy:
        retry = max(1, math.ceil(busy.retry_in))
        host = fetching.readable_host(busy.host)
        raise ApiError("host_busy", 503, f"{host} is busy with other requests from this server; "
                                         f"try again in a few seconds.", {"Retry-After": str(retry)}) from busy
    if response.content_type not in HTML_TYPES:
        raise ApiError("not_html", 415, f"That address is not an HTML page (it is {response.content_type})")
    return Source(response.content, response.url, response.charset, response.elapsed * 1000)


def with_scheme(url: str) -> str:
    """example.org/story is read as https://example.org/story, as the subscribe form reads an address typed
    without its scheme, and by the same test: only text that is then a web address (a host with a dot, no
    spaces) is read so. Anything else ("0", words) is left to be refused as no address, not fetched."""
    url = url.strip()
    if "://" in url:
        return url
    try:
        _WEB_ADDRESS(f"https://{url}")
    except ValidationError:
        return url
    return f"https://{url}"


def well_formed(text: str | None) -> str | None:
    """JSON can carry lone surrogates ("\\ud800"), which no encoder takes: each becomes U+FFFD."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if text else text


def check_size(html: bytes | str, limit: int, what: str, purpose: str = "for this demo") -> None:
    size = len(html.encode() if isinstance(html, str) else html)
    if size > limit:
        raise ApiError("too_large", 413, f"{what} is {size:,} bytes, over the {limit:,} byte limit {purpose}.")


def run(source: Source, method: str) -> dict:
    started = time.perf_counter()
    try:
        article = extraction.extract(source.html, url=source.url, method=method, charset=source.charset)
    except extraction.ExtractionError as exc:
        raise ApiError("extraction_failed", 422, f"No article found with {method}: {exc}") from exc
    result = article.to_dict()
    result["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    result["fetch_ms"] = round(source.fetch_ms, 1)
    return result


def compare(source: Source, methods: list[str]) -> list[dict]:
    """Every method on the same page; a method that finds nothing reports its error instead of failing all."""
    results = []
    for method in methods:
        try:
            results.append(run(source, method))
        except ApiError as exc:
            results.append({"method": method, **exc.to_dict()})
    return results
