"""Finding 6 (IDN hosts): a Unicode host name goes out as punycode in the Host header and the connection,
through the fetcher, the widget, the subscribe form and fetch_feed; the address it resolves to is still checked."""
import json

import pytest
from django.test import Client

from extraction.fetch import FetchError, FetchPolicy, StaticHosts, fetch, parse_networks
from reader.ingestion import feeds, fetching
from reader.models import Feed, Subscription
from ui_factories import ann, client_ann, record_sends  # noqa: F401 (fixtures)

HOST = "bücher.example"
PUNYCODE = "xn--bcher-kva.example"
FEED = ("<?xml version='1.0'?><rss version='2.0'><channel><title>Bücher</title><link>http://bücher.example/</link>"
        "<item><title>Neue Bücher</title><link>http://bücher.example/neu</link><guid>neu</guid>"
        "<description>Diese Woche im Laden.</description></item></channel></rss>")
PAGE = ("<html><head><title>Neue Bücher</title></head><body><article><h1>Neue Bücher</h1>"
        + "<p>Diese Woche kamen viele neue Bücher in den Laden, von Romanen bis zu Kochbüchern und Atlanten.</p>" * 6
        + "</article></body></html>")


@pytest.fixture
def idn_host(settings, allow_loopback):
    """bücher.example resolves to the loopback fixture server, written in its Unicode form."""
    settings.FETCH_STATIC_HOSTS = f"{HOST}=127.0.0.1"
    fetching.policy.cache_clear()
    yield
    fetching.policy.cache_clear()


def idn_url(server, path):
    return server.url(path).replace("127.0.0.1", HOST)


def host_headers(server, path):
    return [headers.get("Host") for seen, headers in server.requests if seen == path]


def test_fetcher_sends_the_punycode_host(server):
    server.add("/p?q=B%C3%BCcher", "<p>hi</p>", headers={"Content-Type": "text/html"})
    policy = FetchPolicy(allowed_networks=parse_networks("127.0.0.1/32"), resolver=StaticHosts(f"{PUNYCODE}=127.0.0.1"))
    response = fetch(idn_url(server, "/p") + "?q=Bücher", policy)
    assert response.status == 200
    assert server.requests[-1][0] == "/p?q=B%C3%BCcher"
    assert host_headers(server, "/p?q=B%C3%BCcher") == [f"{PUNYCODE}:{server.port}"]


def test_idn_that_resolves_to_loopback_is_still_refused(server):
    server.add("/p", "<p>hi</p>")
    policy = FetchPolicy(resolver=StaticHosts(f"{HOST}=127.0.0.1"))  # loopback not allowed
    with pytest.raises(FetchError) as info:
        fetch(idn_url(server, "/p"), policy)
    assert info.value.kind == FetchError.REFUSED
    assert server.requests == []


@pytest.mark.django_db
def test_widget_extracts_an_idn_page(server, idn_host):
    server.add("/neu", PAGE, headers={"Content-Type": "text/html; charset=utf-8"})
    response = Client().post("/api/extract", json.dumps({"url": idn_url(server, "/neu")}),
                             content_type="application/json")
    assert response.status_code == 200, response.content
    assert "Neue Bücher" in response.json()["title"]
    assert host_headers(server, "/neu") == [f"{PUNYCODE}:{server.port}"]


@pytest.mark.django_db
def test_subscribe_form_and_fetch_feed_take_an_idn_feed(server, idn_host, ann, client_ann, monkeypatch):
    server.add("/feed.xml", FEED, headers={"Content-Type": "application/rss+xml"})
    record_sends(monkeypatch, "reader.tasks.fetch_feed")
    response = client_ann.post("/subscriptions/", {"url": idn_url(server, "/feed.xml")})
    assert response.status_code == 302, response.content.decode()[:2000]
    feed = Subscription.objects.get(user=ann).feed
    assert feed.stories.count() == 1  # the form stored the body it fetched
    outcome = feeds.refresh(Feed.objects.get(id=feed.id))
    assert outcome.error == "" and outcome.new_story_ids == []
    assert host_headers(server, "/feed.xml") == [f"{PUNYCODE}:{server.port}"] * 2


@pytest.mark.django_db
def test_widget_names_an_idn_host_as_written_when_it_fails(server, idn_host):
    response = Client().post("/api/extract", json.dumps({"url": idn_url(server, "/gone")}),
                             content_type="application/json")
    assert response.status_code == 502
    assert response.json()["error"]["message"] == f"{HOST} answered 404 (Not Found)."
