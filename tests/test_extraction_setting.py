"""The extraction method is chosen per deployment (setting) and per feed (admin)."""
import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from reader.ingestion import articles
from reader.models import Feed, Story

pytestmark = pytest.mark.django_db

PAGE = ("<html><body><nav>" + "<a href='/x'>Menu</a> " * 20 + "</nav><article><h1>Title</h1>"
        + "<p>The harbour ferry returns to the east pier this spring, the authority said on Monday.</p>" * 6
        + "</article></body></html>")


def test_setting_and_feed_choose_the_method(server, allow_loopback, settings):
    feed = Feed.objects.create(url=server.url("/feed.xml"))
    story = Story.objects.create(feed=feed, guid="1", url=server.add("/story", PAGE))
    settings.EXTRACTION_METHOD = "best"
    assert articles.extract_story(story).extraction_method == "best"
    feed.extraction_method = "readability"
    feed.save()
    story = articles.extract_story(Story.objects.select_related("feed").get(id=story.id))
    assert story.extraction_method == "readability" and "east pier" in story.extracted_text


def test_unknown_method_setting_fails_the_system_check(settings):
    settings.EXTRACTION_METHOD = "no-such-method"
    with pytest.raises(SystemCheckError, match="EXTRACTION_METHOD"):
        call_command("check")


def test_admin_offers_every_method_for_a_feed(client):
    User.objects.create_superuser("root", password="pw")
    client.login(username="root", password="pw")
    feed = Feed.objects.create(url="https://example.org/feed")
    html = client.get(f"/admin/reader/feed/{feed.id}/change/").content.decode()
    for name in ("clump", "best", "readability", "mss"):
        assert f'<option value="{name}"' in html
    assert "site default" in html
