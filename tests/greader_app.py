"""Helpers for the Google Reader API tests: a user's library (folders, feeds, stories in several states), and an
app that speaks the protocol over Django's test client, sending bodies byte for byte as the apps build them."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from reader.models import Entry
from reader.web.greader import credentials
from ui_factories import make_feed, make_story

API_PASSWORD = "sync-app-password-1"
RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour news</title>
<link>https://harbour.example/</link><item><title>Ferry back</title><link>https://harbour.example/1</link>
<guid>h1</guid><description>The old ferry returns.</description></item></channel></rss>"""


def library(user, prefix: str = "") -> dict:
    """Two feeds in folder "Local", one in no folder; six stories with known read/saved/recommended/score."""
    city = make_feed(user, f"https://{prefix}city.example/feed", "City desk", folder="Local")
    port = make_feed(user, f"https://{prefix}port.example/feed", "Port news", folder="Local")
    world = make_feed(user, f"https://{prefix}world.example/feed", "World", folder="")
    now = timezone.now()
    made = {}
    for n, (feed, hours, score, recommended, read, saved) in enumerate([
            (city, 1, 0.90, True, False, False),   # best, recommended, unread
            (city, 2, 0.20, False, False, False),
            (port, 3, 0.70, True, False, True),    # recommended, saved
            (port, 4, 0.50, False, True, False),   # read
            (world, 5, 0.95, True, True, False),   # recommended but read: not in the Recommended label
            (world, 6, 0.60, True, False, False)]):
        story = make_story(feed, n, guid=f"{prefix}g{n}", published=now - timedelta(hours=hours),
                           enclosures=[{"url": "https://cdn.example/a.mp3", "type": "audio/mpeg", "length": "99"}])
        made[n] = Entry.objects.create(user=user, story=story, score=score, recommended=recommended, read=read,
                                       saved=saved)
    return {"feeds": {"city": city, "port": port, "world": world}, "entries": made}


def turn_on(user, password: str = API_PASSWORD) -> None:
    credentials.set_password(user, password)


class App:
    """A sync app: signs in, keeps the auth token and the edit token, and sends requests as raw strings."""

    def __init__(self, base: str = "/", address: str = "192.0.2.10"):
        self.base, self.http = base, Client(REMOTE_ADDR=address)
        self.auth, self.token = "", ""

    def url(self, path: str) -> str:
        return self.base + path

    def login(self, user: str, password: str = API_PASSWORD, body: str | None = None):
        body = body if body is not None else f"Email={user}&Passwd={password}"
        return self.http.post(self.url("accounts/ClientLogin"), body,
                              content_type="application/x-www-form-urlencoded")

    def headers(self) -> dict:
        return {"HTTP_AUTHORIZATION": f"GoogleLogin auth={self.auth}"} if self.auth else {}

    def get(self, path: str):
        """path with its query string as the app writes it (the test client keeps it when given no data)."""
        return self.http.get(self.url(path), **self.headers())

    def post(self, path: str, body: str):
        return self.http.post(self.url(path), body, content_type="application/x-www-form-urlencoded",
                              **self.headers())


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    """Test modules import this: every sign-in checks a hashed password, which PBKDF2 makes slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
