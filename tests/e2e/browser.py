"""What a person does in the browser, as helpers for the end-to-end tests; and the screenshots they save."""
from __future__ import annotations

import re
from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def screenshot(page, name: str, *, dark: bool = False, full_page: bool = True) -> Path:
    """Save docs/screenshots/<name>-light.png or -dark.png (the README shows them)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(color_scheme="dark" if dark else "light")
    path = SCREENSHOTS / f"{name}-{'dark' if dark else 'light'}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    page.emulate_media(color_scheme="light")
    return path


def both_schemes(page, name: str) -> None:
    screenshot(page, name)
    screenshot(page, name, dark=True)


def sign_up(page, username: str = "reader1", password: str = "quiet-harbour-2718") -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile("^Password:?$")).fill(password)
    page.get_by_label(re.compile("^Password confirmation")).fill(password)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url("**/subscriptions/")


def log_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile("^Password")).fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/(\?.*)?$"))


def ready(page) -> None:
    """Wait until the page script has enhanced the page (buttons, keys), not just until the HTML is there."""
    page.wait_for_selector("html[data-js=ready]", state="attached")
