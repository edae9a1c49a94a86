"""The story buttons without JavaScript: each one posts the page's single action form to its own address
(actions.html), and the reader comes back to the same view with the change shown."""
import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from e2e.browser import log_in
from reader.models import Entry, Rating
from ui_factories import make_feed, make_story, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def plain_page(browser, web):
    context = browser.new_context(base_url=web.url, java_script_enabled=False)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_good_save_and_read_work_from_the_list_and_the_story_page_without_javascript(plain_page):
    cache.clear()
    user = make_user("nadia")
    feed = make_feed(user, url="https://plain.example/feed", title="Plain desk")
    for n in range(3):
        Entry.objects.create(user=user, story=make_story(feed, n, title=f"Plain {n}"), score=0.9 - n / 10)
    page = plain_page
    log_in(page, "nadia", "a-long-passphrase-1")
    page.goto("/?filter=all")
    row = page.locator(".entry", has_text="Plain 1")
    row.get_by_role("button", name="Good: more like “Plain 1”").click()
    page.wait_for_url("**/?filter=all")
    assert Rating.objects.get(user=user, story__title="Plain 1").value == Rating.GOOD
    expect(page.locator(".entry", has_text="Plain 1").locator("button.good")).to_have_attribute("aria-pressed", "true")
    page.locator(".entry", has_text="Plain 2").get_by_role("button", name="Save “Plain 2” for later").click()
    page.wait_for_url("**/?filter=all")
    assert Entry.objects.get(user=user, story__title="Plain 2").saved
    page.locator(".entry", has_text="Plain 0").get_by_role("button", name="Mark read").click()
    page.wait_for_url("**/?filter=all")
    assert Entry.objects.get(user=user, story__title="Plain 0").read
    expect(page.locator(".entry", has_text="Plain 0").get_by_role("button", name="Mark unread")).to_be_visible()
    # Only one form carries the CSRF token, however many stories the page lists.
    assert page.locator("input[name=csrfmiddlewaretoken]").count() == 4  # actions, mark all, refresh, log out
    story = Entry.objects.get(user=user, story__title="Plain 2").story_id
    page.goto(f"/stories/{story}/")
    page.get_by_role("button", name="Bad: less like “Plain 2”").click()
    page.wait_for_url(f"**/stories/{story}/")
    assert Rating.objects.get(user=user, story_id=story).value == Rating.BAD
