"""Browser fixtures for the end-to-end tests: Debian's Chromium driven by Playwright, against live_server.

The browser is told that every host name except the loopback ones does not exist, so a test can never
reach beyond this machine even by mistake.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make there are
# ordinary blocking calls, which Django would otherwise refuse.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"The end-to-end tests need Debian's Chromium at {CHROMIUM}: run `apt-get install -y chromium`",
                    pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def web(settings, live_server):
    """Settings for the live server: plain-http cookies (the test server has no TLS)."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    return live_server


@pytest.fixture
def page(browser, web):
    context = browser.new_context(base_url=web.url, viewport={"width": 1100, "height": 900}, color_scheme="light")
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    # Script errors, not the browser's notes on HTTP errors the tests provoke on purpose.
    tab.on("console", lambda msg: errors.append(msg.text)
           if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    tab.js_errors = errors
    yield tab
    context.close()
