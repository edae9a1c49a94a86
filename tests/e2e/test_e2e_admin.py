"""The admin as an operator meets it: a feed's change page fits the window."""
import pytest
from django.contrib.auth.models import User

from reader.models import Feed

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_feed_change_page_keeps_the_method_choice_inside_the_form(page):
    User.objects.create_superuser("root", password="a-long-passphrase-1")
    feed = Feed.objects.create(url="https://news.example/feed", title="News")
    page.goto("/admin/login/")
    page.get_by_label("Username").fill("root")
    page.get_by_label("Password").fill("a-long-passphrase-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/admin/")
    for viewport in ({"width": 1100, "height": 900}, {"width": 390, "height": 844}):
        page.set_viewport_size(viewport)
        page.goto(f"/admin/reader/feed/{feed.id}/change/")
        choice = page.get_by_label("Extraction method").bounding_box()
        form = page.locator("fieldset").first.bounding_box()
        assert choice["x"] + choice["width"] <= form["x"] + form["width"], viewport
    assert page.js_errors == []
