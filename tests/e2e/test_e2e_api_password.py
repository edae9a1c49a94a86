"""The Apps page in the browser, on a desktop and a 390 px phone: reached from the nav, it makes an API password,
shows it once, takes one of the user's own (refusing a short one), and turns the API off; the password it shows
signs an app in over HTTP (ClientLogin), and stops working when it is replaced or turned off."""
import json
import urllib.error
import urllib.request

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from e2e.browser import log_in, ready
from reader.models import ApiPassword
from ui_factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(VIEWPORTS))
def signed_in(request, page, settings):
    cache.clear()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    page.set_viewport_size(VIEWPORTS[request.param])
    make_user("noor")
    log_in(page, "noor", "a-long-passphrase-1")
    ready(page)
    return page


def client_login(base: str, password: str) -> int:
    """An app's sign-in: POST Email and Passwd to ClientLogin, the way every Google Reader app starts."""
    body = f"Email=noor&Passwd={password}&output=json".encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(base + "accounts/ClientLogin", body), timeout=10) as r:
            return r.status if "Auth" in json.loads(r.read()) else 0
    except urllib.error.HTTPError as error:
        return error.code


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), page.url


def test_apps_page_makes_shows_once_replaces_and_turns_off(signed_in, web):
    page = signed_in
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Apps").click()
    page.wait_for_url("**/settings/api")
    expect(page.locator("[data-api-state]")).to_contain_text("off")
    expect(page.get_by_text(f"{web.url}/api/greader/")).to_be_visible()
    no_sideways_scroll(page)

    page.get_by_role("button", name="Make a password for me").click()
    secret = page.locator("[data-api-password]")
    expect(secret).to_be_visible()
    made = secret.inner_text()
    assert len(made) >= 20 and ApiPassword.objects.filter(user__username="noor").exists()
    no_sideways_scroll(page)
    assert client_login(f"{web.url}/", made) == 200
    assert client_login(f"{web.url}/api/greader/", made) == 200

    page.goto("/settings/api")  # a fresh visit (a reload would send the form again)
    expect(page.locator("[data-api-password]")).to_have_count(0)  # shown once
    expect(page.locator("[data-api-state]")).to_contain_text("on")

    page.get_by_label("Your own API password").fill("short")
    page.get_by_role("button", name="Use this password").click()
    expect(page.get_by_text("at least 12 characters")).to_be_visible()
    page.get_by_label("Your own API password").fill("noor-reads-on-the-train")
    page.get_by_role("button", name="Use this password").click()
    expect(page.locator("[data-api-password]")).to_have_text("noor-reads-on-the-train")
    assert client_login(f"{web.url}/", made) == 401
    assert client_login(f"{web.url}/", "noor-reads-on-the-train") == 200

    page.get_by_role("button", name="Turn off API access").click()
    expect(page.locator("[data-api-state]")).to_contain_text("off")
    assert client_login(f"{web.url}/", "noor-reads-on-the-train") == 401
    no_sideways_scroll(page)
    assert not page.js_errors
