"""Issue 19 in the browser, on a desktop and on a phone: unread counts, a feed and a folder as views, newest
first, read / unread (button and m), opening a story marks it read by POST, mark all read (A), mark on scroll,
refresh now (r), open the original (v), search (/), and the help that lists the keys."""
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import expect

from conftest import wait_for
from e2e.browser import both_schemes, log_in, ready
from reader.models import Entry
from ui_factories import make_feed, make_story, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(VIEWPORTS))
def reader(request, page):
    """A signed-in reader with two feeds (one in folder Local) and 14 stories, on the given screen."""
    cache.clear()  # rate-limit counters and unread counts of an earlier test's user with the same id
    page.set_viewport_size(VIEWPORTS[request.param])
    user = make_user("mira")
    harbour = make_feed(user, url="https://harbour.example/feed", title="Harbour desk", folder="Local")
    alps = make_feed(user, url="https://alps.example/feed", title="Alps desk")
    now = timezone.now()
    for n in range(10):  # the best scores are the oldest stories
        story = make_story(harbour, n, title=f"Harbour {n}", published=now - timedelta(hours=20 - n))
        Entry.objects.create(user=user, story=story, score=0.9 - n / 100)
    for n in range(4):
        story = make_story(alps, n, title=f"Alps {n}", published=now - timedelta(minutes=n))
        Entry.objects.create(user=user, story=story, score=0.2 - n / 100)
    log_in(page, "mira", "a-long-passphrase-1")
    ready(page)
    page.feeds = {"harbour": harbour, "alps": alps}
    return page


def titles(page) -> list[str]:
    return page.locator("[data-entries] .entry .title a").all_inner_texts()


def unread(title: str) -> bool:
    return not Entry.objects.get(story__title=title).read


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), page.url


def test_counts_views_sort_and_reading(reader):
    page = reader
    expect(page.locator("[data-unread-total]")).to_have_text("14")
    expect(page.get_by_role("link", name="Feed 14 unread")).to_be_visible()  # what a screen reader says
    page.goto("/?filter=all")
    ready(page)
    no_sideways_scroll(page)
    page.locator(".sources summary").click()
    tree = page.get_by_role("list", name="Feeds and folders")
    expect(tree.locator("li.folder", has_text="Local").locator(".count").first).to_have_text("10")
    expect(tree.locator("li.folder", has_text="Local").first).to_contain_text("Local 10 unread")
    # One folder, then one feed, as views of their own.
    tree.get_by_role("link", name="Local").click()
    ready(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Local")
    assert set(titles(page)) == {f"Harbour {n}" for n in range(10)}
    both_schemes(page, f"folder-{'phone' if page.viewport_size['width'] < 500 else 'desktop'}")
    page.get_by_role("list", name="Feeds and folders").get_by_role("link", name="Alps desk").click()
    ready(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Alps desk")
    assert titles(page) == ["Alps 0", "Alps 1", "Alps 2", "Alps 3"]
    # Newest first, across all feeds.
    page.goto("/?filter=all")
    page.get_by_role("navigation", name="Order").get_by_role("link", name="Newest first").click()
    ready(page)
    assert titles(page)[:5] == ["Alps 0", "Alps 1", "Alps 2", "Alps 3", "Harbour 9"]
    # Opening a story marks it read by a POST from the page, and the count follows.
    page.get_by_role("link", name="Alps 1", exact=True).click()
    ready(page)
    wait_for(lambda: not unread("Alps 1"), 10, message="opened story marked read")
    expect(page.locator("[data-unread-total]")).to_have_text("13")
    expect(page.get_by_role("link", name="Feed 13 unread")).to_be_visible()
    expect(page.locator("article.story .mark-read button")).to_have_text("Mark unread")
    page.keyboard.press("m")
    wait_for(lambda: unread("Alps 1"), 10, message="m marks unread")
    # j walks the same view (newest first), u goes back to it.
    page.keyboard.press("j")
    page.wait_for_url(re.compile(r"sort=newest"))
    ready(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Alps 2")
    no_sideways_scroll(page)
    page.context.route("https://news.example/**", lambda route: route.fulfill(body="the publisher's page"))
    with page.expect_popup() as popup:
        page.keyboard.press("v")
    popup.value.wait_for_load_state()
    assert popup.value.url == "https://news.example/2"
    popup.value.close()
    page.keyboard.press("u")
    page.wait_for_url(re.compile(r"/\?filter=all&sort=newest#story-\d+$"))
    ready(page)
    # Back in the list, the story just read is the selected one: j/k go on from there.
    expect(page.locator(".entry.current .title a")).to_have_text("Alps 2")
    expect(page.locator(".entry.current")).to_be_focused()
    page.keyboard.press("k")
    page.keyboard.press("k")
    # In the list: m toggles the selected story, the button too.
    expect(page.locator(".entry.current .title a")).to_have_text("Alps 0")
    page.keyboard.press("m")
    expect(page.locator(".entry.current .mark-read button")).to_have_text("Mark unread")
    wait_for(lambda: not unread("Alps 0"), 10, message="m marks read")
    page.locator(".entry.current").get_by_role("button", name="Mark unread").click()
    wait_for(lambda: unread("Alps 0"), 10, message="the button marks unread")
    assert page.js_errors == []


def test_mark_all_refresh_scroll_and_keys(reader):
    page = reader
    alps = page.feeds["alps"]
    page.goto(f"/?filter=all&feed={alps.id}")
    ready(page)
    page.keyboard.press("A")
    expect(page.locator(".messages")).to_contain_text("Marked 4 stories read")
    assert Entry.objects.filter(read=True).count() == 4 and not Entry.objects.filter(story__feed=alps, read=False)
    page.locator(".messages").get_by_role("button", name="Undo").click()  # A pressed by mistake
    expect(page.locator(".messages")).to_contain_text("Marked 4 stories unread again")
    assert not Entry.objects.filter(read=True).exists()
    page.keyboard.press("A")
    expect(page.locator(".messages")).to_contain_text("Marked 4 stories read")
    page.keyboard.press("r")
    expect(page.locator(".messages")).to_contain_text("Fetching 2 feeds now")
    # Mark on scroll: off by default; on, the stories scrolled past are marked read.
    page.set_viewport_size({"width": page.viewport_size["width"], "height": 500})
    page.goto("/?filter=unread")
    ready(page)
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(800)
    assert Entry.objects.filter(read=True).count() == 4
    page.get_by_label("Mark read when scrolled past").check()
    page.goto("/?filter=unread")
    ready(page)
    expect(page.get_by_label("Mark read when scrolled past")).to_be_checked()
    page.locator("[data-entries] .entry").last.scroll_into_view_if_needed()
    wait_for(lambda: Entry.objects.filter(story__title="Harbour 0", read=True).exists(), 10,
             message="a story scrolled past marked read")
    assert unread("Harbour 9")  # the last one is still on the screen
    page.keyboard.press("?")
    help_box = page.get_by_role("dialog", name="Keyboard shortcuts")
    for text in ("mark read / unread", "open the original page", "mark all in this view read",
                 "refresh your feeds", "search your stories"):
        expect(help_box).to_contain_text(text)
    page.keyboard.press("Escape")
    assert page.js_errors == []


def test_search_with_the_slash_key(reader):
    page = reader
    Story = Entry._meta.get_field("story").related_model
    Story.objects.filter(title="Harbour 4").update(extracted_text="The night ferry to Tallinn is back")
    page.goto("/")
    ready(page)
    page.keyboard.press("/")
    expect(page.get_by_label("Search your stories")).to_be_focused()
    page.keyboard.type("tallinn ferry")
    page.keyboard.press("Enter")
    ready(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Search: tallinn ferry")
    assert titles(page) == ["Harbour 4"]
    no_sideways_scroll(page)
    # Esc leaves the box (the search stays as typed), and the keys work again: j picks the first story.
    page.keyboard.press("/")
    page.keyboard.press("Escape")
    expect(page.get_by_label("Search your stories")).not_to_be_focused()
    expect(page.get_by_label("Search your stories")).to_have_value("tallinn ferry")
    page.keyboard.press("j")
    expect(page.locator(".entry.current .title a")).to_have_text("Harbour 4")
    assert page.js_errors == []


def test_extract_page_and_admin_on_a_phone(page, web):
    """Bugs 1 and 2: the embed snippet does not widen /extract/ on a 390 px phone; the admin asks for no
    missing /favicon.ico."""
    page.set_viewport_size(VIEWPORTS["phone"])
    page.goto("/extract/")
    ready(page)
    no_sideways_scroll(page)
    snippet = page.get_by_label("The two lines to add")  # it scrolls sideways instead, and so takes the focus
    assert snippet.evaluate("pre => pre.scrollWidth > pre.clientWidth && pre.tabIndex === 0")
    from django.contrib.auth.models import User
    User.objects.create_superuser("root", password="a-long-passphrase-1")
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto("/admin/login/")
    page.get_by_label("Username").fill("root")
    page.get_by_label("Password").fill("a-long-passphrase-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/admin/")
    page.wait_for_load_state("networkidle")
    assert missing == []
    assert page.evaluate("fetch('/favicon.ico').then((r) => r.ok && r.headers.get('content-type'))") == "image/svg+xml"
