"""A small local news site for the browser tests: an RSS feed with teasers and full article pages."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

# (slug, title, topic words) — the harbour stories and the football stories share their vocabulary,
# so that ratings on a few teach the reader about the rest.
STORIES = [
    ("ferry-returns", "The old ferry returns to the east pier", "harbour"),
    ("harbour-dredging", "Harbour dredging starts before the summer crossings", "harbour"),
    ("pier-lights", "New lights for the ferry pier and the harbour walk", "harbour"),
    ("derby-draw", "Late goal earns a draw in the football derby", "football"),
    ("league-coach", "League leaders sack their football coach after the derby", "football"),
    ("cup-final", "Football cup final tickets sell out before the league match", "football"),
]
BODY = {
    "harbour": [
        "The harbour authority said the ferry would run every half hour between the east pier and the old town.",
        "Boatmen on the harbour welcomed the news, saying the pier had been quiet since the storm damaged the ferry.",
        "Engineers checked the pier, the harbour wall and the ferry ramp before the crossings were approved.",
    ],
    "football": [
        "The football club said the league match drew its biggest crowd of the season, with the derby sold out.",
        "Supporters sang through the second half as the football team pressed for a late goal in the league.",
        "The coach said the derby showed the squad could compete with the league leaders for the football cup.",
    ],
}
CLUTTER_TOP = ("<header><nav>" + " ".join(f'<a href="/section/{i}">Section {i}</a>' for i in range(12))
               + "</nav></header><div class='share'>Share · Tweet · Mail</div>")
CLUTTER_BOTTOM = ("<aside><h3>Most read</h3><ul>" + "".join(f'<li><a href="/x/{i}">Other headline {i}</a></li>'
                  for i in range(8)) + "</ul></aside><footer>About · Contact · Privacy · Cookies</footer>")


def article_text(slug: str, topic: str) -> list[str]:
    return [f"{sentence} ({slug} report, part {i + 1}.)" for i, sentence in enumerate(BODY[topic])]


def page_html(slug: str, title: str, topic: str) -> str:
    paragraphs = "".join(f"<p>{p}</p>" for p in article_text(slug, topic))
    return (f"<!doctype html><html><head><title>{title} | Harbour Gazette</title></head><body>{CLUTTER_TOP}"
            f"<article><h1>{title}</h1><p class='byline'>By Mira Holm</p>{paragraphs}</article>"
            f"{CLUTTER_BOTTOM}</body></html>")


def feed_xml(base: str, stories=STORIES, title: str = "Harbour Gazette") -> str:
    now = datetime.now(timezone.utc) - timedelta(minutes=20)
    items = "".join(
        f"<item><title>{t}</title><link>{base}/stories/{slug}.html</link><guid>{slug}</guid>"
        f"<pubDate>{format_datetime(now - timedelta(hours=i))}</pubDate>"
        f"<description>Teaser: {t.lower()}.</description></item>"
        for i, (slug, t, _) in enumerate(stories))
    return (f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>{title}</title>'
            f"<link>{base}/</link><description>Local news</description>{items}</channel></rss>")


def publish(server, path: str = "/feed.xml", stories=STORIES, title: str = "Harbour Gazette") -> str:
    """Serve the feed and its pages on the fixture server; returns the feed's URL."""
    base = server.url("")
    for slug, story_title, topic in stories:
        server.add(f"/stories/{slug}.html", page_html(slug, story_title, topic),
                   headers={"Content-Type": "text/html; charset=utf-8"})
    return server.add(path, feed_xml(base, stories, title), headers={"Content-Type": "application/rss+xml"})
