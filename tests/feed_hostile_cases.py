"""Feeds with one hostile field each (issue 16, finding 4), built in code, for the tests that serve them.

Each feed holds one good entry ("Kept") carrying the hostile field.
"""
import json
from datetime import timedelta

from django.utils import timezone

from reader.ingestion.feed_fields import EARLIEST

XML = {"Content-Type": "application/rss+xml"}
# Text that does not compress: PostgreSQL compresses an index row before it measures it.
CJK = "".join(chr(0x4E00 + i * 7919 % 20000) for i in range(1000))
EMOJI = "".join(chr(0x1F300 + i * 31 % 80) + chr(0x1F600 + i * 17 % 64) for i in range(500))
JSON = {"Content-Type": "application/feed+json"}


def rss(channel="", item=""):
    return (f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">'
            f'<channel><title>Hostile desk</title>{channel}<item><title>Kept</title><link>http://x.example/1</link>'
            f'<guid>k1</guid><description>Body</description>{item}</item></channel></rss>')


def atom(updated):
    return (f'<feed xmlns="http://www.w3.org/2005/Atom"><title>Hostile desk</title><entry><title>Kept</title>'
            f'<id>k1</id><link href="http://x.example/1"/><updated>{updated}</updated><content>Body</content>'
            f'</entry></feed>')


def jsonfeed(**field):
    item = {"id": "k1", "title": "Kept", "url": "http://x.example/1", "content_text": "Body", **field}
    return json.dumps({"version": "https://jsonfeed.org/version/1.1", "title": "Hostile desk", "items": [item]})


def seen_now(story):
    return story.published > timezone.now() - timedelta(minutes=5)


# name: (body, headers, what the note on the feed says, what the kept story's field must be)
CASES = {
    "ttl superscript two": (rss("<ttl>\u00b2</ttl>"), XML, "<ttl> that is not a number", None),
    "ttl of 5,000 digits": (rss(f"<ttl>{'9' * 5000}</ttl>"), XML, "<ttl> of 5000 digits", None),
    "enclosure http://[x/": (rss(item='<enclosure url="http://[x/" type="audio/mpeg" length="1"/>'), XML,
                             "invalid enclosure URL", lambda s: s.enclosures == []),
    "media:thumbnail http://[x/": (rss(item='<media:thumbnail url="http://[x/"/>'), XML, "invalid thumbnail URL",
                                   lambda s: s.thumbnail == ""),
    "Atom year 0": (atom("0000-01-01T00:00:00Z"), {}, "before 1970", lambda s: s.published == EARLIEST),
    "Atom year 1 at +14:00": (atom("0001-01-01T00:00:00+14:00"), {}, "before 1970", lambda s: s.published == EARLIEST),
    # feedparser rolled these over into dates the feed never gave (2025-01-01, 1 March); a story without a
    # date is dated when it is first seen.
    "Atom date 2024-13-45": (atom("2024-13-45T10:00:00Z"), {}, "day on the calendar", seen_now),
    "RSS dc:date 2024-02-30": (rss(item="<dc:date>2024-02-30T00:00:00Z</dc:date>").replace(
        "<rss ", '<rss xmlns:dc="http://purl.org/dc/elements/1.1/" '), XML, "day on the calendar",
                               seen_now),
    "RSS pubDate in year 0": (rss(item="<pubDate>Sat, 01 Jan 0000 00:00:00 GMT</pubDate>"), XML, "could not be read",
                              seen_now),
    "JSON date 2024-02-30": (jsonfeed(date_published="2024-02-30T00:00:00Z"), JSON, "day on the calendar",
                             seen_now),
    "JSON attachments 5": (jsonfeed(attachments=5), JSON, "attachments that are not a list",
                           lambda s: s.enclosures == []),
    "JSON url http://[x/": (jsonfeed(url="http://[x/"), JSON, "invalid entry link URL", lambda s: s.url == ""),
    "JSON image http://[x/": (jsonfeed(image="http://[x/"), JSON, "invalid image URL", lambda s: s.thumbnail == ""),
    "JSON date 9999-12-31T23:59:59-10:00": (jsonfeed(date_published="9999-12-31T23:59:59-10:00"), JSON,
                                            "date in the future", lambda s: s.published <= timezone.now()),
    "JSON size of 5,000 digits": (jsonfeed(attachments=[{"url": "/a.mp3", "size_in_bytes": 7}])
                                  .replace(": 7}", f": {'9' * 5000}}}"), JSON, "",
                                  lambda s: s.enclosures[0]["url"].endswith("/a.mp3") and s.enclosures[0]["length"] == ""),
    "charset=undefined": (rss(), {"Content-Type": "application/rss+xml; charset=undefined"},
                          "charset 'undefined'", None),
    # Past the HTML parser's depth cap the rest of the content was dropped, text and all.
    "description nested 100,000 deep": (rss().replace("<description>Body</description>", "<description><![CDATA["
                                                      + "<div>" * 100_000 + "Body" + "</div>" * 100_000
                                                      + "<p>Tail text</p>]]></description>"), XML, "",
                                        lambda s: "Tail text" in s.summary_html),
    # The e-mail address was looked for from every position of the name: quadratic, hours for this one.
    "JSON author of 1,000,000 characters": (jsonfeed(authors=[{"name": "a" * 1_000_000}]), JSON, "",
                                            lambda s: s.author == "a" * 500),
    # A reference to no character crashed feedparser's lenient parser, and the whole feed with it.
    "RSS category &#xD800;": (rss(item="<category>a&#xD800;b</category>"), XML, "names no character",
                              lambda s: s.tags == ["a\ufffdb"]),
    "RSS description &#x110000;": (rss().replace("<description>Body", "<description>Body&#x110000;"), XML,
                                   "names no character", lambda s: "Body\ufffd" in s.summary_html),
    "RSS category &#(5,000 digits);": (rss(item=f"<category>a&#{'9' * 5000};b</category>"), XML,
                                       "names no character", lambda s: s.tags == ["a\ufffdb"]),
    # Python's JSON decoder gives up near 1,000 levels, and refused the whole feed for one such field.
    "JSON extension nested 100,000 deep": (jsonfeed(_ext=0).replace('"_ext": 0', '"_ext": ' + "[" * 100_000
                                                                    + "]" * 100_000), JSON, "nested deeper than",
                                           None),
    # Kept as written, a script in every app or page that shows the field as a link.
    "RSS link javascript:": (rss().replace("http://x.example/1", "javascript:alert(1)"), XML,
                             "not http or https (entry link)", lambda s: s.url == ""),
    "JSON image data:": (jsonfeed(image="data:image/svg+xml,<svg onload=alert(1)>"), JSON,
                         "not http or https (image)", lambda s: s.thumbnail == ""),
    # feedparser tries UTF-8 before the byte order mark, and ASCII in UTF-16 decodes as UTF-8 full of NULs.
    "UTF-16 without a declaration": (rss().replace(' encoding="utf-8"', "").encode("utf-16"), XML, "", None),
    "UTF-8 mark, server says UTF-16": (("\ufeff" + rss()).encode("utf-8"),
                                       {"Content-Type": "application/rss+xml; charset=utf-16"}, "", None),
    # Control characters are shown as nothing, yet break every XML document they are written into (OPML export).
    "JSON title and author with controls": (jsonfeed(title="Ke\u0001\u001bpt", authors=[{"name": "Ann\u0007 Lee"}]),
                                            JSON, "", lambda s: s.author == "Ann Lee"),
    "RSS category &#x1B;": (rss(item="<category>a&#x1B;b\ufffe</category>"), XML, "", lambda s: s.tags == ["ab"]),
    # Stored whole in the story's JSON, each of ten enclosures a megabyte.
    "enclosure type of 1,000,000 characters": (rss(item='<enclosure url="/a.mp3" length="1" type="audio/'
                                                   + "x" * 1_000_000 + '"/>'), XML, "",
                                               lambda s: s.enclosures[0]["url"].endswith("/a.mp3")
                                               and len(s.enclosures[0]["type"]) <= 255),
    "encoding=zlib declared": (rss().replace('encoding="utf-8"', 'encoding="zlib_codec"'), XML,
                               "encoding 'zlib_codec'", None),
    # A declaration read in ASCII cannot be in UTF-16, UTF-32 or EBCDIC; expat believed it and refused the feed.
    "encoding=utf-16 declared on UTF-8": (rss(item="<category>Z\u00fcrich</category>").replace(
        'encoding="utf-8"', 'encoding="utf-16"'), XML, "not written in it", lambda s: s.tags == ["Z\u00fcrich"]),
    "encoding=cp037 declared on UTF-8": (rss().replace('encoding="utf-8"', 'encoding="cp037"'), XML,
                                         "encoding 'cp037'", None),
    # 1,000 characters of CJK are 3,000 bytes: past the 2,704 a row of PostgreSQL's unique index on (feed, guid)
    # may take, so the whole feed failed on every fetch.
    "RSS guid of 1,000 CJK characters": (rss().replace("<guid>k1</guid>", f"<guid>{CJK}</guid>"), XML, "",
                                         lambda s: len(s.guid.encode()) <= 2000 and CJK[:500] in s.guid),
    "JSON id of 1,000 emoji": (jsonfeed(id=EMOJI), JSON, "", lambda s: len(s.guid.encode()) <= 2000
                               and EMOJI.startswith(s.guid.partition("#")[0])),
    # A charset that does not read ASCII as ASCII, named for a document whose markup reads in ASCII: EBCDIC refused
    # the feed whole; Python's unicode_escape (no charset of the web) read "C:\\new" as a line break.
    "charset=cp037 on ASCII markup": (rss(), {"Content-Type": "application/rss+xml; charset=cp037"},
                                      "charset 'cp037' named by the server: the document is not written in it", None),
    "charset=unicode_escape": (rss(item="<category>C:\\new \\u0041</category>"),
                               {"Content-Type": "application/rss+xml; charset=unicode_escape"},
                               "charset 'unicode_escape'", lambda s: s.tags == ["C:\\new \\u0041"]),
    # The server's type was believed over the body: JSON parsing of RSS refused the whole feed.
    "RSS served as application/json": (rss(), {"Content-Type": "application/json; charset=utf-8"}, "", None),
    "UTF-16 RSS served as application/feed+json": (rss().replace(' encoding="utf-8"', "").encode("utf-16"),
                                                  {"Content-Type": "application/feed+json"}, "", None),
    # The format is "json" and the version's last part, stored in 20 characters: PostgreSQL refused the feed.
    "JSON version of 5,000 digits": (jsonfeed().replace("version/1.1", "version/" + "9" * 5000), JSON, "",
                                     lambda s: len(s.feed.format) <= 20),
}
