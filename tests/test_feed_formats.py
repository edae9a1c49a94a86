"""Every feed format reads into the same stories: RSS 0.9x/1.0/2.0, Atom, JSON Feed; media kept, links absolute."""
import json

import pytest

from reader.ingestion.feed_fields import NotAFeed
from reader.ingestion.parsing import parse

BASE = "http://news.example/feeds/main.xml"

RSS091 = """<?xml version="1.0"?><rss version="0.91"><channel><title>Old desk</title><link>http://news.example/</link>
<description>d</description><language>en</language>
<item><title>Ninety-one</title><link>http://news.example/91</link><description>Old &lt;b&gt;style&lt;/b&gt;</description></item>
</channel></rss>"""

RSS10 = """<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
 xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="http://news.example/"><title>RDF desk</title><link>http://news.example/</link><description>d</description></channel>
<item rdf:about="http://news.example/r1"><title>RDF one</title><link>http://news.example/r1</link>
<description>First RDF item</description><dc:creator>Ada</dc:creator><dc:date>2024-03-01T10:00:00Z</dc:date></item>
</rdf:RDF>"""

RSS20 = """<?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
<title>Desk &amp; Co</title><link>/</link><ttl>90</ttl>
<item><title>Pod &amp; cast</title><link>/episodes/1</link><guid isPermaLink="false">ep-1</guid>
<description>&lt;p&gt;Listen &lt;a href="../notes/1"&gt;notes&lt;/a&gt; &lt;img src="img/cover.jpg"&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;/p&gt;</description>
<pubDate>Tue, 05 Mar 2024 08:30:00 GMT</pubDate><category>audio</category>
<enclosure url="/media/ep1.mp3" type="audio/mpeg" length="12345"/>
<media:thumbnail url="/media/ep1-thumb.jpg"/></item></channel></rss>"""

ATOM = """<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://news.example/blog/">
<title type="html">Atom &lt;i&gt;desk&lt;/i&gt;</title><link href="http://news.example/blog/"/><id>urn:x</id><updated>2024-03-02T00:00:00Z</updated>
<entry><title>Atom one</title><link rel="alternate" href="posts/one"/><id>urn:one</id><updated>2024-03-02T00:00:00Z</updated>
<author><name>Grace</name></author><content type="html">&lt;p&gt;Body with &lt;a href="/about"&gt;a link&lt;/a&gt;&lt;/p&gt;</content>
<link rel="enclosure" href="files/one.pdf" type="application/pdf" length="99"/></entry></feed>"""

JSONFEED = {
    "version": "https://jsonfeed.org/version/1.1", "title": "JSON desk", "home_page_url": "http://news.example/",
    "items": [
        {"id": "j1", "url": "/j/1", "title": "JSON one", "content_html": "<p>See <a href='/x'>x</a></p><script>x()</script>",
         "date_published": "2024-03-03T12:00:00+01:00", "authors": [{"name": "Lin"}], "tags": ["data"],
         "image": "/img/j1.png", "attachments": [{"url": "/a/j1.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 7}]},
        {"id": 2, "url": "http://news.example/j/2", "content_text": "Plain one.\n\nPlain two <not a tag>",
         "author": {"name": "Old style"}},
        "not an item",
    ],
}


def test_rss_091():
    feed = parse(RSS091.encode(), BASE)
    assert feed.format == "rss091u" and feed.title == "Old desk"
    assert feed.entries[0].guid == "http://news.example/91"  # no guid: the link stands in
    assert feed.entries[0].content_html == "Old <b>style</b>"


def test_rss_10():
    feed = parse(RSS10.encode(), BASE)
    entry = feed.entries[0]
    assert feed.format == "rss10"
    assert (entry.title, entry.author, entry.url) == ("RDF one", "Ada", "http://news.example/r1")
    assert entry.published.isoformat() == "2024-03-01T10:00:00+00:00"


def test_rss_20_keeps_media_resolves_links_and_sanitizes():
    feed = parse(RSS20.encode(), BASE)
    entry = feed.entries[0]
    assert feed.title == "Desk & Co" and feed.ttl_minutes == 90 and feed.site_url == "http://news.example/"
    assert entry.title == "Pod & cast" and entry.guid == "ep-1" and entry.tags == ["audio"]
    assert entry.url == "http://news.example/episodes/1"
    assert entry.enclosures == [{"url": "http://news.example/media/ep1.mp3", "type": "audio/mpeg", "length": "12345"}]
    assert entry.thumbnail == "http://news.example/media/ep1-thumb.jpg"
    assert 'href="http://news.example/notes/1"' in entry.content_html
    assert 'src="http://news.example/feeds/img/cover.jpg"' in entry.content_html  # RSS content: the feed is the base
    assert "script" not in entry.content_html and "alert" not in entry.content_html


def test_atom_with_xml_base():
    feed = parse(ATOM.encode(), BASE)
    entry = feed.entries[0]
    assert feed.format == "atom10" and feed.title == "Atom desk"
    assert entry.url == "http://news.example/blog/posts/one" and entry.author == "Grace"
    assert 'href="http://news.example/about"' in entry.content_html
    assert entry.enclosures[0]["url"] == "http://news.example/blog/files/one.pdf"


def test_json_feed():
    feed = parse(json.dumps(JSONFEED).encode(), BASE, "application/feed+json")
    first, second = feed.entries
    assert feed.format == "json1.1" and feed.title == "JSON desk" and len(feed.entries) == 2
    assert first.url == "http://news.example/j/1" and first.author == "Lin" and first.tags == ["data"]
    assert first.published.isoformat() == "2024-03-03T12:00:00+01:00"
    assert first.thumbnail == "http://news.example/img/j1.png"
    assert first.enclosures == [{"url": "http://news.example/a/j1.mp3", "type": "audio/mpeg", "length": "7"}]
    assert 'href="http://news.example/x"' in first.content_html and "script" not in first.content_html
    assert second.guid == "2" and second.author == "Old style"
    assert second.content_html == "<p>Plain one.</p><p>Plain two &lt;not a tag&gt;</p>"


def test_json_feed_detected_without_content_type():
    assert parse(json.dumps(JSONFEED).encode(), BASE).title == "JSON desk"


@pytest.mark.parametrize("body, reason", [
    (b'{"title": "no version"}', "jsonfeed.org version"),
    (b'{"version": "https://jsonfeed.org/version/1.1", "items": 3}', "items list"),
    (b'{"version": ', "invalid JSON"),
    # Read past its 64th level (as a feed's deep extension field is), it is an array, not a feed.
    (b"[" * 100_000 + b"]" * 100_000, "jsonfeed.org version"),
    (b"[" * 100_000, "invalid JSON"),
], ids=["no version", "items not a list", "cut short", "nested 100,000 deep", "never closed"])
def test_bad_json_feeds_say_why(body, reason):
    with pytest.raises(NotAFeed, match=reason):
        parse(body, BASE, "application/json")


def test_entries_are_capped_and_the_total_kept():
    items = "".join(f"<item><title>n{i}</title><guid>g{i}</guid></item>" for i in range(50))
    feed = parse(f'<rss version="2.0"><channel><title>t</title>{items}</channel></rss>'.encode(), BASE, max_entries=10)
    assert len(feed.entries) == 10 and feed.total_entries == 50
    assert feed.entries[0].guid.endswith("/g0")
