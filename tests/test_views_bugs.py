"""Issue 19's bugs: the admin's favicon, doubled warnings, debug error pages under the CSP, the admin's fetch
interval and method filter, the /extract/ embed snippet on a phone (in tests/e2e)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from reader.admin import duration
from reader.models import Feed

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client():
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="a-long-passphrase-1"))
    return client


def test_favicon_ico_leads_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("/reader/favicon.svg")
    assert (ROOT / "static" / "reader" / "favicon.svg").read_text().startswith("<svg")


def test_a_django_warning_is_logged_once():
    code = ("import django, logging; django.setup(); "
            "logging.getLogger('django.request').warning('marker-%s', 'once')")
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": "x", "DJANGO_SETTINGS_MODULE": "reader.settings"}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert (run.stdout + run.stderr).count("marker-once") == 1, run.stderr


def test_debug_error_pages_may_use_their_inline_style_and_normal_pages_may_not(client, settings):
    settings.DEBUG = True
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404 and b"<style" in missing.content
    assert "style-src 'self' 'unsafe-inline'" in missing["Content-Security-Policy"]
    assert "unsafe-inline" not in client.get("/accounts/login/")["Content-Security-Policy"]
    settings.DEBUG = False
    assert "unsafe-inline" not in client.get("/no-such-page/")["Content-Security-Policy"]


def test_admin_shows_the_fetch_interval_readably_and_names_the_default_method(admin_client, settings):
    Feed.objects.create(url="https://a.example/feed", fetch_interval=43800)
    Feed.objects.create(url="https://b.example/feed", extraction_method="clump")
    html = admin_client.get("/admin/reader/feed/").content.decode()
    assert "12 h 10 min" in html and "43800" not in html
    assert f"site default ({settings.EXTRACTION_METHOD})" in html
    default = admin_client.get("/admin/reader/feed/?method=default").content.decode()
    assert "a.example" in default and "b.example" not in default
    assert [duration(s) for s in (0, 59, 3600, 90061)] == ["0 s", "59 s", "1 h", "1 d 1 h"]


def test_names_in_reasons_and_rules_are_shown_as_the_feed_wrote_them():
    """Bug 5: the recommender keeps names lower-cased; the pages show them as the stories write them."""
    from reader.web.as_written import Names
    from reader.models import Entry, Rule, Story
    from ui_factories import make_feed, make_story, make_user

    ann = make_user("ann")
    feed = make_feed(ann, title="Nordic Wire")
    story = make_story(feed, 0, title="Ferry strike ends in Helsinki", author="Henrik Aaltonen",
                       tags=["Baltic Sea"])
    Entry.objects.create(user=ann, story=story, reasons=[
        "by “henrik aaltonen”, whose stories you liked", "you liked stories about “helsinki”",
        "from “nordic wire”, which you usually rate good", "you liked stories about “strike”",
        "you liked stories about “ferry”"])
    make_story(feed, 1, title="Helsinki votes", author="HENRIK AALTONEN")
    make_story(feed, 2, title="Talks in helsinki")
    make_story(feed, 3, title="Snow falls on Helsinki")
    client = Client()
    client.force_login(ann)
    html = client.get("/?filter=all").content.decode()
    assert "by “Henrik Aaltonen”" in html and "about “Helsinki”" in html
    assert "from “Nordic Wire”" in html and "aaltonen”" not in html
    reading = client.get(f"/stories/{story.id}/").content.decode()
    assert "by “Henrik Aaltonen”" in reading and "about “strike”" in reading
    assert "about “ferry”" in reading  # "Ferry" opens the title: a capital that says nothing about the word
    for n in (1, 2, 3):
        Entry.objects.create(user=ann, story=Story.objects.get(guid=f"g{n}"))
    names = Names(ann)
    assert names.show("word", "helsinki") == "Helsinki"  # the commonest form in the titles
    assert names.show("tag", "baltic sea") == "Baltic Sea"
    assert names.show("word", "nowhere") == "nowhere"
    Rule.objects.create(user=ann, kind="author", value="henrik aaltonen", action="show")
    assert "with author “Henrik Aaltonen”" in client.get("/taste/").content.decode()
