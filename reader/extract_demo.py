"""The public extraction demo: fetch a page through the safe fetcher (or take pasted HTML) and extract it.

Every failure becomes an ApiError with a stable code, an HTTP status and a message a person can act on.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings

import extraction
from extraction.fetch import FetchError

from . import fetching
from .api_errors import ApiError

HTML_TYPES = {"", "text/html", "application/xhtml+xml"}
# FetchError kinds -> (code, HTTP status for our answer)
FETCH_STATUS = {
    FetchError.INVALID_URL: 400,
    FetchError.REFUSED: 403,
    FetchError.TOO_LARGE: 413,
    FetchError.TIMEOUT: 504,
    FetchError.CONNECTION: 502,
    FetchError.HTTP: 502,
    FetchError.REDIRECTS: 502,
}
FETCH_MESSAGES = {
    FetchError.INVALID_URL: "That is not a web address we can fetch: {detail}",
    FetchError.REFUSED: "Refused: that address is private, local or otherwise not public ({detail})",
    FetchError.TOO_LARGE: "The page is too large to extract ({detail})",
    FetchError.TIMEOUT: "The page took too long to arrive ({detail})",
    FetchError.CONNECTION: "Could not connect to the site ({detail})",
    FetchError.HTTP: "The site answered with an error ({detail})",
    FetchError.REDIRECTS: "The page redirects too many times ({detail})",
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
    if html and html.strip():
        if len(html.encode()) > settings.EXTRACT_MAX_HTML_BYTES:
            raise ApiError("too_large", 413, f"Pasted HTML is over the {settings.EXTRACT_MAX_HTML_BYTES} byte limit")
        return Source(html, url or None)
    if not url or not isinstance(url, str):
        raise ApiError("invalid_url", 400, "Give a page address (\"url\") or the page itself (\"html\")")
    try:
        response = fetching.get(url.strip())
    except FetchError as exc:
        template = FETCH_MESSAGES.get(exc.kind, "{detail}")
        raise ApiError(exc.kind, FETCH_STATUS.get(exc.kind, 502), template.format(detail=exc)) from exc
    if response.content_type not in HTML_TYPES:
        raise ApiError("not_html", 415, f"That address is not an HTML page (it is {response.content_type})")
    return Source(response.content, response.url, response.charset, response.elapsed * 1000)


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
