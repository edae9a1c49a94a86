"""The offline demo news site: its stories, feeds, pages and HTTP behaviour.

A real server is started on a free loopback port; every request goes to 127.0.0.1.
"""
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections import Counter
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

import feedparser
import lxml.html
import pytest

from reader.demo.article_html import block_text
from reader.demo.feed_documents import FEED_FORMATS
from reader.demo.site import DESKS, load_stories, make_server

NOW = datetime(2026, 5, 4, 9, 30, tzinfo=timezone.utc)
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site():
    server = make_server("127.0.0.1", 0, now=NOW)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def fetch(url, headers=None, method="GET"):
    """Return (status, headers, body) without raising on 3xx/4xx answers."""
    assert url.startswith("http://127.0.0.1:"), url
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def stories_of(desk, stories):
    return [s for s in stories if s["desk"] == desk]


def page_tree(site, slug):
    status, headers, body = fetch(f"{site.base_url}/stories/{slug}.html")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    return lxml.html.fromstring(body)


# --- the stories themselves -------------------------------------------------------


def test_every_desk_has_at_least_nine_stories():
    counts = Counter(s["desk"] for s in load_stories(NOW))
    assert set(counts) == {slug for slug, _ in DESKS}
    assert min(counts.values()) >= 9


def test_every_story_text_is_unique():
    stories = load_stories(NOW)
    paragraphs = [p for s in stories for p in s["paragraphs"]]
    assert len(set(paragraphs)) == len(paragraphs)
    assert len({s["slug"] for s in stories}) == len(stories)
    assert len({s["title"] for s in stories}) == len(stories)
    assert len({s["teaser"] for s in stories}) == len(stories)


def test_stories_have_the_promised_shape():
    for story in load_stories(NOW):
        words = sum(len(block_text(b).split()) for b in story["body"])
        assert 100 <= words <= 900, (story["slug"], words)
        assert 4 <= len(story["paragraphs"]) <= 8, story["slug"]
        assert 2 <= len(story["tags"]) <= 4, story["slug"]
        assert story["author"] and story["title"] and story["teaser"]
        assert story["teaser"] not in story["paragraphs"]


def test_bodies_use_every_kind_of_block():
    kinds = Counter(next(iter(b)) for s in load_stories(NOW) for b in s["body"] if isinstance(b, dict))
    assert {"h2", "ul", "quote", "figure", "table"} <= set(kinds)


def test_dates_are_shifted_so_the_newest_story_is_from_the_last_hour():
    stories = load_stories(NOW)
    newest, oldest = stories[0]["published"], stories[-1]["published"]
    assert NOW - timedelta(hours=1) < newest <= NOW
    assert timedelta(days=7) <= newest - oldest <= timedelta(days=12)
    assert [s["published"] for s in stories] == sorted((s["published"] for s in stories), reverse=True)


# --- feeds --------------------------------------------------------------------------


def test_home_page_advertises_every_desk_feed(site):
    status, _, body = fetch(f"{site.base_url}/")
    assert status == 200
    tree = lxml.html.fromstring(body)
    hrefs = tree.xpath('//link[@rel="alternate"]/@href')
    assert hrefs == [f"{site.base_url}/feeds/{slug}.xml" for slug, _ in DESKS]
    for href in hrefs:
        assert fetch(href)[0] == 200


def test_the_icon_browsers_ask_for_is_no_content_not_a_404(site):
    """Every browser asks a site for /favicon.ico; the 404 showed as an error in its console."""
    assert fetch(f"{site.base_url}/favicon.ico")[0] == 204


@pytest.mark.parametrize("desk", [slug for slug, _ in DESKS])
def test_feed_parses_and_carries_only_the_teaser(site, desk):
    status, headers, body = fetch(f"{site.base_url}/feeds/{desk}.xml")
    assert status == 200 and "xml" in headers["Content-Type"]
    parsed = feedparser.parse(body)
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == {"rss2": "rss20", "atom": "atom10", "rdf": "rss10"}[FEED_FORMATS[desk]]
    expected = stories_of(desk, site.stories)
    assert [e.link for e in parsed.entries] == [
        f"{site.base_url}/stories/{s['slug']}.html" for s in expected
    ]
    for entry, story in zip(parsed.entries, expected):
        assert entry.id and entry.author == story["author"]
        assert entry.summary == story["teaser"]
        assert [t.term for t in entry.tags] == story["tags"]
        stamp = entry.get("published_parsed") or entry.updated_parsed
        assert datetime(*stamp[:6], tzinfo=timezone.utc) == story["published"]
    text = body.decode()
    assert not any(p[:60] in text for s in expected for p in s["paragraphs"])


def test_feeds_use_three_different_syntaxes(site):
    versions = {feedparser.parse(fetch(f"{site.base_url}/feeds/{d}.xml")[2]).version for d, _ in DESKS}
    assert versions == {"rss20", "atom10", "rss10"}


def test_opml_lists_every_desk_feed(site):
    status, headers, body = fetch(f"{site.base_url}/opml")
    assert status == 200 and "opml" in headers["Content-Type"]
    urls = lxml.etree.fromstring(body).xpath("//outline/@xmlUrl")
    assert urls == [f"{site.base_url}/feeds/{slug}.xml" for slug, _ in DESKS]


# --- HTTP behaviour -----------------------------------------------------------------


def test_conditional_requests_get_304(site):
    url = f"{site.base_url}/feeds/science.xml"
    status, headers, body = fetch(url)
    etag, last_modified = headers["ETag"], headers["Last-Modified"]
    assert status == 200 and etag and last_modified and body

    assert fetch(url, {"If-None-Match": etag})[0] == 304
    status, headers, body = fetch(url, {"If-None-Match": f'"stale", {etag}'})
    assert status == 304 and body == b"" and headers["ETag"] == etag
    assert fetch(url, {"If-Modified-Since": last_modified})[0] == 304
    assert fetch(url, {"If-None-Match": '"stale"'})[0] == 200
    # An ETag that no longer matches wins over a date that still would.
    assert fetch(url, {"If-None-Match": '"stale"', "If-Modified-Since": last_modified})[0] == 200
    long_before = format_datetime(site.stories[0]["published"] - timedelta(days=30), usegmt=True)
    assert fetch(url, {"If-Modified-Since": long_before})[0] == 200
    assert fetch(url, {"If-Modified-Since": "not a date"})[0] == 200


def test_last_modified_is_the_newest_item(site):
    newest = stories_of("city", site.stories)[0]["published"]
    headers = fetch(f"{site.base_url}/feeds/city.xml")[1]
    assert headers["Last-Modified"] == format_datetime(newest, usegmt=True)


def test_head_sends_headers_without_body(site):
    status, headers, body = fetch(f"{site.base_url}/feeds/business.xml", method="HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 1000


def test_links_are_built_from_the_host_header(site):
    port = site.server_address[1]
    body = fetch(f"{site.base_url}/feeds/sports.xml", {"Host": f"localhost:{port}"})[2].decode()
    assert f"http://localhost:{port}/stories/" in body and "127.0.0.1" not in body
    body = fetch(f"{site.base_url}/", {"Host": 'evil"><script>'})[2].decode()
    assert "<script>" not in body and f"{site.base_url}/feeds/" in body


@pytest.mark.parametrize("path", ["/nope", "/feeds/weather.xml", "/stories/unknown.html",
                                  "/stories/../site.py", "/media/central-bank-holds-rates-0.svg",
                                  "/info/secret.html"])
def test_unknown_paths_get_404(site, path):
    status, headers, body = fetch(f"{site.base_url}{path}")
    assert status == 404 and b"Page not found" in body and "ETag" not in headers


# --- story pages --------------------------------------------------------------------


@pytest.mark.parametrize("desk", [slug for slug, _ in DESKS])
def test_page_holds_the_whole_article(site, desk):
    story = stories_of(desk, site.stories)[0]
    tree = page_tree(site, story["slug"])
    assert tree.findtext(".//h1") == story["title"]
    paragraphs = [p.text_content() for p in tree.iter("p")]
    for paragraph in story["paragraphs"]:
        assert paragraph in paragraphs
    assert tree.xpath("//time/@datetime") == [story["published"].isoformat()]
    assert story["author"] in tree.text_content()


@pytest.mark.parametrize("desk", [slug for slug, _ in DESKS])
def test_page_is_surrounded_by_clutter(site, desk):
    story = stories_of(desk, site.stories)[0]
    tree = page_tree(site, story["slug"])
    text = tree.text_content()
    assert len(tree.xpath("//header//nav//a")) >= 10
    assert len(tree.xpath("//footer//a")) >= 12
    assert tree.xpath('//nav[@aria-label="Breadcrumb"]//a')
    assert "Share this story" in text and "Advertisement" in text
    assert len(tree.xpath('//*[h3="Most read"]//a')) == 5
    assert len(tree.xpath('//*[h3="Related stories"]//a')) >= 3
    assert tree.xpath('//form//input[@type="email"]')
    assert 2 <= len(tree.xpath('//*[@id="comments"]//li')) <= 5
    assert tree.xpath('//*[@role="dialog"]//button')


def test_layouts_differ_between_desks(site):
    def classes(desk):
        tree = page_tree(site, stories_of(desk, site.stories)[0]["slug"])
        return frozenset(c for value in tree.xpath("//body//@class") for c in value.split())

    layouts = [classes(slug) for slug, _ in DESKS]
    assert len(set(layouts)) == len(DESKS)
    for a in layouts:
        for b in layouts:
            assert a == b or len(a ^ b) >= 5


@pytest.mark.parametrize("desk", ["city", "sports", "business"])
def test_some_clutter_sits_between_article_paragraphs(site, desk):
    story = stories_of(desk, site.stories)[0]
    body = page_tree(site, story["slug"]).xpath("//p[. = $p]/..", p=story["paragraphs"][0])[0]
    children = list(body)
    box = next(i for i, child in enumerate(children) if child.tag in {"section", "form", "div"})
    assert any(child.tag == "p" for child in children[:box])
    assert any(child.tag == "p" for child in children[box + 1:])
    assert not any(p in children[box].text_content() for p in story["paragraphs"])


def test_rich_blocks_are_rendered_as_semantic_markup(site):
    rendered = Counter()
    for story in site.stories:
        kinds = {next(iter(b)) for b in story["body"] if isinstance(b, dict)}
        if not kinds:
            continue
        tree = page_tree(site, story["slug"])
        for kind, xpath in {"h2": "//h2", "ul": "//p/following-sibling::ul/li",
                            "quote": "//blockquote/p", "figure": "//figure/figcaption",
                            "table": "//table/tbody/tr/td"}.items():
            if kind in kinds:
                assert tree.xpath(xpath), (story["slug"], kind)
                rendered[kind] += 1
    assert set(rendered) == {"h2", "ul", "quote", "figure", "table"}


def test_every_link_on_a_page_is_absolute_and_served(site):
    story = next(s for s in site.stories if any("figure" in b for b in s["body"] if isinstance(b, dict)))
    tree = page_tree(site, story["slug"])
    urls = {u.split("#")[0].split("?")[0] for u in tree.xpath("//@href | //@src | //form/@action")}
    assert urls and all(u.startswith(f"{site.base_url}/") for u in urls)
    for url in sorted(urls):
        assert fetch(url)[0] == 200, url


def test_runs_as_a_module():
    process = subprocess.Popen([sys.executable, "-m", "reader.demo.site", "--port", "0"],
                               cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline()
        base = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
        status, _, body = fetch(f"{base}/opml")
        assert status == 200 and b"<opml" in body
    finally:
        process.terminate()
        process.wait(timeout=10)
