"""Subscribing with discovery (and a choice when a site has several feeds), folders, unsubscribing, OPML.

Discovery and OPML parsing belong to the ingestion code (reader.subscribe.subscribe_url, reader.opml);
here they are stand-ins with the same contract, so these tests pin down what the pages do with the answers.
"""
import sys
import types
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

import reader
from reader import subscribe as subscribing
from reader import views
from reader.models import Entry, Rating, Subscription
from ui_factories import ann, client_ann, make_entries, make_feed, make_user, record_delay  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@dataclass
class Candidate:
    url: str
    title: str
    kind: str = "rss"


@pytest.fixture
def queued(monkeypatch):
    return record_delay(monkeypatch, views.fetch_feed)


class DiscoveryError(Exception):
    pass


def found(monkeypatch, *candidates):
    """subscribe_url as ingestion has it: subscribe to the one feed found, or hand back the candidates."""
    def subscribe_url(user, url, folder=""):
        if not candidates:
            raise DiscoveryError(f"no feed found at {url}")
        if len(candidates) > 1:
            return None, list(candidates)
        return subscribing.subscribe(user, candidates[0].url, folder)[0], list(candidates)

    monkeypatch.setattr(subscribing, "subscribe_url", subscribe_url, raising=False)
    monkeypatch.setattr(subscribing, "DiscoveryError", DiscoveryError, raising=False)


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
    assert "no feed found at" in client_ann.post("/subscriptions/", {"url": "https://empty.example/"}).content.decode()
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
    module.OpmlError = type("OpmlError", (Exception,), {})

    def import_opml(user, data):
        if not data.startswith(b"<?xml"):
            raise module.OpmlError("not an OPML file: syntax error")
        for url in ("https://a.example/feed", "https://b.example/feed"):
            subscribing.subscribe(user, url, folder="Imported")
        return types.SimpleNamespace(found=3, subscribed=2, already=0, new_feed_ids=[],
                                     failed=[("https://c.example/feed", "not an http(s) URL")])

    module.import_opml = import_opml
    module.export_opml = lambda user: b'<?xml version="1.0"?><opml version="2.0"><body/></opml>'
    monkeypatch.setitem(sys.modules, "reader.opml", module)
    monkeypatch.setattr(reader, "opml", module, raising=False)
    return module


def test_opml_import_reports_skipped_feeds_and_follows_progress(ann, client_ann, fake_opml):
    upload = SimpleUploadedFile("feeds.opml", b'<?xml version="1.0"?><opml/>', content_type="text/x-opml")
    response = client_ann.post("/subscriptions/import", {"file": upload})
    ids = sorted(Subscription.objects.filter(user=ann).values_list("feed_id", flat=True))
    assert len(ids) == 2 and response["Location"] == f"/subscriptions/progress?feeds={ids[0]},{ids[1]}"
    html = client_ann.get(response["Location"]).content.decode()
    assert "3 feeds in the file: 2 subscribed" in html and "Skipped https://c.example/feed: not an http(s) URL" in html


def test_a_file_that_is_not_opml_changes_nothing(ann, client_ann, fake_opml):
    upload = SimpleUploadedFile("feeds.opml", b"PK\x03\x04 a zip file", content_type="application/zip")
    html = client_ann.post("/subscriptions/import", {"file": upload}, follow=True).content.decode()
    assert "That file could not be imported: not an OPML file" in html
    assert not Subscription.objects.exists()


def test_opml_export_is_a_download(client_ann, fake_opml):
    response = client_ann.get("/subscriptions/export.opml")
    assert response["Content-Disposition"] == 'attachment; filename="subscriptions.opml"'
    assert response.content.startswith(b"<?xml")
