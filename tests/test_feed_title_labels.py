"""Issue 16 finding 12 (feed title poisoning), the OPML part of finding 7, and issue 19 bug 12 (OPML type).

Feeds are shared: a title in one user's OPML file is that user's own label, and the feed's shared title comes
from the feed itself. Before the fix, the first importer named the feed for everyone, for good.
"""
import pytest
from defusedxml.ElementTree import fromstring
from django.contrib.auth.models import User
from django.urls import reverse

from reader.ingestion import feeds
from reader.web import stream
from reader.models import Feed, Subscription
from reader.ingestion.opml import export_opml, import_opml
from ui_factories import record_sends
from reader.ingestion.subscribe import subscribe

pytestmark = pytest.mark.django_db
POISON = "Your bank: log in again at evil.example"
RSS = ('<rss version="2.0"><channel><title>Real desk</title><item><title>Story</title>'
       '<link>http://x.example/1</link><guid>s1</guid></item></channel></rss>')
ATOM = ('<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom desk</title><entry><title>Story</title>'
        '<id>a1</id><link href="http://x.example/a"/></entry></feed>')


def opml(*outlines):
    body = "".join(f'<outline type="rss" text="{title}" xmlUrl="{url}"/>' for url, title in outlines)
    return f'<?xml version="1.0"?><opml version="2.0"><body>{body}</body></opml>'.encode()


@pytest.fixture(autouse=True)
def no_queue(monkeypatch):
    record_sends(monkeypatch, "reader.tasks.fetch_feed")


@pytest.fixture
def mallory():
    return User.objects.create_user("mallory")


@pytest.fixture
def victim():
    return User.objects.create_user("victim", password="a-long-passphrase-1")


def test_an_opml_title_is_the_importers_label_only(server, allow_loopback, mallory, victim, client):
    url = server.add("/feed.xml", RSS)
    import_opml(mallory, opml((url, POISON)))
    feed = Feed.objects.get(url=url)
    assert feed.title == ""
    subscribe(victim, url)
    feeds.refresh(feed)
    feed.refresh_from_db()
    assert feed.title == "Real desk"
    assert Subscription.objects.get(user=mallory).name == POISON
    assert Subscription.objects.get(user=victim).name == "Real desk"
    assert [item.feed for item in stream.page(victim, "all").entries] == ["Real desk"]
    assert [item.feed for item in stream.page(mallory, "all").entries] == [POISON]
    client.force_login(victim)
    page = client.get(reverse("subscriptions")).content.decode()
    assert "Real desk" in page and "evil.example" not in page


def test_an_import_does_not_rename_a_known_feed(mallory):
    feed = Feed.objects.create(url="http://known.example/feed", title="Known desk")
    import_opml(mallory, opml((feed.url, POISON)))
    feed.refresh_from_db()
    assert feed.title == "Known desk" and Subscription.objects.get(user=mallory).title == POISON


def test_the_feeds_own_title_replaces_an_old_shared_title(server, allow_loopback):
    feed = Feed.objects.create(url=server.add("/feed.xml", RSS), title=POISON)
    feeds.refresh(feed)
    feed.refresh_from_db()
    assert feed.title == "Real desk"


def test_export_names_each_feed_as_its_user_does_and_labels_atom_as_atom(server, allow_loopback, mallory):
    atom_url, rss_url = server.add("/atom.xml", ATOM), server.add("/rss.xml", RSS)
    import_opml(mallory, opml((atom_url, "My atom"), (rss_url, "")))
    for feed in Feed.objects.all():
        feeds.refresh(feed)
    outlines = {o.get("xmlUrl"): o for o in fromstring(export_opml(mallory)).iter("outline")}
    assert (outlines[atom_url].get("type"), outlines[atom_url].get("title")) == ("atom", "My atom")
    assert (outlines[rss_url].get("type"), outlines[rss_url].get("title")) == ("rss", "Real desk")


@pytest.mark.parametrize("depth", [3_000, 100_000])
def test_opml_nested_thousands_deep_imports_the_feed_at_the_bottom(mallory, depth):
    data = (b'<opml version="2.0"><body>' + b'<outline text="f">' * depth
            + b'<outline type="rss" text="Deep" xmlUrl="http://deep.example/feed"/>' + b"</outline>" * depth
            + b"</body></opml>")
    report = import_opml(mallory, data)
    assert report.subscribed == 1 and not report.failed
    subscription = Subscription.objects.get(user=mallory)
    assert subscription.feed.url == "http://deep.example/feed" and subscription.folder.startswith("f/f/f")
