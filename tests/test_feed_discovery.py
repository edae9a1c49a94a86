"""Subscribing by page URL: <link rel=alternate> first, then common paths; several feeds -> the user chooses."""
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from reader.models import Subscription
from reader.ingestion.discovery import MAX_CANDIDATES, Candidate, DiscoveryError, discover
from reader.ingestion.subscribe import subscribe, subscribe_typed

pytestmark = pytest.mark.django_db

RSS = '<rss version="2.0"><channel><title>{}</title><item><title>a</title></item></channel></rss>'


def page(head=""):
    return f"<html><head><title>Site</title>{head}</head><body><p>Hello</p></body></html>"


def test_a_feed_url_is_its_own_candidate(server, allow_loopback):
    url = server.add("/feed.xml", RSS.format("Direct"))
    assert discover(url) == [Candidate(url, "Direct", "rss20")]


def test_alternate_links_are_found_and_resolved(server, allow_loopback):
    url = server.add("/blog/", page('<base href="/blog/"><link rel="alternate" type="application/rss+xml" '
                                    'title="Posts" href="posts.rss"><link rel="alternate" type="application/atom+xml" '
                                    'href="/atom.xml" title="Atom"><link rel="alternate" type="application/rss+xml" '
                                    'title="Comments feed" href="/comments.rss"><link rel="stylesheet" href="s.css">'
                                    '<link rel="alternate" type="application/feed+json" href="feed.json">'))
    assert discover(url) == [Candidate(server.url("/blog/posts.rss"), "Posts", "rss"),
                             Candidate(server.url("/atom.xml"), "Atom", "atom"),
                             Candidate(server.url("/blog/feed.json"), "", "json")]


def test_common_paths_are_tried_when_the_page_links_none(server, allow_loopback):
    url = server.add("/", page())
    server.add("/feed.json", json.dumps({"version": "https://jsonfeed.org/version/1", "title": "J", "items": []}))
    assert discover(url) == [Candidate(server.url("/feed.json"), "J", "json1")]
    tried = [path for path, _ in server.requests]
    assert tried[:4] == ["/", "/feed", "/rss", "/feed.xml"]


def test_no_feed_anywhere_says_so(server, allow_loopback):
    with pytest.raises(DiscoveryError, match="No feed found"):
        discover(server.add("/", page()))
    with pytest.raises(DiscoveryError, match="Could not reach 127.0.0.1: the site refused the connection"):
        discover("http://127.0.0.1:9/")


def test_subscribe_subscribes_to_a_single_feed_and_offers_a_choice_of_several(server, allow_loopback):
    user = User.objects.create_user("sam")
    one = server.add("/one/", page('<link rel="alternate" type="application/rss+xml" href="/one.rss">'))
    feed, _, candidates = subscribe(user, one, folder="Blogs")
    assert feed.url == server.url("/one.rss") and len(candidates) == 1
    assert Subscription.objects.get(user=user, feed=feed).folder == "Blogs"
    two = server.add("/two/", page('<link rel="alternate" type="application/rss+xml" href="/a.rss">'
                                   '<link rel="alternate" type="application/atom+xml" href="/b.atom">'))
    feed, _, candidates = subscribe(user, two)
    assert feed is None and [c.url for c in candidates] == [server.url("/a.rss"), server.url("/b.atom")]
    assert Subscription.objects.filter(user=user).count() == 1


def test_an_address_typed_without_scheme_falls_back_to_http(server, allow_loopback):
    """"127.0.0.1:8001" in the box becomes https://…; a site with no TLS there is then found over http://."""
    user = User.objects.create_user("sam")
    server.add("/feed.xml", RSS.format("Plain"))
    bare = server.url("/feed.xml").removeprefix("http://")
    feed, created, _ = subscribe_typed(user, "https://" + bare, scheme_guessed=True)
    assert created and feed.url == server.url("/feed.xml")
    with pytest.raises(DiscoveryError, match="no valid secure connection"):  # a typed https:// is kept as typed
        subscribe_typed(user, "https://" + bare, scheme_guessed=False)
    with pytest.raises(DiscoveryError, match="Could not reach 127.0.0.1: the site refused"):  # http:// fails too
        subscribe_typed(user, "https://127.0.0.1:9/", scheme_guessed=True)


@pytest.mark.parametrize("base", ["", '<base href="http://[x/">', '<base href="//[::1">'])
def test_an_unreadable_link_or_base_is_passed_over_not_the_page(server, allow_loopback, base):
    # urljoin raises ValueError on "http://[x/": one bad link must not refuse the feeds beside it.
    url = server.add("/site/", page(f'{base}<link rel="alternate" type="application/rss+xml" href="http://[x/">'
                                    '<link rel="alternate" type="application/atom+xml" href="/good.atom" title="Good">'))
    assert discover(url) == [Candidate(server.url("/good.atom"), "Good", "atom")]


CJK = "".join(chr(0x4E00 + i * 7919 % 20000) for i in range(1000))  # 3,000 bytes that do not compress


@pytest.mark.parametrize("href", ["/f?" + "a" * 2500, "/" + CJK], ids=["2,500 characters", "3,000 bytes"])
def test_a_feed_address_too_long_to_store_is_passed_over_and_said(server, allow_loopback, href):
    """Feed.url holds 2,000 characters, its unique index on PostgreSQL 2,704 bytes: subscribing to such a feed
    was a DataError or OperationalError there, a 500 on the subscribe form and the sync API's quickadd."""
    alone = server.add("/alone/", page(f'<link rel="alternate" type="application/rss+xml" href="{href}">'))
    with pytest.raises(DiscoveryError, match="address cannot be used: URL longer than 2000"):
        discover(alone)
    beside = server.add("/beside/", page(f'<link rel="alternate" type="application/rss+xml" href="{href}">'
                                         '<link rel="alternate" type="application/atom+xml" href="/good.atom">'))
    assert discover(beside) == [Candidate(server.url("/good.atom"), "", "atom")]


def test_a_page_listing_thousands_of_feeds_offers_the_first_few(server, allow_loopback):
    """A page's links are its author's: one listing 70,000 feeds (4 MB, under the fetch limit) made a choice page of
    70,000 buttons, and the lookup of those the user follows passed 70,000 parameters, over PostgreSQL's 65,535: a
    500. A person picks from the first MAX_CANDIDATES, in the page's order."""
    links = "".join(f'<link rel="alternate" type="application/rss+xml" href="/f{n}">' for n in range(70_000))
    url = server.add("/many/", page(links))
    found = discover(url)
    assert [c.url for c in found] == [server.url(f"/f{n}") for n in range(MAX_CANDIDATES)]
    client = Client()
    client.force_login(User.objects.create_user("ann"))
    choice = client.post("/subscriptions/", {"url": url})
    assert choice.status_code == 200 and choice.content.decode().count('type="radio"') == MAX_CANDIDATES
