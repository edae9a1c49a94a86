"""The admin lists feeds with their health and filters those failing for days."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from django.contrib.admin import site

from reader.models import Feed, Story

pytestmark = pytest.mark.django_db


def test_failing_feeds_show_their_error_and_can_be_filtered(client):
    admin = User.objects.create_superuser("root", password="pw")
    client.force_login(admin)
    Feed.objects.create(url="http://ok.example/feed", title="Fine feed")
    Feed.objects.create(url="http://down.example/feed", title="Down feed", error_count=9,
                        last_error="http://down.example/feed: cannot connect", failing_since=timezone.now() - timedelta(days=3))
    page = client.get("/admin/reader/feed/?health=days").content.decode()
    assert "Down feed" in page and "cannot connect" in page and "3\xa0days" in page
    assert "Fine feed" not in page
    assert "Fine feed" in client.get("/admin/reader/feed/?health=ok").content.decode()


def test_format_filter_names_feeds_not_read_yet(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    Feed.objects.create(url="http://new.example/feed", title="New feed")
    Feed.objects.create(url="http://atom.example/feed", title="Atom feed", format="atom10")
    page = client.get("/admin/reader/feed/").content.decode()
    assert 'href="?format=unknown"' in page and ">not read yet</a>" in page and 'href="?format="' not in page
    unknown = client.get("/admin/reader/feed/?format=unknown").content.decode()
    assert "New feed" in unknown and "Atom feed" not in unknown
    assert "Atom feed" in client.get("/admin/reader/feed/?format=atom10").content.decode()


@pytest.mark.parametrize("model", [Feed, Story])
def test_an_address_pasted_without_a_scheme_is_read_as_https(model, rf):
    request = rf.get("/admin/")
    request.user = User.objects.create_superuser("root", password="pw")
    form = site._registry[model].get_form(request)
    assert form.base_fields["url"].clean("example.org/feed") == "https://example.org/feed"
