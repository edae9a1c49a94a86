"""The one HTML sanitizer policy (nh3): which tags, attributes and link schemes may be shown.

Two allow-lists, each for what it cleans. An extracted article keeps the story's own
structure and nothing else; a feed's content, written for readers by the feed's author,
keeps nh3's broader default list. Every link is marked so that following it passes no
referrer, gives the target no handle on the reader's page and no search-engine credit.
"""
from __future__ import annotations

import nh3

ARTICLE_TAGS = frozenset({
    "p", "div", "section", "article", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
    "dl", "dt", "dd", "blockquote", "q", "cite", "pre", "code", "kbd", "samp", "var", "table", "thead",
    "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col", "figure", "figcaption", "img",
    "picture", "a", "em", "strong", "b", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup",
    "abbr", "time", "span", "ruby", "rt", "rp",
})
ARTICLE_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "time": {"datetime"},
    "abbr": {"title"},
    "ol": {"start"},
}
LINK_REL = "noopener noreferrer nofollow"

# Built once: nh3.clean() would turn the allow-lists into its own sets on every call.
_ARTICLE = nh3.Cleaner(tags=set(ARTICLE_TAGS), attributes=ARTICLE_ATTRIBUTES,
                       url_schemes={"http", "https", "mailto"}, link_rel=LINK_REL)
# nh3's default list, less `cite` (on blockquote, q, del, ins): nh3 checks the scheme of the addresses it
# knows as links, and `cite` is not one of them, so `cite="javascript:..."` came through. Browsers never
# follow it, but other clients of the stored HTML (the sync API's apps) might.
_FEED = nh3.Cleaner(attributes={tag: attributes - {"cite"} for tag, attributes in nh3.ALLOWED_ATTRIBUTES.items()},
                    link_rel=LINK_REL)


def clean_article_html(html: str) -> str:
    """An extracted article's HTML, safe to show."""
    return _ARTICLE.clean(html)


def clean_feed_html(html: str) -> str:
    """A feed's HTML (or a stored story's, article or feed), safe to show."""
    return _FEED.clean(html)
