"""Small builders for the UI tests: users, feeds, stories and their entries."""
from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from reader.models import Entry, Feed, Story, Subscription


def make_user(name: str = "ann") -> User:
    return User.objects.create_user(name, password="a-long-passphrase-1")


def make_feed(user=None, url: str = "https://news.example/feed.xml", title: str = "Example desk", folder="") -> Feed:
    feed = Feed.objects.create(url=url, title=title)
    if user is not None:
        Subscription.objects.create(user=user, feed=feed, folder=folder)
    return feed


def make_story(feed: Feed, n: int, **fields) -> Story:
    defaults = {"guid": f"g{n}", "url": f"https://news.example/{n}", "title": f"Story {n}",
                "summary_html": f"<p>Teaser {n}</p>", "published": timezone.now() - timedelta(hours=n)}
    return Story.objects.create(feed=feed, **{**defaults, **fields})


def make_entries(user, feed: Feed, scores, **fields) -> list[Entry]:
    """One story and entry per score, in order."""
    return [Entry.objects.create(user=user, story=make_story(feed, i), score=score, **fields)
            for i, score in enumerate(scores)]
