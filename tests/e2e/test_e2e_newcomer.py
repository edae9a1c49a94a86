"""What a newcomer meets in the first minutes, in light and dark, on a desktop and a 390 px phone: pages that say
what to do next, no sideways scrolling, and text that meets WCAG AA contrast (4.5:1, 3:1 for large text)."""
import re

import pytest
from playwright.sync_api import expect

from e2e.browser import log_in, ready, sign_up
from ui_factories import make_entries, make_feed, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Every visible text node's colour against the first opaque background behind it: [(text, ratio, needed)].
LOW_CONTRAST = """() => {
  const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const parse = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const backdrop = el => {
    for (; el; el = el.parentElement) {
      const c = parse(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || c[3] > 0.5) return luminance(c);
    }
    return luminance(parse(getComputedStyle(document.documentElement).backgroundColor));
  };
  const low = [];
  for (const el of document.querySelectorAll("body *")) {
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || !el.getClientRects().length || el.closest(".visually-hidden")) continue;
    const fg = luminance(parse(style.color)), bg = backdrop(el);
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (size >= 18.6 && bold) ? 3 : 4.5;
    if (ratio < needed) low.push([el.textContent.trim().slice(0, 40), +ratio.toFixed(2), needed]);
  }
  return low;
}"""


# The same for the placeholder of every field (the widget's, in its shadow root, too): the only visible hint in a
# search box. [(placeholder, ratio)] below 4.5:1, the placeholder's colour blended over the field's background.
LOW_CONTRAST_PLACEHOLDERS = """() => {
  const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const parse = c => {
    const n = (c.match(/[\\d.]+/g) || []).map(Number);
    return c.startsWith("color(") ? [n[0] * 255, n[1] * 255, n[2] * 255, n.length > 3 ? n[3] : 1]
                                  : [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const backdrop = el => {
    for (; el; el = el.parentElement || el.getRootNode().host) {
      const c = parse(getComputedStyle(el).backgroundColor);
      if (c[3] > 0.5) return c;
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor);
  };
  const fields = [...document.querySelectorAll("[placeholder]")];
  for (const host of document.querySelectorAll("[data-extract-widget]"))
    if (host.shadowRoot) fields.push(...host.shadowRoot.querySelectorAll("[placeholder]"));
  const low = [];
  for (const field of fields) {
    if (!field.getClientRects().length) continue;
    const bg = backdrop(field), fg = parse(getComputedStyle(field, "::placeholder").color);
    const seen = [0, 1, 2].map(i => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
    const a = luminance(seen), b = luminance(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push([field.placeholder, +ratio.toFixed(2)]);
  }
  return low;
}"""

@pytest.mark.parametrize("width", [1100, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_feed_story_and_subscriptions_text_is_readable(page, width, scheme):
    reader = make_user("contrast")
    make_entries(reader, make_feed(reader, title="Harbour desk"), [0.93, 0.41], recommended=True)
    log_in(page, "contrast", "a-long-passphrase-1")
    page.set_viewport_size({"width": width, "height": 844})
    page.emulate_media(color_scheme=scheme)
    for path in ("/?filter=all", "/subscriptions/", "/taste/", "/extract/"):
        page.goto(path)
        ready(page)
        assert page.evaluate(LOW_CONTRAST) == [], (path, scheme)
        assert page.evaluate(LOW_CONTRAST_PLACEHOLDERS) == [], (path, scheme)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (path, width)
    page.goto("/?filter=all")
    page.locator(".entry .title a").first.click()
    page.wait_for_url("**/stories/**")
    ready(page)
    assert page.evaluate(LOW_CONTRAST) == [], ("story", scheme)
    assert page.js_errors == []


def test_a_new_account_is_shown_where_to_start(page):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_up(page, "firstday")
    expect(page.get_by_text("No feeds yet. Add one above, or import an OPML file")).to_be_visible()
    page.get_by_role("link", name="Feed").first.click()
    ready(page)
    expect(page.locator(".empty")).to_contain_text("You follow no feeds yet.")
    page.locator(".empty").get_by_role("link", name="Add a feed or a site").click()
    page.wait_for_url("**/subscriptions/")
    assert page.js_errors == []


def test_on_a_phone_the_feed_list_says_which_time_is_which(page):
    """The table's header row is hidden on a phone; each stacked cell carries its own label instead."""
    reader = make_user("phone")
    make_feed(reader, title="Harbour desk")
    log_in(page, "phone", "a-long-passphrase-1")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/subscriptions/")
    row = page.locator(".feeds tbody tr").first
    shown = row.evaluate("tr => [...tr.querySelectorAll('td')].map(td => getComputedStyle(td, '::before').content)")
    assert shown[:3] == ['"Last fetch: "', '"Next fetch: "', '"Health: "']
    expect(row).to_contain_text("Harbour desk")
    page.set_viewport_size({"width": 1100, "height": 900})
    assert row.evaluate("tr => getComputedStyle(tr.querySelector('td'), '::before').content") == "none"



def test_on_a_desktop_the_folders_feed_tables_line_up(page):
    """Each folder is a table of its own: its columns sat where its own text put them, so Health and Folder moved
    from one folder to the next, and a short feed name squeezed its address into a few letters a line."""
    reader = make_user("tables")
    make_feed(reader, url="https://a.example/feed", title="Alps desk", folder="Hills")
    broken = make_feed(reader, url="https://harbour.example/news/feed.xml", title="Harbour", folder="Sea")
    broken.last_error, broken.error_count = "https://harbour.example/news/feed.xml answered HTTP 404", 1
    broken.save()
    log_in(page, "tables", "a-long-passphrase-1")
    page.goto("/subscriptions/")
    lefts = page.evaluate("""() => [...document.querySelectorAll(".feeds")]
      .map(table => [...table.querySelectorAll("thead th")].map(th => Math.round(th.getBoundingClientRect().left)))""")
    assert len(lefts) == 2 and lefts[0] == lefts[1], lefts
    address = page.locator(".feeds .url", has_text="harbour.example").bounding_box()
    assert address["width"] >= 150, address  # a few lines, not a letter column (under 110 px before)
    spilled = page.evaluate("""() => [...document.querySelectorAll(".feeds td, .feeds th")]
      .filter(cell => cell.scrollWidth > cell.clientWidth + 1).map(cell => cell.textContent.trim().slice(0, 30))""")
    assert spilled == []  # the error's address and the Unsubscribe button stay inside their columns
    assert page.js_errors == []

# WCAG 2.2's 2.5.8: a control (links in running text aside) is at least 24 x 24 CSS px. [(name, width, height)]
SMALL_TARGETS = """() => [...document.querySelectorAll("button, select, summary, .filters a, .tree a")]
  .filter(el => el.getClientRects().length && !el.closest("dialog:not([open]), [hidden]"))
  .map(el => [(el.getAttribute("aria-label") || el.textContent).trim().slice(0, 40), el.getBoundingClientRect()])
  .filter(([, box]) => box.width < 24 || box.height < 24)
  .map(([name, box]) => [name, Math.round(box.width), Math.round(box.height)])"""


def test_controls_are_big_enough_to_tap_and_say_what_they_do(page, monkeypatch):
    from types import SimpleNamespace

    from reader.ranking import scores
    monkeypatch.setattr(scores, "taste_summary", lambda user_id, model: SimpleNamespace(
        likes=[("word", "ferry", 1.2), ("author", "mira holm", 0.8)], dislikes=[("tag", "transfer rumours", -0.9)],
        good_ratings=3, bad_ratings=2), raising=False)
    reader = make_user("thumbs")
    make_entries(reader, make_feed(reader, title="Harbour desk", folder="Local"), [0.93, 0.41], recommended=True)
    log_in(page, "thumbs", "a-long-passphrase-1")
    page.set_viewport_size({"width": 390, "height": 844})
    # A folder's view opens the feeds and folders list: its links are stacked, one a line.
    for path in ("/?filter=all", "/?filter=all&folder=Local", "/taste/", "/subscriptions/"):
        page.goto(path)
        ready(page)
        assert page.evaluate(SMALL_TARGETS) == [], path
    # The help button shows only "?": its name says what it opens.
    page.get_by_role("button", name="Keyboard shortcuts (?)").click()
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    assert page.js_errors == []


def test_a_saved_storys_button_is_named_as_it_reads(page):
    """The button reads Saved once pressed; a screen reader or voice control gets the same word in its name."""
    reader = make_user("keeper")
    make_entries(reader, make_feed(reader), [0.93, 0.41])
    log_in(page, "keeper", "a-long-passphrase-1")
    page.goto("/?filter=all")
    ready(page)
    page.get_by_role("button", name="Save “Story 0” for later").click()
    saved = page.get_by_role("button", name="Saved “Story 0” for later")
    expect(saved).to_have_text("Saved")
    expect(saved).to_have_attribute("aria-pressed", "true")
    page.reload()
    ready(page)
    expect(page.get_by_role("button", name="Saved “Story 0” for later")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Saved “Story 0” for later").click()
    expect(page.get_by_role("button", name="Save “Story 0” for later")).to_have_text("Save")
    assert page.js_errors == []


def test_password_rules_are_read_with_the_password_field(page):
    """The rules are a list; inside a <p> (form.as_p) the browser moved the list out of the help text, so the
    field's description (aria-describedby) was empty and a screen reader never heard the rules."""
    page.goto("/accounts/signup/")
    expect(page.get_by_label(re.compile("^Password:?$"))).to_have_accessible_description(
        re.compile("at least 8 characters"))
    sign_up(page, "rules")
    page.goto("/accounts/password_change/")
    expect(page.get_by_label(re.compile("^New password:?$"))).to_have_accessible_description(
        re.compile("at least 8 characters"))
    assert page.js_errors == []
