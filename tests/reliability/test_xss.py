"""XSS: 150+ payloads through the real ingestion (feed titles, summaries, authors, tags, extracted pages),
shown by the reader in headless Chromium with the site's CSP, and pasted into the demo widget.
Counted: dialogs (a payload ran) and CSP violations (the sanitizer let markup through that CSP then stopped)."""
import html

import pytest
from django.contrib.auth.models import User

from e2e.conftest import browser, web  # noqa: F401  (fixtures: Chromium, live server)
from reader.ingestion import articles, feeds
from reader.models import Entry, Feed, Story, Subscription

from .figures import record
from .xss_payloads import payloads

pytestmark = [pytest.mark.reliability, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__csp = 0;
document.addEventListener('securitypolicyviolation', () => { window.__csp += 1; });
"""


def rss(server, items) -> str:
    body = "".join(
        f"<item><title>{html.escape(f'Story {i} ' + p)}</title><link>{server.url(f'/page/{i}.html')}</link><guid>x{i}</guid>"
        f"<author>{html.escape(p)}</author><category>{html.escape(p)}</category>"
        f"<description>{html.escape(f'<p>Teaser {i}.</p>' + p)}</description></item>" for i, p in enumerate(items))
    # Numbered, so that no two stories look alike to the reader's duplicate detection.
    return f'<rss version="2.0"><channel><title>{html.escape(items[0])}</title>{body}</channel></rss>'


def article(payload: str) -> str:
    paragraphs = "".join(f"<p>Paragraph {i} of a story, with enough words to read like an article body, names, "
                         f"places and a quote or two.</p>" for i in range(6))
    return (f"<html><head><title>Story</title></head><body><article><h1>Headline</h1>{paragraphs}{payload}"
            f"{paragraphs}</article></body></html>")


@pytest.fixture
def ingested(server, allow_loopback):
    items = payloads()
    for i, payload in enumerate(items):
        server.add(f"/page/{i}.html", article(payload), headers={"Content-Type": "text/html"})
    feed = Feed.objects.create(url=server.add("/feed.xml", rss(server, items),
                                              headers={"Content-Type": "application/rss+xml"}))
    user = User.objects.create_user("victim", password="pw-victim-long-1")
    Subscription.objects.create(user=user, feed=feed)
    outcome = feeds.refresh(feed)
    assert len(outcome.new_story_ids) == len(items), Feed.objects.get(id=feed.id).last_error
    for story in Story.objects.filter(feed=feed):
        articles.extract_story(story)
    for entry in Entry.objects.filter(user=user).select_related("story"):
        entry.reasons = [entry.story.title]  # reasons are shown on the feed page too
        entry.save(update_fields=["reasons"])
    return user, items


def logged_in_context(browser, web, user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=web.url)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": web.url}])
    context.add_init_script(WATCH)
    return context


def test_no_payload_runs_anywhere(browser, web, ingested, server, settings):
    # Earlier tests in the same minute (the API fuzzer) spend 127.0.0.1's widget budget; this test is about XSS.
    settings.EXTRACT_RATE_LIMIT = 10 ** 9
    user, items = ingested
    context = logged_in_context(browser, web, user)
    tab = context.new_page()
    dialogs, csp, pages = [], 0, 0
    tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    def visit(url):
        nonlocal csp, pages
        tab.goto(url)
        tab.wait_for_load_state("load")
        tab.wait_for_timeout(20)  # let onload/onerror/autofocus handlers fire
        csp += tab.evaluate("window.__csp")
        pages += 1

    next_url = "/?filter=all"
    while next_url:
        visit(next_url)
        more = tab.locator("[data-more]")
        next_url = more.get_attribute("href") if more.count() else None
    for story_id in Story.objects.order_by("id").values_list("id", flat=True):
        visit(f"/stories/{story_id}/?source=feed")
        visit(f"/stories/{story_id}/")
    extracted = Story.objects.filter(extraction_status="done").count()

    visit("/extract/")
    box = tab.locator("[data-extract-widget]")
    box.get_by_text("or paste the page's HTML").click()
    batches = [items[i:i + 20] for i in range(0, len(items), 20)]
    for batch in batches:
        box.get_by_label("HTML", exact=True).fill(article("".join(batch)))
        box.get_by_role("button", name="Extract").click()
        tab.get_by_role("status").filter(has_text="Done in").wait_for()
        tab.wait_for_timeout(20)
    csp += tab.evaluate("window.__csp")
    # Controls: the instruments do see a payload run, and a CSP violation, when there is one.
    reader_dialogs, reader_csp = len(dialogs), csp
    visit(server.add("/control.html", "<img src=x onerror=alert(1)>", headers={"Content-Type": "text/html"}))
    visit(server.add("/guarded.html", "<img src=x onerror=alert(1)>",
                     headers={"Content-Type": "text/html", "Content-Security-Policy": "script-src 'self'"}))
    assert len(dialogs) == reader_dialogs + 1 and csp == reader_csp + 1
    dialogs, csp = dialogs[:reader_dialogs], reader_csp
    context.close()
    record("xss", "XSS: payloads in feed titles, summaries, authors, tags, extracted pages and the demo widget, "
                  "in Chromium with the CSP", {
        "payloads": len(items), "stories ingested": len(items), "articles extracted": extracted,
        "pages rendered": pages - 2, "widget extractions": len(batches), "dialogs (script ran)": len(dialogs),
        "CSP violations": csp,
    }, "0 dialogs, 0 CSP violations")
    assert len(items) >= 150
    assert dialogs == []
    assert csp == 0
