"""Small builders for the UI tests: users, feeds, stories and their entries; a logged-in client.

Test modules import the fixtures `ann` and `client_ann` from here.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from reader import queue
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
    story = Story(feed=feed, **{**defaults, **fields})
    story.refresh_snippet()  # as ingestion does
    story.save()
    return story


def make_entries(user, feed: Feed, scores, **fields) -> list[Entry]:
    """One story and entry per score, in order."""
    return [Entry.objects.create(user=user, story=make_story(feed, i), score=score, **fields)
            for i, score in enumerate(scores)]


@pytest.fixture
def ann():
    return make_user("ann")


@pytest.fixture
def client_ann(ann):
    client = Client()
    client.force_login(ann)
    return client


def record_sends(monkeypatch, task: str) -> list:
    """Keep the messages for the task named ``task`` (each one's argument, or its arguments) in a list instead of
    sending them to the broker; other tasks' messages go on. reader.queue sends them when the transaction commits."""
    sent, send_task = [], queue.app.send_task

    def record(name, args=(), *rest, **options):
        if name != task:
            return send_task(name, args, *rest, **options)
        sent.append(args[0] if len(args) == 1 else tuple(args))

    monkeypatch.setattr(queue.app, "send_task", record)
    return sent
