"""Subscribing with discovery (and a choice when a site has several feeds), folders, unsubscribing, OPML.

Discovery's answers are stand-ins here (tests/test_feed_discovery.py covers discovery itself), so that these
tests pin down what the pages do with them.
"""
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from extraction.fetch import FetchError
from reader.ingestion import feeds, opml, opml_import
from reader.ingestion.discovery import Candidate
from reader.ingestion import subscribe as subscribing
from reader.models import Entry, Rating, Subscription
from ui_factories import ann, client_ann, make_entries, make_feed, make_user, record_sends  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    return record_sends(monkeypatch, "reader.tasks.fetch_feed")


def found(monkeypatch, *candidates):
    """Discovery's answer for any URL; the one feed found is not fetched (the worker's first fetch is queued)."""
    def discover(url, budget=None):
        if not candidates:
            raise subscribing.DiscoveryError(f"no feed found at {url}")
        return [c for c in candidates if c.url == url] or list(candidates)  # a feed's own URL finds that feed

    monkeypatch.setattr(subscribing, "discover", discover)
    monkeypatch.setattr(subscribing, "_fetch_within", lambda budget, url: None)


def test_one_feed_found_subscribes_fetches_and_shows_progress(ann, client_ann, monkeypatch, queued,
                                                              django_capture_on_commit_callbacks):
    found(monkeypatch, Candidate("https://site.example/rss", "Site news", "rss"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client_ann.post("/subscriptions/", {"url": "https://site.example/", "folder": "Local"})
    subscription = Subscription.objects.get(user=ann)
    assert subscription.feed.url == "https://site.example/rss" and subscription.folder == "Local"
    assert queued == [subscription.feed_id]
    assert response["Location"] == f"/subscriptions/progress?feeds={subscription.feed_id}"
    page = client_ann.get(response["Location"]).content.decode()
    assert "site.example/rss" in page and "/api/progress?feeds=" in page


def test_several_feeds_found_lets_the_user_choose(ann, client_ann, monkeypatch, queued):
    found(monkeypatch, Candidate("https://site.example/all.xml", "Everything", "rss"),
          Candidate("https://site.example/sport.xml", "Sport only", "rss"))
    page = client_ann.post("/subscriptions/", {"url": "https://site.example/"}).content.decode()
    assert "Everything" in page and "Sport only" in page and 'value="https://site.example/sport.xml"' in page
    assert not Subscription.objects.exists()
    client_ann.post("/subscriptions/", {"url": "https://site.example/sport.xml", "folder": ""})
    assert Subscription.objects.get(user=ann).feed.url == "https://site.example/sport.xml"


def test_the_feeds_of_a_site_already_followed_are_marked_not_offered(ann, client_ann, monkeypatch, queued):
    """A site's feed the user follows reads "you follow it" and cannot be picked (it was picked first, to answer
    "You already follow"); the first one not followed is the choice."""
    make_feed(ann, url="https://site.example/all.xml", title="Everything")
    found(monkeypatch, Candidate("https://site.example/all.xml", "Everything", "rss"),
          Candidate("https://site.example/sport.xml", "Sport only", "rss"))
    page = client_ann.post("/subscriptions/", {"url": "https://site.example/"}).content.decode()
    assert re.search(r'value="https://site.example/all.xml" disabled> Everything <small class="url">[^<]*</small> '
                     r'— you follow it', page)
    assert 'value="https://site.example/sport.xml" checked>' in page
    make_feed(ann, url="https://site.example/sport.xml", title="Sport only")
    page = client_ann.post("/subscriptions/", {"url": "https://site.example/"}).content.decode()
    assert "You follow all of them." in page and "checked" not in page and ">Subscribe</button>" not in page


def test_nothing_found_or_bad_address_explains_itself(client_ann, monkeypatch, queued,
                                                      django_capture_on_commit_callbacks):
    found(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        empty = client_ann.post("/subscriptions/", {"url": "https://empty.example/"}).content.decode()
        page = client_ann.post("/subscriptions/", {"url": "javascript:alert(1)"}).content.decode()
    assert "no feed found at" in empty
    assert "errorlist" in page
    words = client_ann.post("/subscriptions/", {"url": "the harbour news"}).content.decode()
    assert "Enter a web address, such as example.org or https://example.org/feed.xml" in words  # what to type
    assert not Subscription.objects.exists() and queued == []


def test_subscriptions_page_shows_health_and_folders(ann, client_ann):
    feed = make_feed(ann, title="Broken desk", folder="Work")
    feed.last_error, feed.error_count = "example.org answered HTTP 503", 3
    feed.failing_since = timezone.now() - timedelta(days=2, minutes=5)
    feed.save()
    big = make_feed(ann, url="https://big.example/feed", title="Big desk")
    big.notice = "the feed lists 10000 entries; the newest 500 were read"
    big.save()
    page = client_ann.get("/subscriptions/").content.decode()
    assert "Broken desk" in page and "3 errors: example.org answered HTTP 503" in page and ">Work<" in page
    assert "failing since 2 days ago" in page and "the newest 500 were read" in page


def test_a_feed_that_just_failed_reads_in_words(ann, client_ann):
    """Right after a first fetch fails: no "0 minutes ago", no "failing for 0 minutes", no library repr."""
    feed = make_feed(ann, title="Dead desk")
    feed.url = "http://127.0.0.1:9/feed.xml"
    feeds.record_error(feed, FetchError(FetchError.CONNECTION, "http://127.0.0.1:9/feed.xml: cannot connect: "
                                        "HTTPConnection(host='127.0.0.1', port=9): Failed to establish a new "
                                        "connection: [Errno 111] Connection refused"), timezone.now())
    feed.last_fetched_at = timezone.now()
    feed.save()
    page = client_ann.get("/subscriptions/").content.decode()
    assert "failing, 1 error: Could not reach 127.0.0.1: the site refused the connection." in page
    assert ">just now</time>" in page
    assert "0\xa0minutes" not in page and "HTTPConnection" not in page and "Errno" not in page


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


OPML = b"""<?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
<outline text="News"><outline text="A" type="rss" xmlUrl="https://a.example/feed"/>
<outline text="B" type="rss" xmlUrl="https://b.example/feed"/></outline>
<outline text="C" type="rss" xmlUrl="ftp://c.example/feed"/></body></opml>"""


def import_in_worker(client, upload, monkeypatch, capture):
    """Post the file; run the import task it queues as the worker would (the task calls opml_import.run)."""
    imports = record_sends(monkeypatch, "reader.tasks.import_opml")
    with capture(execute=True):
        response = client.post("/subscriptions/import", {"file": upload})
    with capture(execute=True):
        opml_import.run(imports[0])
    return response


def test_opml_import_subscribes_reports_failures_and_follows_progress(ann, client_ann, queued, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    upload = SimpleUploadedFile("feeds.opml", OPML, content_type="text/x-opml")
    response = import_in_worker(client_ann, upload, monkeypatch, django_capture_on_commit_callbacks)
    ids = set(Subscription.objects.filter(user=ann, folder="News").values_list("feed_id", flat=True))
    assert len(ids) == 2 and set(queued) == ids
    assert response["Location"].startswith("/subscriptions/import/")
    html = client_ann.get(response["Location"]).content.decode()
    assert "ftp://c.example/feed" in html and "3 of 3 feeds in the file read:" in html and "2 subscribed" in html
    assert "/subscriptions/progress?feeds=" in html


def test_a_file_that_is_not_opml_is_refused_with_a_message(ann, client_ann, monkeypatch,
                                                           django_capture_on_commit_callbacks):
    upload = SimpleUploadedFile("feeds.opml", b'<?xml version="1.0"?><opml/>', content_type="text/x-opml")
    response = import_in_worker(client_ann, upload, monkeypatch, django_capture_on_commit_callbacks)
    html = client_ann.get(response["Location"]).content.decode()
    assert "could not be imported" in html and not Subscription.objects.filter(user=ann).exists()


def test_a_file_declaring_a_non_text_codec_imports_and_says_so(ann, client_ann, queued, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    """expat raised LookupError for encoding="rot13": the task failed and the page said "Waiting" for good."""
    data = OPML.replace(b'version="1.0"?>', b'version="1.0" encoding="rot13"?>', 1)
    upload = SimpleUploadedFile("feeds.opml", data, content_type="text/x-opml")
    response = import_in_worker(client_ann, upload, monkeypatch, django_capture_on_commit_callbacks)
    assert Subscription.objects.filter(user=ann, folder="News").count() == 2
    html = client_ann.get(response["Location"]).content.decode()
    assert "2 subscribed" in html and "The file: ignored the encoding &#39;rot13&#39;" in html


def test_an_import_that_fails_midway_says_so_and_a_retry_resumes(ann, client_ann, queued, monkeypatch, settings):
    """Any error out of a chunk (a database refusing a row, a bug) left the job "running": the page said
    "Importing" for good. It is recorded on the job, and the task's retry resumes and clears it."""
    settings.OPML_IMPORT_BATCH = 1
    job = opml_import.create(ann, OPML)
    real, calls = opml.import_opml, []

    def second_chunk_fails(user, data):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("index row size 3040 exceeds maximum 2704")
        return real(user, data)

    monkeypatch.setattr(opml, "import_opml", second_chunk_fails)
    with pytest.raises(RuntimeError):
        opml_import.run(job.id)
    html = client_ann.get(f"/subscriptions/import/{job.id}/").content.decode()
    assert "could not be imported: it stopped after 1 of 3 feeds: index row size 3040" in html
    opml_import.run(job.id)
    job.refresh_from_db()
    assert (job.status, job.error, job.processed, job.subscribed) == ("done", "", 3, 2)


def test_opml_export_is_a_download(ann, client_ann):
    subscribing.follow(ann, {"https://a.example/feed": ("News", "")})
    response = client_ann.get("/subscriptions/export.opml")
    assert response["Content-Disposition"] == 'attachment; filename="subscriptions.opml"'
    assert response.content.startswith(b"<?xml") and b"https://a.example/feed" in response.content


def test_a_site_typed_without_http_is_found_over_http(ann, client_ann, server, allow_loopback, queued):
    """What a newcomer types for the demo site ("127.0.0.1:8001") subscribes, instead of a TLS error."""
    server.add("/", '<html><head><link rel="alternate" type="application/rss+xml" href="/news.rss"></head></html>')
    server.add("/news.rss", '<rss version="2.0"><channel><title>Plain news</title><item><title>a</title></item>'
                            '</channel></rss>')
    response = client_ann.post("/subscriptions/", {"url": server.url("/").removeprefix("http://")})
    assert response.status_code == 302 and "/subscriptions/progress" in response["Location"]
    assert Subscription.objects.get(user=ann).feed.url == server.url("/news.rss")


def test_under_make_run_a_new_account_is_offered_the_demo_site(client_ann, settings):
    """`make run` serves a demo news site (rundemo sets DEMO_SITE_URL); an account with no feeds is offered it."""
    assert "Add the demo news site" not in client_ann.get("/subscriptions/").content.decode()
    settings.DEMO_SITE_URL = "http://127.0.0.1:8001/"
    html = client_ann.get("/subscriptions/").content.decode()
    assert 'name="url" value="http://127.0.0.1:8001/"' in html and "Add the demo news site" in html
