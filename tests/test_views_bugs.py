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
