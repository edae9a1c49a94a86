"""Import an OPML file, watch the feeds being fetched and their stories arrive, export the list again."""
import re

import pytest
from playwright.sync_api import expect

from e2e.browser import sign_up
from e2e.news_site import STORIES, publish
from reader import queue
from reader.ingestion import opml_import
from reader.models import Feed
from reader.tasks import fetch_feed, fetch_story_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OPML = """<?xml version="1.0" encoding="utf-8"?>
<opml version="2.0"><head><title>My feeds</title></head><body>
<outline text="Local"><outline type="rss" text="Harbour Gazette" xmlUrl="{harbour}"/></outline>
<outline type="rss" text="Football weekly" xmlUrl="{football}"/>
</body></opml>"""


def test_import_shows_progress_then_export_lists_the_feeds(page, server, allow_loopback, tmp_path, monkeypatch):
    queued, send_task = [], queue.app.send_task

    def send(name, args=(), *rest, **options):
        if name == queue.FETCH_FEED:
            queued.append(args[0])  # this test fetches in-process, below
        elif name == queue.IMPORT_OPML:
            opml_import.run(*args)  # the import task, run by the web thread here
        else:
            return send_task(name, args, *rest, **options)

    monkeypatch.setattr(queue.app, "send_task", send)
    monkeypatch.setattr(fetch_story_page, "delay", lambda story_id: None)
    harbour = publish(server, "/harbour.xml", STORIES[:3], "Harbour Gazette")
    football = publish(server, "/football.xml", STORIES[3:], "Football weekly")
    opml_file = tmp_path / "feeds.opml"
    opml_file.write_text(OPML.format(harbour=harbour, football=football))

    sign_up(page, "opml-reader")
    page.get_by_label("Import an OPML file").set_input_files(str(opml_file))
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_url("**/subscriptions/import/*/")
    expect(page.locator(".import-summary")).to_contain_text("Done: 2 of 2 feeds in the file read: 2 subscribed")
    page.get_by_role("link", name="Follow the first fetches").click()
    page.wait_for_url("**/subscriptions/progress?feeds=*")
    expect(page.locator("[data-progress] li")).to_have_count(2)
    expect(page.locator("[data-progress-summary]")).to_contain_text("0 of 2 feeds fetched")

    # The worker's job, done here one feed at a time so the page can be seen catching up.
    ids = sorted(queued)
    assert ids == sorted(Feed.objects.values_list("id", flat=True))
    fetch_feed(ids[0])
    expect(page.locator("[data-progress-summary]")).to_contain_text("1 of 2 feeds fetched")
    fetch_feed(ids[1])
    expect(page.locator("[data-progress] li").first).to_contain_text("3 stories")
    expect(page.locator("[data-progress] li").last).to_contain_text("3 stories")

    with page.expect_download() as download:
        page.goto("/subscriptions/")
        page.get_by_role("link", name=re.compile("Export your subscriptions")).click()
    exported = download.value.path().read_text()
    assert harbour in exported and football in exported
    assert download.value.suggested_filename == "subscriptions.opml"
    assert page.js_errors == []
