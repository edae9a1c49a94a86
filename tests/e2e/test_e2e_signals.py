"""Implicit signals in the browser: nothing is sent before the reader opts in on the taste page; after, the page
script records a story opened, its end read, and unread stories scrolled past in the list."""
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from conftest import wait_for
from e2e.browser import log_in, ready
from reader.models import Entry, Signal
from ui_factories import make_feed, make_story, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def kinds(title):
    return set(Signal.objects.filter(story__title=title).values_list("kind", flat=True))


def test_signals_are_sent_only_after_opting_in(page):
    cache.clear()
    page.set_viewport_size({"width": 1100, "height": 500})
    user = make_user("mira")
    feed = make_feed(user, url="https://harbour.example/feed", title="Harbour desk")
    now = timezone.now()
    for n in range(14):
        story = make_story(feed, n, title=f"Harbour {n}", published=now - timedelta(hours=n))
        Entry.objects.create(user=user, story=story, score=0.9 - n / 100)
    log_in(page, "mira", "a-long-passphrase-1")
    ready(page)

    page.goto("/stories/%d/" % Entry.objects.get(story__title="Harbour 3").story_id)
    ready(page)
    page.goto("/?filter=all")
    ready(page)
    page.mouse.wheel(0, 5000)
    page.wait_for_timeout(2500)  # longer than the script's batching
    assert not Signal.objects.exists()

    page.goto("/taste/")
    page.get_by_label("Learn from what I open, read, save and skip").check()
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/taste/")

    page.goto("/stories/%d/" % Entry.objects.get(story__title="Harbour 5").story_id)
    ready(page)
    wait_for(lambda: kinds("Harbour 5") == {"opened"}, 10, message="the opening recorded")
    page.mouse.wheel(0, 5000)  # the end of the text on screen; "read" once 10 s have passed on the page
    wait_for(lambda: kinds("Harbour 5") == {"opened", "read"}, 20, message="the reading to the end recorded")

    page.goto("/?filter=all")
    ready(page)
    page.mouse.wheel(0, 5000)
    wait_for(lambda: Signal.objects.filter(kind="skipped").exists(), 10, message="skipped stories recorded")
    skipped = set(Signal.objects.filter(kind="skipped").values_list("story__title", flat=True))
    assert "Harbour 0" in skipped and "Harbour 3" not in skipped  # Harbour 3 was opened, so it is read
    assert page.js_errors == []
