"""Error pages a person can meet (no such page, an expired form, a server fault) look like the rest of the site, say
what to do next and keep to the strict Content-Security-Policy. These are the production pages (DEBUG off); with
DEBUG on, Django shows its own technical 404 and 500 pages instead."""
import re

import pytest
from django.test import Client, RequestFactory
from django.views import defaults

from ui_factories import ann, client_ann  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def inline_style_or_script(html: str) -> list[str]:
    """What the CSP (style-src 'self', script-src 'self') would refuse: <style>, inline <script>, style=""."""
    return (re.findall(r"<style\b", html, re.I) + re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html, re.I)
            + re.findall(r"<[^>]+\sstyle\s*=", html, re.I))


def test_a_missing_page_offers_the_way_back(client_ann):
    response = client_ann.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in html and "/no-such-page/" in html
    assert 'href="/"' in html and "Go to your feed" in html and 'aria-label="Main"' in html
    assert inline_style_or_script(html) == []


def test_a_story_of_another_account_is_the_same_page_not_found(client_ann):
    response = client_ann.get("/stories/424242/")
    assert response.status_code == 404 and "Page not found" in response.content.decode()


def test_a_missing_page_for_a_visitor_offers_the_login():
    response = Client().get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404 and 'href="/accounts/login/"' in html and "Go to your feed" not in html


def test_an_expired_form_says_to_reload_and_try_again(ann):
    """A stale tab's form (its token from before a logout and login elsewhere) fails the CSRF check."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    client.get("/taste/")  # sets the CSRF cookie
    response = client.post("/taste/signals", {"csrfmiddlewaretoken": "x" * 64})
    html = response.content.decode()
    assert response.status_code == 403
    assert "This form has expired" in html and "reload the page and try again" in html
    assert 'aria-label="Main"' in html and inline_style_or_script(html) == []
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_a_form_without_the_cookie_says_to_allow_cookies(ann):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    html = client.post("/taste/signals", {}).content.decode()
    assert "Allow cookies for this site" in html


def test_the_api_still_answers_csrf_failures_in_json(ann):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    response = client.post("/api/stories/1/save", "{}", content_type="application/json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"


def test_forbidden_and_server_error_pages_are_the_sites_own(ann):
    request = RequestFactory().get("/somewhere/")
    request.user = ann
    forbidden = defaults.permission_denied(request, Exception()).content.decode()
    assert "<h1>Not allowed</h1>" in forbidden and inline_style_or_script(forbidden) == []
    failed = defaults.server_error(request)  # rendered without the request, as Django does
    html = failed.content.decode()
    assert failed.status_code == 500 and "<h1>Something went wrong</h1>" in html
    assert "reader.css" in html and inline_style_or_script(html) == []
