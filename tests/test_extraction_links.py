"""Link rewriting: the shortcut for already-absolute addresses must give what urljoin gives."""
from urllib.parse import urljoin

import pytest

from extraction.pipeline import absolute_url

BASES = ["https://example.org/news/story.html", "http://example.org/", "ftp://example.org/x/", "relative/base/"]
# Addresses the shortcut takes, and near misses that urljoin changes (bare "?" or "#",
# path parameters, upper-case scheme, user info, IPv6 host, empty port, non-ASCII).
VALUES = [
    "https://example.org/a/b?x=1&y=2#top", "http://example.org", "http://example.org:8080/x",
    "https://other.example/p/../q", "https://example.org//double", "https://example.org/?a?b#c#d",
    "http://example.org/x?", "http://example.org/x#", "http://example.org/x?#", "http://example.org/x;p",
    "HTTP://example.org/x", "http://user@example.org/", "http://[::1]/x", "http://example.org:/x",
    "https://example.org/caf\u00e9", "https://exa\u00e9mple.org/", "https://example.org/a b",
    "/rooted", "relative/path", "?q=1", "#frag", "//cdn.example.org/i.png", "mailto:a@example.org",
]


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("value", VALUES)
def test_absolute_url_matches_urljoin(base, value):
    assert absolute_url(base, value) == urljoin(base, value)
