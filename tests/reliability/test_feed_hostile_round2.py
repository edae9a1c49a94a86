"""Issue 16, second round of hostile feeds: every class through the real pipeline, counted for the docs.

Each hostile feed is served on loopback and goes through feeds.refresh (what the fetch task runs) and through
the subscribe form; the figures say how many entries were kept, how many feeds carry a note or an error a
user can read, and how many web answers were 500s. The table printed at the end is the one in
docs/reliability.md, "Hostile feeds (round 2)".
"""
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from feed_hostile_cases import CASES, XML, rss
from reader.ingestion import feeds, opml
from reader.models import Feed, Story, Subscription
from reader.ingestion.parsing import parse
from ui_factories import record_sends
from reader.ingestion.subscribe import subscribe

from . import figures

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]
ROWS = []


def row(kind: str, attempts: int, outcome: str) -> None:
    ROWS.append((kind, attempts, outcome))


@pytest.fixture
def web(monkeypatch):
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("round2"))
    return client


def test_hostile_fields(server, allow_loopback, web):
    kept = noted = errors = crashes = 0
    for n, (body, headers, note, _) in enumerate(CASES.values()):
        url = server.add(f"/f{n}", body, headers=headers)
        crashes += web.post(reverse("subscriptions"), {"url": url}).status_code >= 500
        feed = Feed.objects.get(url=url)
        feeds.refresh(feed)
        feed.refresh_from_db()
        kept += Story.objects.filter(feed=feed, title="Kept").count()
        noted += bool(note) and note in feed.notice
        errors += bool(feed.last_error)
    assert (kept, noted, errors, crashes) == (len(CASES), sum(bool(c[2]) for c in CASES.values()), 0, 0)
    row("one hostile field per feed (ttl ², 5,000-digit ttl and size, `http://[x/` enclosure, thumbnail, link "
        "and image, year 0 and 9999 dates, `attachments: 5`, `charset=undefined`, `encoding=zlib_codec`, content nested 100,000 deep, a 1,000,000-character author, `&#xD800;`, `&#x110000;` and a 5,000-digit "
        "character reference, a JSON extension nested 100,000 deep, a `javascript:` link and a `data:` image, "
        "UTF-16 without a declaration, a UTF-8 byte order mark the server calls UTF-16, control characters in a "
        "title, an author and a category, a 1,000,000-character enclosure type)",
        len(CASES), f"entries kept {kept}/{len(CASES)}; feeds noting the field {noted}; fetch errors {errors}; "
                    f"subscribe-form 500s {crashes}")


@pytest.mark.parametrize("header, values, status", [
    ("Cache-Control", ["max-age=\u00b2", "max-age=" + "9" * 5000], 200),
    ("Retry-After", ["\u00b2", "9" * 5000, "Fri, 31 Dec 99999999999 23:59:59 GMT"], 503),
])
def test_hostile_headers(server, allow_loopback, header, values, status):
    scheduled = 0
    for n, value in enumerate(values):
        feed = Feed.objects.create(url=server.add(f"/h{n}", rss(), status=status, headers={**XML, header: value}))
        feeds.refresh(feed)
        feed.refresh_from_db()
        scheduled += feed.last_fetched_at is not None and feed.next_fetch_at > feed.last_fetched_at
    assert scheduled == len(values)
    row(f"`{header}` of ² or 5,000 digits" + (" on a 503" if status == 503 else ""), len(values),
        f"feeds fetched and scheduled {scheduled}/{len(values)}" + (", error recorded" if status == 503 else ""))


def items(specs):
    return ('<rss version="2.0"><channel><title>Dedupe</title>' + "".join(
        f"<item><title>{t}</title><link>{link}</link>{f'<guid>{g}</guid>' if g else ''}</item>" for t, link, g in specs)
        + "</channel></rss>")


DEDUPE = {
    "podcast episodes, distinct guids, one show-page link": [(f"Ep {n}", "http://show.example/", f"e{n}")
                                                            for n in range(10)],
    "live-blog updates at `#update-N`": [(f"Up {n}", f"http://news.example/live#update-{n}", f"u{n}") for n in range(10)],
    "one guid, distinct links": [(f"Post {n}", f"http://blog.example/{n}", "same") for n in range(10)],
}


@pytest.mark.parametrize("kind", DEDUPE)
def test_dedupe_keeps_distinct_stories(server, allow_loopback, kind):
    feed = Feed.objects.create(url=server.add("/d", items(DEDUPE[kind])))
    feeds.refresh(feed)
    again = feeds.refresh(feed)
    stored = Story.objects.filter(feed=feed).count()
    assert stored == 10 and again.new_story_ids == []
    row(kind, 10, f"stories kept {stored}/10; fetched again: {len(again.new_story_ids)} new")


@pytest.mark.parametrize("depth", [3_000, 100_000])
def test_deep_opml(monkeypatch, depth):
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
    data = (b'<opml version="2.0"><body>' + b'<outline text="f">' * depth
            + b'<outline type="rss" text="Deep" xmlUrl="http://deep.example/feed"/>' + b"</outline>" * depth
            + b"</body></opml>")
    report = opml.import_opml(User.objects.create_user(f"deep{depth}"), data)
    assert report.subscribed == 1
    row(f"OPML nested {depth:,} deep", 1, f"feeds imported {report.subscribed}/1, no RecursionError")


def test_opml_title_poisoning(server, allow_loopback, monkeypatch):
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
    url = server.add("/t", rss())
    poison = "Your bank: log in again at evil.example"
    opml.import_opml(User.objects.create_user("mallory"), (
        f'<opml version="2.0"><body><outline type="rss" text="{poison}" xmlUrl="{url}"/></body></opml>').encode())
    victim = User.objects.create_user("victim")
    feed, _, _ = subscribe(victim, url)
    feeds.refresh(feed)
    seen = Subscription.objects.get(user=victim).name
    assert seen == "Hostile desk"
    row("OPML import naming a shared feed", 1, f"other subscribers see the feed's own title ({seen!r}); "
                                               f"the importer keeps their label")


def test_large_feed_is_cut_before_parsing():
    item = "<p>" + " ".join(f"word{n} <b>bold</b> <a href='/x{n}'>link</a>" for n in range(60)) + "</p>"
    body = ('<rss version="2.0"><channel><title>Big</title>' + "".join(
        f"<item><guid>{i}</guid><title>Item {i}</title><description><![CDATA[{item}]]></description></item>"
        for i in range(3_000)) + "</channel></rss>").encode()
    start = time.perf_counter()
    parsed = parse(body, "http://big.example/", max_entries=500)
    seconds = time.perf_counter() - start
    assert (len(parsed.entries), parsed.total_entries) == (500, 3_000)
    row(f"3,000 items of 2.7 KB ({len(body) / 1e6:.1f} MB)", 1,
        f"entries read {len(parsed.entries)} of {parsed.total_entries}; parse {seconds:.1f} s")


def test_zz_report():
    """Runs last (file order): records the rows and prints them as the docs' table."""
    assert ROWS
    figures.record("hostile_feeds_round2", "Hostile feeds (round 2)",
                   {kind: outcome for kind, _, outcome in ROWS}, "no crash, no lost story, every problem noted")
    print("\n| Class | Attempts | Outcome |\n|---|---|---|")
    for kind, attempts, outcome in ROWS:
        print(f"| {kind} | {attempts} | {outcome} |")
