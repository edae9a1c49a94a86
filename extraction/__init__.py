"""Main-content extraction for news pages: a pure library on lxml.

    >>> from extraction import extract
    >>> article = extract(html_bytes, url="https://example.org/story", method="clump")
"""
from .article import Article, ExtractionError
from .methods import METHODS
from .pipeline import extract

__all__ = ["Article", "ExtractionError", "METHODS", "extract"]
