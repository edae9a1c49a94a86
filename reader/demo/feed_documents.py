"""Desk feeds (RSS 2.0, Atom 1.0, RSS 1.0/RDF) and the OPML list of them.

Items carry only the teaser, never the article text, so a reader has to fetch the
story page and extract it, as it must for most real news feeds.
"""
from email.utils import format_datetime
from xml.etree import ElementTree as ET

from .catalog import DESKS, desk_title

DC = "http://purl.org/dc/elements/1.1/"
ATOM = "http://www.w3.org/2005/Atom"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RSS1 = "http://purl.org/rss/1.0/"

# Three syntaxes so the reader's feed handling is exercised on each of them.
FEED_FORMATS = {"science": "rss2", "city": "atom", "sports": "rss2", "business": "rdf"}

for _prefix, _uri in (("dc", DC), ("atom", ATOM), ("rdf", RDF)):
    ET.register_namespace(_prefix, _uri)


def feed_url(base, desk):
    return f"{base}/feeds/{desk}.xml"


def story_url(base, story):
    return f"{base}/stories/{story['slug']}.html"


def render_feed(base, desk, stories):
    """Return the feed document (bytes) for one desk's stories, newest first."""
    builder = {"rss2": _rss2, "atom": _atom, "rdf": _rdf}[FEED_FORMATS[desk]]
    return _serialize(builder(base, desk, stories))


def render_opml(base):
    opml = ET.Element("opml", version="2.0")
    head = ET.SubElement(opml, "head")
    _text(head, "title", "The Marrowgate Courier — all desks")
    body = ET.SubElement(opml, "body")
    for slug, title in DESKS:
        ET.SubElement(body, "outline", type=_mime_kind(slug), text=title, title=title,
                      xmlUrl=feed_url(base, slug), htmlUrl=f"{base}/")
    return _serialize(opml)


def feed_mime(desk):
    return {"rss2": "application/rss+xml", "atom": "application/atom+xml",
            "rdf": "application/rdf+xml"}[FEED_FORMATS[desk]]


def _mime_kind(desk):
    return "atom" if FEED_FORMATS[desk] == "atom" else "rss"


def _rss2(base, desk, stories):
    rss = ET.Element("rss", version="2.0")
    channel = ET.SubElement(rss, "channel")
    _text(channel, "title", f"The Marrowgate Courier: {desk_title(desk)}")
    _text(channel, "link", f"{base}/")
    _text(channel, "description", f"Latest stories from the {desk_title(desk)}.")
    ET.SubElement(channel, f"{{{ATOM}}}link", rel="self", href=feed_url(base, desk),
                  type="application/rss+xml")
    if stories:
        _text(channel, "lastBuildDate", format_datetime(stories[0]["published"], usegmt=True))
    for story in stories:
        item = ET.SubElement(channel, "item")
        _text(item, "title", story["title"])
        _text(item, "link", story_url(base, story))
        _text(item, "guid", story_url(base, story)).set("isPermaLink", "true")
        _text(item, "pubDate", format_datetime(story["published"], usegmt=True))
        _text(item, f"{{{DC}}}creator", story["author"])
        _text(item, "description", story["teaser"])
        for tag in story["tags"]:
            _text(item, "category", tag)
    return rss


def _atom(base, desk, stories):
    feed = ET.Element(f"{{{ATOM}}}feed")
    _text(feed, f"{{{ATOM}}}title", f"The Marrowgate Courier: {desk_title(desk)}")
    _text(feed, f"{{{ATOM}}}id", feed_url(base, desk))
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", href=feed_url(base, desk))
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", href=f"{base}/")
    if stories:
        _text(feed, f"{{{ATOM}}}updated", stories[0]["published"].isoformat())
    for story in stories:
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        _text(entry, f"{{{ATOM}}}title", story["title"])
        _text(entry, f"{{{ATOM}}}id", f"urn:marrowgate-courier:{story['slug']}")
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", href=story_url(base, story))
        _text(entry, f"{{{ATOM}}}updated", story["published"].isoformat())
        _text(entry, f"{{{ATOM}}}published", story["published"].isoformat())
        author = ET.SubElement(entry, f"{{{ATOM}}}author")
        _text(author, f"{{{ATOM}}}name", story["author"])
        _text(entry, f"{{{ATOM}}}summary", story["teaser"]).set("type", "text")
        for tag in story["tags"]:
            ET.SubElement(entry, f"{{{ATOM}}}category", term=tag)
    return feed


def _rdf(base, desk, stories):
    root = ET.Element(f"{{{RDF}}}RDF", {"xmlns": RSS1})
    channel = ET.SubElement(root, "channel", {f"{{{RDF}}}about": feed_url(base, desk)})
    _text(channel, "title", f"The Marrowgate Courier: {desk_title(desk)}")
    _text(channel, "link", f"{base}/")
    _text(channel, "description", f"Latest stories from the {desk_title(desk)}.")
    seq = ET.SubElement(ET.SubElement(channel, "items"), f"{{{RDF}}}Seq")
    for story in stories:
        ET.SubElement(seq, f"{{{RDF}}}li", {f"{{{RDF}}}resource": story_url(base, story)})
    for story in stories:
        item = ET.SubElement(root, "item", {f"{{{RDF}}}about": story_url(base, story)})
        _text(item, "title", story["title"])
        _text(item, "link", story_url(base, story))
        _text(item, "description", story["teaser"])
        _text(item, f"{{{DC}}}date", story["published"].isoformat())
        _text(item, f"{{{DC}}}creator", story["author"])
        for tag in story["tags"]:
            _text(item, f"{{{DC}}}subject", tag)
    return root


def _text(parent, tag, text):
    element = ET.SubElement(parent, tag)
    element.text = text
    return element


def _serialize(root):
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
