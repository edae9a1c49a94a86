"""Which content answers which path on the demo site."""
import re
from datetime import datetime
from http import HTTPStatus
from typing import NamedTuple

from .catalog import DESKS
from .clutter import INFO_PAGES
from .feed_documents import feed_mime, render_feed, render_opml
from .pages import home_page, info_page, not_found_page, placeholder_svg
from .story_page import render_story_page

HTML = "text/html; charset=utf-8"


class Response(NamedTuple):
    status: int
    body: bytes
    content_type: str
    last_modified: datetime | None = None


def route(stories, base, path):
    """Return the Response for a GET of `path`, with links built on `base`."""
    for pattern, handler in _ROUTES:
        match = pattern.fullmatch(path)
        if match:
            response = handler(stories, base, *match.groups())
            if response:
                return response
    return Response(HTTPStatus.NOT_FOUND, not_found_page(base, path).encode(), HTML)


def _home(stories, base):
    return Response(HTTPStatus.OK, home_page(base, stories).encode(), HTML, stories[0]["published"])


def _opml(stories, base):
    return Response(HTTPStatus.OK, render_opml(base), "text/x-opml; charset=utf-8", stories[0]["published"])


def _feed(stories, base, desk):
    if desk not in dict(DESKS):
        return None
    items = [s for s in stories if s["desk"] == desk]
    return Response(HTTPStatus.OK, render_feed(base, desk, items), f"{feed_mime(desk)}; charset=utf-8",
                    items[0]["published"])


def _story(stories, base, slug):
    story = next((s for s in stories if s["slug"] == slug), None)
    if story is None:
        return None
    html = render_story_page(story, stories, base)
    return Response(HTTPStatus.OK, html.encode(), HTML, story["published"])


def _media(stories, base, slug, index):
    story = next((s for s in stories if s["slug"] == slug), None)
    blocks = story["body"] if story else []
    block = blocks[int(index)] if int(index) < len(blocks) else None
    if not isinstance(block, dict) or "figure" not in block:
        return None
    return Response(HTTPStatus.OK, placeholder_svg(block["figure"]).encode(), "image/svg+xml",
                    story["published"])


def _no_icon(stories, base):
    # Browsers ask every site for one; a 404 shows as an error in their console, "no content" does not.
    return Response(HTTPStatus.NO_CONTENT, b"", "image/x-icon")


def _info(stories, base, name):
    if name not in INFO_PAGES:
        return None
    return Response(HTTPStatus.OK, info_page(base, name).encode(), HTML, stories[-1]["published"])


_ROUTES = [
    (re.compile(r"/(?:index\.html)?"), _home),
    (re.compile(r"/opml"), _opml),
    (re.compile(r"/feeds/([a-z]+)\.xml"), _feed),
    (re.compile(r"/stories/([a-z0-9-]+)\.html"), _story),
    (re.compile(r"/media/([a-z0-9-]+)-(\d{1,3})\.svg"), _media),
    (re.compile(r"/info/([a-z]+)\.html"), _info),
    (re.compile(r"/favicon\.ico"), _no_icon),
]
