"""The extraction demo: our own page, and the embeddable widget on somebody else's (local) page."""
import pytest
from playwright.sync_api import expect

from e2e.browser import both_schemes
from e2e.news_site import page_html

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STORY = page_html("ferry-returns", "The old ferry returns to the east pier", "harbour")


@pytest.fixture(autouse=True)
def local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "e2e-widget"}}


def widget(page):
    return page.locator("[data-extract-widget]")


def test_widget_embedded_on_another_site_extracts_and_explains_refusals(page, web, server, allow_loopback):
    story_url = server.add("/news/ferry.html", STORY, headers={"Content-Type": "text/html; charset=utf-8"})
    embed_url = server.add("/embed.html", f"""<!doctype html><html><head><title>A blog</title></head><body>
        <h1>My blog</h1><script src="{web.url}/static/reader/widget.js" defer></script>
        <div data-extract-widget></div></body></html>""", headers={"Content-Type": "text/html"})
    page.goto(embed_url)
    box = widget(page)
    box.get_by_label("Page address").fill(story_url)
    expect(box.get_by_label("Method", exact=True)).not_to_have_value("")
    box.get_by_role("button", name="Extract").click()
    expect(box.locator(".xw-title")).to_have_text("The old ferry returns to the east pier")
    expect(box.locator(".xw-text")).to_contain_text("The harbour authority said the ferry would run")
    expect(box.locator(".xw-text")).not_to_contain_text("Most read")
    expect(box.locator(".xw-stats")).to_contain_text("ms to extract")

    box.get_by_label("Page address").fill("http://10.20.30.40/private/page")
    box.get_by_role("button", name="Extract").click()
    expect(box.get_by_role("alert")).to_contain_text("private or local address")
    expect(box.locator(".xw-result")).to_have_count(0)
    assert not any(path.startswith("/private") for path, _ in server.requests)


def test_demo_page_compares_methods_on_pasted_html(page):
    page.goto("/extract/")
    box = widget(page)
    box.get_by_text("or paste the page's HTML").click()
    box.get_by_label("HTML", exact=True).fill(STORY)
    box.get_by_label("compare all methods").check()
    box.get_by_role("button", name="Extract").click()
    results = box.locator(".xw-result")
    expect(results.first).to_contain_text("Boatmen on the harbour")
    count = results.count()
    assert count == len(page.evaluate("fetch('/api/extract').then(r => r.json()).then(d => d.methods)"))
    expect(box.get_by_role("status")).to_contain_text("Done in")
    # Each result is a heading under the page's h1, and its text box (it scrolls) is reachable by Tab.
    expect(box.get_by_role("heading", level=2)).to_have_count(count)
    expect(box.get_by_role("region", name="Text found by clump")).to_contain_text("Boatmen on the harbour")
    both_schemes(page, "extract")
    box.get_by_role("button", name="Extract").focus()
    page.keyboard.press("Tab")
    expect(box.get_by_role("region").first).to_be_focused()

    box.get_by_label("compare all methods").uncheck()
    box.get_by_label("HTML", exact=True).fill("")
    box.get_by_label("Page address").fill("ftp://files.example/story")
    box.get_by_role("button", name="Extract").click()
    expect(box.get_by_role("alert")).to_contain_text("only http:// and https://")
    assert page.js_errors == []


def test_a_failure_keeps_the_keyboard_in_place_and_a_bad_address_is_explained_in_the_page(page):
    page.goto("/extract/")
    box = widget(page)
    box.get_by_label("Page address").fill("http://10.20.30.40/private/page")
    box.get_by_role("button", name="Extract").focus()
    page.keyboard.press("Enter")
    expect(box.get_by_role("alert")).to_contain_text("private or local address")
    expect(box.get_by_role("button", name="Extract")).to_be_focused()  # not dropped to the body while it ran
    # The browser's own URL check would block this request and leave the answer above on screen.
    box.get_by_label("Page address").fill("http://[x/")
    box.get_by_label("Page address").press("Enter")
    expect(box.get_by_role("alert")).to_contain_text("not a web address this server can fetch")
    expect(box.get_by_role("button", name="Extract")).to_be_enabled()
    assert page.js_errors == []
