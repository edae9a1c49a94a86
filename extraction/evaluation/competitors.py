"""Other extractors, wrapped as ``fn(html_bytes, url) -> text`` for side-by-side evaluation.

They come from the ``bench`` extra and are imported only when asked for, so the library
itself never depends on them.
"""
from __future__ import annotations

from collections.abc import Callable


def _trafilatura(fast: bool) -> Callable[[bytes, str | None], str]:
    import trafilatura

    def run(data: bytes, url: str | None) -> str:
        # The benchmark's gold excludes comments, so the fair setting drops them.
        return trafilatura.extract(data, url=url or None, include_comments=False, fast=fast) or ""

    return run


def _readability_lxml() -> Callable[[bytes, str | None], str]:
    import logging

    from readability import Document

    from ..document import decode
    from ..render import html_to_text

    logging.getLogger("readability.readability").setLevel(logging.ERROR)

    def run(data: bytes, url: str | None) -> str:
        return html_to_text(Document(decode(data), url=url or None).summary(html_partial=True))

    return run


def _lxml_parse() -> Callable[[bytes, str | None], str]:
    import lxml.html

    def run(data: bytes, url: str | None) -> str:
        lxml.html.document_fromstring(data)
        return ""

    return run


COMPETITORS: dict[str, Callable[[], Callable[[bytes, str | None], str]]] = {
    "trafilatura": lambda: _trafilatura(fast=False),
    "trafilatura-fast": lambda: _trafilatura(fast=True),
    "readability-lxml": _readability_lxml,
    "lxml-parse": _lxml_parse,
}


def load_competitor(name: str) -> Callable[[bytes, str | None], str] | None:
    """The named extractor, or None when its package is not installed."""
    try:
        return COMPETITORS[name]()
    except ImportError:
        return None
