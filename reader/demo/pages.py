"""The demo site's other pages: home, small information pages, errors, images."""
from html import escape

from .catalog import DESKS
from .page_shell import page

SITE = "The Marrowgate Courier"


def home_page(base, stories):
    sections = "".join(_desk_section(base, slug, title, stories) for slug, title in DESKS)
    body = (
        f'<header><a href="{base}/">{SITE}</a><p>An invented newspaper for trying out a feed reader offline.</p></header>'
        f'<div class="home">{sections}<p><a href="{base}/opml">Subscribe to every desk (OPML)</a></p></div>'
    )
    return page(SITE, base, body)


def _desk_section(base, slug, title, stories):
    items = "".join(
        f'<li><a href="{base}/stories/{s["slug"]}.html">{escape(s["title"])}</a>'
        f"<p>{escape(s['teaser'])}</p></li>"
        for s in stories if s["desk"] == slug
    )
    return (
        f'<section id="{slug}"><h2>{escape(title)} <a href="{base}/feeds/{slug}.xml">(feed)</a></h2>'
        f"<ul>{items}</ul></section>"
    )


def info_page(base, name):
    body = (
        f'<header><a href="{base}/">{SITE}</a></header><main><h1>{escape(name.title())}</h1>'
        f"<p>This page is part of a demonstration site and has no further content.</p></main>"
    )
    return page(f"{name.title()} | {SITE}", base, body)


def not_found_page(base, path):
    body = (
        f'<main><h1>Page not found</h1><p>Nothing is published at {escape(path)}.</p>'
        f'<p><a href="{base}/">Back to the front page</a></p></main>'
    )
    return page(f"Not found | {SITE}", base, body)


def placeholder_svg(caption):
    """A plain picture standing in for a news photo, with its description as text."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">'
        '<rect width="640" height="360" fill="#c9d3dd"/>'
        f'<text x="320" y="185" font-size="18" text-anchor="middle" fill="#334">{escape(caption[:70])}</text>'
        "</svg>"
    )
