"""Subscribing with discovery (and a choice when a site has several feeds), folders, unsubscribing, OPML.

Discovery and OPML parsing belong to the ingestion code; here they are stand-ins so that these tests pin
down what the pages do with their answers.
"""
import sys
import types
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

import reader
from reader import subscribe as subscribing
from reader import views
from reader.models import Entry, Rating, Subscription
from ui_factories import make_entries, make_feed, make_user

pytestmark = pytest.mark.django_db


@dataclass
class Candidate:
    url: str
    title: str
    kind: str = "rss"


@pytest.fixture
def ann():
    return make_user("ann")


@pytest.fixture
def client_ann(ann):
    client = Client()
    client.force_login(ann)
    return client


@pytest.fixture
def queued(monkeypatch):
    calls = []
    monkeypatch.setattr(views.fetch_feed, "delay", calls.append)
    return calls


def found(monkeypatch, *candidates):
    monkeypatch.setattr(subscribing, "discover", lambda url: list(candidates), raising=False)


def test_one_feed_found_subscribes_fetches_and_shows_progress(ann, client_ann, monkeypatch, queued):
    found(monkeypatch, Candidate("https://site.example/rss", "Site news"))
    response = client_ann.post("/subscriptions/", {"url": "https://site.example/", "folder": "Local"})
    subscription = Subscription.objects.get(user=ann)
    assert subscription.feed.url == "https://site.example/rss" and subscription.folder == "Local"
    assert queued == [subscription.feed_id]
    assert response["Location"] == f"/subscriptions/progress?feeds={subscription.feed_id}"
    page = client_ann.get(response["Location"]).content.decode()
    assert "site.example/rss" in page and "/api/progress?feeds=" in page


def test_several_feeds_found_lets_the_user_choose(ann, client_ann, monkeypatch, queued):
    found(monkeypatch, Candidate("https://site.example/all.xml", "Everything"),
          Candidate("https://site.example/sport.xml", "Sport only"))
    page = client_ann.post("/subscriptions/", {"url": "https://site.example/"}).content.decode()
    assert "Everything" in page and "Sport only" in page and 'name="chosen"' in page
    assert not Subscription.objects.exists()
    client_ann.post("/subscriptions/", {"url": "https://site.example/sport.xml", "chosen": "1", "folder": ""})
    assert Subscription.objects.get(user=ann).feed.url == "https://site.example/sport.xml"


def test_nothing_found_or_bad_address_explains_itself(client_ann, monkeypatch, queued):
    found(monkeypatch)
    assert "No feed found" in client_ann.post("/subscriptions/", {"url": "https://empty.example/"}).content.decode()
    page = client_ann.post("/subscriptions/", {"url": "javascript:alert(1)"}).content.decode()
    assert "errorlist" in page
    assert not Subscription.objects.exists() and queued == []


def test_subscriptions_page_shows_health_and_folders(ann, client_ann):
    feed = make_feed(ann, title="Broken desk", folder="Work")
    feed.last_error, feed.error_count = "example.org answered HTTP 503", 3
    feed.save()
    page = client_ann.get("/subscriptions/").content.decode()
    assert "Broken desk" in page and "3 errors: example.org answered HTTP 503" in page and ">Work<" in page


def test_move_to_folder_and_unsubscribe_touch_only_own_subscriptions(ann, client_ann):
    feed = make_feed(ann)
    rated, unrated = make_entries(ann, feed, [0.5, 0.5])
    Rating.objects.create(user=ann, story=rated.story, value=Rating.GOOD)
    subscription = Subscription.objects.get(user=ann)
    client_ann.post(f"/subscriptions/{subscription.id}/folder", {"folder": "  Later "})
    assert Subscription.objects.get(id=subscription.id).folder == "Later"

    bob = make_user("bob")
    bobs = Subscription.objects.create(user=bob, feed=feed)
    assert client_ann.post(f"/subscriptions/{bobs.id}/unsubscribe").status_code == 404
    assert client_ann.post(f"/subscriptions/{bobs.id}/folder", {"folder": "x"}).status_code == 404

    client_ann.post(f"/subscriptions/{subscription.id}/unsubscribe")
    assert not Subscription.objects.filter(user=ann).exists()
    assert list(Entry.objects.filter(user=ann).values_list("id", flat=True)) == [rated.id]  # ratings kept
    assert Subscription.objects.filter(user=bob).exists()


@pytest.fixture
def fake_opml(monkeypatch, ann):
    module = types.ModuleType("reader.opml")

    def import_opml(user, data):
        assert data.startswith(b"<?xml")
        for url in ("https://a.example/feed", "https://b.example/feed"):
            subscribing.subscribe(user, url, folder="Imported")
        return types.SimpleNamespace(failures=["https://c.example/feed: not a feed"])

    module.import_opml = import_opml
    module.export_opml = lambda user: b'<?xml version="1.0"?><opml version="2.0"><body/></opml>'
    monkeypatch.setitem(sys.modules, "reader.opml", module)
    # `from . import opml` finds the package attribute first, which exists once any test module imported it.
    monkeypatch.setattr(reader, "opml", module, raising=False)
    return module


def test_opml_import_subscribes_reports_failures_and_follows_progress(ann, client_ann, fake_opml, queued):
    upload = SimpleUploadedFile("feeds.opml", b'<?xml version="1.0"?><opml/>', content_type="text/x-opml")
    response = client_ann.post("/subscriptions/import", {"file": upload}, follow=True)
    html = response.content.decode()
    assert "not a feed" in html and "Imported 2 new feed(s)" in html
    ids = set(Subscription.objects.filter(user=ann).values_list("feed_id", flat=True))
    assert len(ids) == 2 and set(queued) == ids


def test_opml_export_is_a_download(client_ann, fake_opml):
    response = client_ann.get("/subscriptions/export.opml")
    assert response["Content-Disposition"] == 'attachment; filename="subscriptions.opml"'
    assert response.content.startswith(b"<?xml")
