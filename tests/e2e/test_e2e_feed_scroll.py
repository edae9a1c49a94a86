"""A long feed loads page after page as the reader scrolls, each story once, in ranked order."""
import pytest
from playwright.sync_api import expect

from e2e.browser import log_in, ready
from ui_factories import make_entries, make_feed, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_scrolling_loads_every_story_once_in_order(page):
    reader = make_user("scroller")
    scores = [round(1 - i / 100, 2) for i in range(95)]
    make_entries(reader, make_feed(reader), scores)
    log_in(page, "scroller", "a-long-passphrase-1")
    page.goto("/?filter=all")
    ready(page)
    entries = page.locator("[data-entries] .entry")
    expect(entries).to_have_count(40)
    for expected in (80, 95):
        page.locator("[data-entries] .entry").last.scroll_into_view_if_needed()
        page.mouse.wheel(0, 20_000)
        expect(entries).to_have_count(expected)
    expect(page.locator("[data-more]")).to_have_count(0)
    shown = [float(s) for s in page.locator("[data-entries] .entry").evaluate_all(
        "items => items.map(item => item.dataset.score)")]
    assert shown == sorted(scores, reverse=True)
    page.keyboard.press("j")
    expect(page.locator(".entry.current .title a")).to_have_text("Story 0")
    assert page.js_errors == []
