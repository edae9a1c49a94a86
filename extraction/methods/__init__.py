"""Registry of content-finding methods.

Every method is a function ``find_article(doc) -> lxml.html.HtmlElement``: given the
parsed page (a mutable copy), it returns an element whose subtree is the article
(either a node of ``doc`` or a new wrapper holding the chosen nodes). It raises
``ExtractionError`` when it finds nothing. Title, metadata, cleaning and rendering
are shared by all methods (see ``pipeline.py``).

A method's module may also offer ``find_article_and_blocks(doc) -> (element, blocks)``,
where ``blocks`` are the element's text blocks (``blocks.text_blocks``) read from a page already
rid of invisible and hidden elements, or None; cleaning then need not read them again.
"""
from __future__ import annotations

from functools import cache
from importlib import import_module

METHODS: dict[str, str] = {
    "clump": "extraction.methods.clump:find_article",
    "readability": "extraction.methods.readability:find_article",
    "readability-simple": "extraction.methods.readability_simple:find_article",
    "whitespace": "extraction.methods.whitespace:find_article",
    "boilerpipe": "extraction.methods.boilerpipe:find_article",
    "ttr": "extraction.methods.ttr:find_article",
    "ttr-kmeans": "extraction.methods.ttr:find_article_kmeans",
    "mss": "extraction.methods.mss:find_article",
    "best": "extraction.methods.best:find_article",
}


# What each method is for, in a few words: the labels of the reader's method choice.
PURPOSES: dict[str, str] = {
    "clump": "the default: fastest, and the most accurate of these on the check halves",
    "readability": "Arc90 Readability's scoring, for comparison",
    "readability-simple": "a simplified Readability, for comparison",
    "whitespace": "text density by line, for comparison",
    "boilerpipe": "boilerpipe's shallow text features, for comparison",
    "ttr": "text-to-tag ratio, for comparison",
    "ttr-kmeans": "text-to-tag ratio clustered, for comparison",
    "mss": "maximum subsequence of block scores, for comparison",
    "best": "clump edited by a classifier over all methods' votes; about 10 times slower and not better "
            "than clump on every set",
}


def get_method(name: str):
    from ..article import ExtractionError

    try:
        target = METHODS[name]
    except KeyError:
        raise ExtractionError(f"unknown method {name!r}; choose one of {', '.join(METHODS)}") from None
    module, _, func = target.partition(":")
    return getattr(import_module(module), func)


@cache
def get_method_with_blocks(name: str):
    """The method as ``doc -> (element, blocks or None)``. Cached: the pipeline asks
    for every page, and resolving the module costs a few import-system calls."""
    find_article = get_method(name)
    module, _, func = METHODS[name].partition(":")
    with_blocks = getattr(import_module(module), "find_article_and_blocks", None)
    if func == "find_article" and with_blocks is not None:
        return with_blocks
    return lambda doc: (find_article(doc), None)
