"""The pages render for their owner only, carry a strict CSP, and never show unsanitized HTML."""
import re

import pytest
from django.test import Client

from reader.models import Entry, Story
from ui_factories import ann, client_ann, make_entries, make_feed, make_user  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def inline_code(html: str) -> list[str]:
    """Inline <script> bodies and on* handler attributes: the CSP forbids both."""
    scripts = [m for m in re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html, re.I)]
    handlers = re.findall(r"<[^>]+\son[a-z]+\s*=", html, re.I)
    return scripts + handlers


@pytest.mark.parametrize("path", ["/", "/?filter=all", "/subscriptions/", "/extract/", "/accounts/login/",
                                  "/accounts/signup/", "/accounts/password_change/"])
def test_pages_have_a_strict_csp_and_no_inline_script(client_ann, path):
    response = client_ann.get(path)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert inline_code(response.content.decode()) == []


def test_pages_need_a_login():
    for path in ("/", "/subscriptions/", "/taste/", "/stories/1/"):
        response = Client().get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_feed_shows_title_feed_snippet_liking_and_reasons(ann, client_ann):
    feed = make_feed(ann, title="Harbour desk")
    make_entries(ann, feed, [0.83], reasons=["you liked stories about “ferry”"])
    html = client_ann.get("/?filter=all").content.decode()
    assert "Story 0" in html and "Harbour desk" in html and "Teaser 0" in html
    assert "83%" in html and "you liked stories about “ferry”" in html
    assert 'aria-label="Good: more like “Story 0”"' in html


def test_feed_pages_by_cursor_and_partial_returns_only_items(ann, client_ann, monkeypatch):
    from reader.web import stream
    monkeypatch.setattr(stream, "PAGE_SIZE", 2)
    make_entries(ann, make_feed(ann), [0.9, 0.8, 0.7])
    first = client_ann.get("/?filter=all").content.decode()
    more = re.search(r'data-more href="([^"]+)"', first).group(1).replace("&amp;", "&")
    second = client_ann.get(more + "&partial=1").content.decode()
    assert "Story 2" in second and "Story 0" not in second and "<html" not in second
    assert client_ann.get("/?cursor=garbage").status_code == 404


def test_reading_view_shows_the_article_sanitized_and_changes_nothing(ann, client_ann):
    feed = make_feed(ann)
    entry = make_entries(ann, feed, [0.5])[0]
    Story.objects.filter(id=entry.story_id).update(
        extracted_html='<p>The full article.</p><script>alert(1)</script><img src="x" onerror="alert(2)">',
        extracted_text="The full article, longer than the feed's teaser.", extraction_status="done", extraction_method="clump", author="Mira Holm",
        lead_image="https://news.example/lead.jpg")
    html = client_ann.get(f"/stories/{entry.story_id}/").content.decode()
    assert "The full article." in html and "Mira Holm" in html and "clump" in html
    assert "alert(" not in html and "onerror" not in html
    assert 'src="https://news.example/lead.jpg"' in html and 'href="https://news.example/0"' in html
    assert not Entry.objects.get(id=entry.id).read  # a GET changes nothing: the page script marks it read
    feed_view = client_ann.get(f"/stories/{entry.story_id}/?source=feed").content.decode()
    assert "Teaser 0" in feed_view and "The full article." not in feed_view


def test_reading_view_links_only_to_web_addresses(ann, client_ann):
    entry = make_entries(ann, make_feed(ann), [0.5])[0]
    Story.objects.filter(id=entry.story_id).update(url="javascript:alert(1)", lead_image="data:text/html,x")
    html = client_ann.get(f"/stories/{entry.story_id}/").content.decode()
    assert "javascript:" not in html and "data:text/html" not in html and "Teaser 0" in html


def test_reading_view_links_previous_and_next_in_feed_order(ann, client_ann):
    top, middle, last = make_entries(ann, make_feed(ann), [0.9, 0.5, 0.1])
    html = client_ann.get(f"/stories/{middle.story_id}/?filter=all").content.decode()
    assert re.search(rf'href="/stories/{top.story_id}/\?filter=all" rel="prev"', html)
    assert re.search(rf'href="/stories/{last.story_id}/\?filter=all" rel="next"', html)


def test_another_users_story_is_404(ann, client_ann):
    bob = make_user("bob")
    entry = make_entries(bob, make_feed(bob, url="https://bob.example/f"), [0.5])[0]
    assert client_ann.get(f"/stories/{entry.story_id}/").status_code == 404
    assert client_ann.post(f"/stories/{entry.story_id}/rate", {"rating": "good"}).status_code == 404
    assert client_ann.post(f"/stories/{entry.story_id}/save", {"saved": "true"}).status_code == 404


def test_forms_work_without_javascript(ann, client_ann):
    entry = make_entries(ann, make_feed(ann), [0.5])[0]
    response = client_ann.post(f"/stories/{entry.story_id}/save", {"saved": "true", "next": "/?filter=saved"})
    assert response["Location"] == "/?filter=saved"
    assert Entry.objects.get(id=entry.id).saved
    # nor to a view named by the text: "-1" or "%FF" was a 500, "logout" led to the logout page
    for elsewhere in ("//evil.example/", "https://evil.example/", "/\\evil.example/", "-1", "%FF", "logout"):
        off_site = client_ann.post(f"/stories/{entry.story_id}/rate", {"rating": "good", "next": elsewhere})
        assert off_site["Location"] == "/"
    assert ann.ratings.get().value == 1


def test_staff_see_the_admin_link(ann, client_ann):
    assert "/admin/" not in client_ann.get("/").content.decode()
    ann.is_staff = True
    ann.save()
    assert 'href="/admin/"' in client_ann.get("/").content.decode()


def test_sign_up_log_out_log_in_and_change_password():
    client = Client()
    response = client.post("/accounts/signup/", {"username": "cleo", "password1": "tidal-basin-9876",
                                                 "password2": "tidal-basin-9876"})
    assert response.status_code == 302
    assert client.get("/").status_code == 200
    response = client.post("/accounts/password_change/", {"old_password": "tidal-basin-9876",
                                                          "new_password1": "harbour-lights-5432",
                                                          "new_password2": "harbour-lights-5432"})
    assert response["Location"] == "/accounts/password_change/done/"
    client.post("/accounts/logout/")
    assert client.get("/").status_code == 302
    assert not client.login(username="cleo", password="tidal-basin-9876")
    assert client.login(username="cleo", password="harbour-lights-5432")


@pytest.mark.parametrize("path", ["/", "/?filter=unread", "/?filter=saved", "/?q=harbour"])
def test_a_new_account_is_told_to_add_feeds_on_every_view(client_ann, path):
    """A newcomer with no subscriptions lands on Recommended: it says what to do, not "Nothing here right now"."""
    html = client_ann.get(path).content.decode()
    assert "You follow no feeds yet." in html and 'href="/subscriptions/">Add a feed or a site</a>' in html
    assert "Nothing here right now" not in html


def test_an_empty_view_of_a_reader_with_feeds_offers_all_stories(ann, client_ann):
    make_feed(ann, title="Harbour desk")
    html = client_ann.get("/").content.decode()
    assert "Nothing here right now" in html and "You follow no feeds yet." not in html
