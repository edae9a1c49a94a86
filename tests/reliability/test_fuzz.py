"""Fuzzing with hypothesis: feed parsing and storing, OPML import, and the JSON API (which runs every
extraction method on the same page with "compare"). No uncaught exception, no 5xx, in N examples each."""
import json
import os
from urllib.parse import quote
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extraction.fetch import FetchError, FetchPolicy
from reader.ingestion import feeds, fetching, opml
from reader.models import Entry, Feed, Story, Subscription
from reader.ingestion.feed_fields import NotAFeed
from reader.ingestion.parsing import parse
from test_extraction_fuzz import html_soup

from .figures import record

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


any_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=60) | st.sampled_from(
    ["\x00", "\ud800", "&amp;", "]]>", "<script>alert(1)</script>", "javascript:alert(1)", "http://", "a" * 3000])
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | any_text,
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
                           max_leaves=12)


def xml_escape_some(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;") if len(value) % 2 else value


@st.composite
def rss_documents(draw):
    items = "".join(
        f"<item><title>{xml_escape_some(draw(any_text))}</title><link>{xml_escape_some(draw(any_text))}</link>"
        f"<guid>{xml_escape_some(draw(any_text))}</guid><pubDate>{xml_escape_some(draw(any_text))}</pubDate>"
        f"<description><![CDATA[{draw(html_soup)}]]></description>"
        f"<enclosure url=\"{xml_escape_some(draw(any_text)).replace(chr(34), '')}\" type=\"image/png\"/></item>"
        for _ in range(draw(st.integers(0, 4))))
    document = f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>{draw(any_text)}</title>' \
               f"<ttl>{draw(any_text)}</ttl>{items}</channel></rss>"
    return document.encode("utf-8", "surrogatepass")


@st.composite
def json_feeds(draw):
    items = draw(st.lists(st.fixed_dictionaries({}, optional={
        "id": json_values, "url": json_values, "title": json_values, "content_html": html_soup | json_values,
        "date_published": json_values, "authors": json_values, "tags": json_values, "image": json_values}), max_size=4))
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": draw(json_values), "items": items}
    return json.dumps(feed).encode()


cursors = st.builds(lambda score, entry_id: f"{score!r}_{entry_id}", st.floats(), st.integers())
feed_bytes = st.one_of(st.binary(max_size=2000), rss_documents(), json_feeds())


def test_feed_parse_and_store(django_db_blocker):
    counts = Counter()
    feed = Feed.objects.create(url="http://127.0.0.1/fuzz.xml")
    Subscription.objects.create(user=User.objects.create_user("fuzz"), feed=feed)

    @FUZZ
    @given(data=feed_bytes)
    def run(data):
        counts["examples"] += 1
        try:
            parsed = parse(data, feed.url, "", 500)
        except NotAFeed:
            counts["not a feed"] += 1
            return
        feeds.store(feed, parsed)
        counts["stored"] += 1

    run()
    record("fuzz_feeds", "Fuzz: feed parsing and storing (bytes, RSS, JSON Feed)", {
        "examples": counts["examples"], "refused as not a feed": counts["not a feed"],
        "stored": counts["stored"], "uncaught exceptions": 0,
    }, f"{EXAMPLES} examples, no uncaught exception")
    assert counts["examples"] >= EXAMPLES and counts["stored"] > 0
    assert Entry.objects.filter(story__feed=feed).count() == Story.objects.filter(feed=feed).count()


def opml_documents():
    outline = st.builds(lambda t, u, f: f'<outline text="{t}" type="rss" xmlUrl="{u}">{f}</outline>',
                        any_text.map(lambda v: v.replace('"', "").replace("<", "").replace("&", "")),
                        any_text.map(lambda v: v.replace('"', "").replace("<", "").replace("&", ""))
                        | st.just("http://example.com/feed.xml"), st.sampled_from(["", "<outline/>"]))
    documents = st.lists(outline, max_size=6).map(
        lambda items: f'<opml version="2.0"><body>{"".join(items)}</body></opml>'.encode("utf-8", "surrogatepass"))
    return st.one_of(st.binary(max_size=1000), documents)


def test_opml_import():
    counts = Counter()
    user = User.objects.create_user("opml-fuzz")

    @FUZZ
    @given(data=opml_documents())
    def run(data):
        counts["examples"] += 1
        try:
            opml.import_opml(user, data)
            counts["imported"] += 1
        except opml.OpmlError:
            counts["refused"] += 1

    run()
    record("fuzz_opml", "Fuzz: OPML import", {"examples": counts["examples"], "imported": counts["imported"],
                                              "refused with a message": counts["refused"], "uncaught exceptions": 0},
           f"{EXAMPLES} examples, no uncaught exception")
    assert counts["examples"] >= EXAMPLES and counts["imported"] > 0


def offline_policy():
    def nowhere(host, port):
        raise FetchError(FetchError.CONNECTION, f"{host}: no network in this test")
    return FetchPolicy(resolver=nowhere)


def unreachable(response) -> bool:
    """The extract API's documented answer when a fuzzed text is a web address (say "a.bc", read as
    https://a.bc) and offline_policy refuses to reach it: the site's failure, not the server's."""
    return response.status_code == 502 and response.json()["error"]["code"] == FetchError.CONNECTION


def test_json_api(monkeypatch, settings):
    settings.EXTRACT_RATE_LIMIT = 10 ** 9
    monkeypatch.setattr(fetching, "policy", offline_policy)  # a fuzzed URL must never reach DNS
    user = User.objects.create_user("api-fuzz")
    feed = Feed.objects.create(url="http://127.0.0.1/api.xml")
    story = Story.objects.create(feed=feed, guid="g", url="http://127.0.0.1/1", title="t")
    Entry.objects.create(user=user, story=story)
    client = Client()
    client.force_login(user)
    statuses = Counter()

    @FUZZ
    @given(body=st.fixed_dictionaries({}, optional={"url": json_values, "html": html_soup | json_values,
                                                    "method": json_values | st.sampled_from(["clump", "best", "mss"]),
                                                    "compare": json_values}) | json_values,
           raw=st.binary(max_size=200), query=any_text | cursors, which=st.sampled_from(["rating", "read", "save"]))
    def run(body, raw, query, which):
        query = quote(query.encode("utf-8", "surrogatepass"))  # as a browser would send any bytes
        responses = [
            client.post("/api/extract", json.dumps(body), content_type="application/json"),
            client.post("/api/extract", raw, content_type="application/json"),
            client.post(f"/api/stories/{story.id}/{which}", json.dumps(body), content_type="application/json"),
            client.get(f"/api/stories?filter={query}&cursor={query}"),
            client.get(f"/api/progress?feeds={query}"),
            client.get(f"/?cursor={query}&filter={query}"),
        ]
        for response in responses:
            statuses[response.status_code] += 1
            assert response.status_code < 500 or unreachable(response), response.content[:500]

    run()
    record("fuzz_api", "Fuzz: JSON API (extract incl. compare = every method, stories, rating/read/save, "
                       "progress, feed page)", {"examples": EXAMPLES, "requests": sum(statuses.values()),
                                                "5xx": sum(n for s, n in statuses.items() if s >= 500),
                                                "statuses": dict(sorted(statuses.items()))},
           f"{EXAMPLES} examples, no 5xx")
