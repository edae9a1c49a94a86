"""Metadata read from the whole page: meta tags and JSON-LD first, then markup."""
import json

from extraction.document import parse
from extraction.metadata import read_metadata


def test_open_graph_and_article_tags():
    doc = parse("""<html lang="de-DE"><head><title>Site | Story</title>
        <meta property="og:title" content="The Story">
        <meta property="og:image" content="/img/lead.jpg">
        <meta name="author" content="Ada Lovelace">
        <meta property="article:published_time" content="2019-11-19T08:00:00Z">
        </head><body><p>x</p></body></html>""")
    meta = read_metadata(doc)
    assert (meta.title, meta.author, meta.published, meta.lead_image, meta.language) == (
        "The Story", "Ada Lovelace", "2019-11-19T08:00:00+00:00", "/img/lead.jpg", "de-DE")


def test_json_ld_article():
    ld = {"@context": "https://schema.org", "@graph": [{"@type": "NewsArticle", "headline": "H",
          "author": [{"@type": "Person", "name": "Grace Hopper"}], "datePublished": "2020-01-02",
          "image": {"url": "https://e.org/i.png"}}]}
    doc = parse(f"<html><head><script type='application/ld+json'>{json.dumps(ld)}</script>"
                "<title>T</title></head><body><h1>Headline</h1></body></html>")
    meta = read_metadata(doc)
    assert meta.author == "Grace Hopper" and meta.published == "2020-01-02"
    assert meta.lead_image == "https://e.org/i.png"
    assert meta.title == "Headline"


def test_broken_json_ld_is_ignored_and_markup_used():
    doc = parse("<html><head><script type='application/ld+json'>{broken</script></head>"
                "<body><a rel='author' href='/me'>Jo  Writer</a><time datetime='2018-05-01'>May 1</time></body></html>")
    meta = read_metadata(doc)
    assert meta.author == "Jo Writer" and meta.published == "2018-05-01"


def test_nothing_known_is_none():
    meta = read_metadata(parse("<p>just text</p>"))
    assert meta.author is None and meta.published is None and meta.lead_image is None


def test_published_is_iso_8601_or_none():
    def published(content: str) -> str | None:
        page = f"<html><head><meta property='article:published_time' content='{content}'></head><body></body></html>"
        return read_metadata(parse(page)).published

    assert published("2024-01-05") == "2024-01-05"
    assert published("2024-01-05 10:00") == "2024-01-05T10:00:00"
    assert published("Fri, 05 Jan 2024 10:00:00 GMT") == "2024-01-05T10:00:00+00:00"
    # Hostile or garbled statements are no date at all.
    for garbled in ("\u00b2\u2070\u00b2\u2074-01-01", "9" * 5000, "0000-01-01", "2024-13-45", "2024-01-01T00:00+99:99",
                    "soon", "-1"):
        assert published(garbled) is None, garbled


def test_a_garbled_date_gives_way_to_the_next_one_stated():
    doc = parse("<html><head><meta property='article:published_time' content='{{date}}'></head>"
                "<body><time datetime='2021-03-04T05:06:07Z'>4 March</time></body></html>")
    assert read_metadata(doc).published == "2021-03-04T05:06:07+00:00"
