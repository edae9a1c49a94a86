"""The ranking in the browser (issue 18): a new account's first feed page is ranked by the crowd and feed priors,
and other readers' votes on an unread story move it for this reader before the next crowd fit.

Goes through the real Celery worker: the new reader's feed is scored, and the story's readers rescored, there.
"""
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from conftest import wait_for
from e2e.browser import both_schemes, log_in, ready, sign_up
from ranking_crowd import crowd_likes_ferries, entries_for, make_desk, snapshot  # noqa: F401
from reader.models import Entry, Rating, Story, Subscription
from reader.ranking import scores
from ui_factories import make_feed, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

QUIET = ["Lighthouse keeper", "Orchard blossom", "Chess tournament", "Glacier survey"]


def quiet_desk():
    """A feed nobody has voted on, on another site, with words no voted story uses: nothing tells its stories
    apart for a new reader."""
    feed = make_feed(url="https://quiet.example/feed.xml", title="Quiet desk")
    now = timezone.now()
    for n, subject in enumerate(QUIET):
        Story.objects.create(feed=feed, guid=f"quiet{n}", url=f"https://quiet.example/{n}", title=subject,
                             extracted_text=f"{subject} notes, item {'abcd'[n]}.", extraction_status="done",
                             published=now - timedelta(hours=2 * n + 1))
    return feed


def shown(page) -> list[dict]:
    """The feed page's entries, top to bottom: title, score, recommended, reasons."""
    return page.locator("[data-entries] .entry").evaluate_all("""entries => entries.map(e => ({
        title: e.querySelector('.title a').textContent.trim(),
        score: Number(e.dataset.score),
        recommended: !!e.querySelector('.badge'),
        reasons: [...e.querySelectorAll('.reasons li')].map(li => li.textContent.trim())}))""")


def test_a_new_accounts_first_feed_is_ranked_by_the_crowd_and_dated(page, celery_worker_process, snapshot):
    feed, stories = make_desk()
    crowd_likes_ferries(stories)  # four readers: the first four ferry stories good, football ones bad
    snapshot()
    quiet = quiet_desk()

    sign_up(page, "newcomer")
    for url in (feed.url, quiet.url):
        page.goto("/subscriptions/")
        page.get_by_label("Feed or site address").fill(url)
        page.get_by_role("button", name="Subscribe", exact=True).click()
        page.wait_for_url("**/subscriptions/progress?feeds=*")
    newcomer = Subscription.objects.get(feed=feed).user
    wait_for(lambda: not Entry.objects.filter(user=newcomer, score=0.5).exists()
             and Entry.objects.filter(user=newcomer).count() == 16, 60, message="the worker to score the new feeds")

    page.goto("/")  # the first page a reader sees: recommended stories, each with its reason
    ready(page)
    first = shown(page)
    assert sorted(e["title"] for e in first) == sorted(s.title for s in stories["ferry"])
    assert all(e["recommended"] and "other readers like stories on this subject" in e["reasons"] for e in first)
    page.goto("/?filter=all")
    ready(page)
    entries = shown(page)
    assert len(entries) == 16 and all(e["score"] != 0.5 for e in entries)
    order = [e["title"] for e in entries]
    ferries = [i for i, t in enumerate(order) if t.startswith("ferry")]
    football = [i for i, t in enumerate(order) if t.startswith("football")]
    assert max(ferries) < min(football)  # the crowd likes ferries, dislikes football
    assert all(e["recommended"] for e in entries if e["title"].startswith("ferry"))
    assert not any(e["recommended"] for e in entries if not e["title"].startswith("ferry"))
    assert all(e["reasons"] for e in entries if e["recommended"])  # recommended, and says why
    # nothing tells the quiet desk's stories apart: equal scores, shown newest first
    quiet_shown = [e for e in entries if e["title"] in QUIET]
    assert len({e["score"] for e in quiet_shown}) == 1
    assert [e["title"] for e in quiet_shown] == QUIET
    both_schemes(page, "cold-start")
    assert page.js_errors == []


def vote_good(browser, web, username: str, title: str) -> None:
    """Another reader, in their own browser, rates the story good from their feed page."""
    context = browser.new_context(base_url=web.url, viewport={"width": 1100, "height": 900})
    tab = context.new_page()
    log_in(tab, username, "a-long-passphrase-1")
    tab.goto("/?filter=all")
    ready(tab)
    entry = tab.locator("[data-entries] .entry", has=tab.get_by_role("link", name=title, exact=True))
    good = entry.get_by_role("button", name=re.compile("^Good:"))
    good.click()
    expect(good).to_have_attribute("aria-pressed", "true")
    context.close()


def test_other_readers_votes_move_an_unread_story_for_this_reader(page, browser, web, celery_worker_process,
                                                                   monkeypatch):
    monkeypatch.setattr(scores, "CROWD_DELAY", 0.0)  # the web process queues the rescoring at once
    dora = make_user("dora")
    feed, stories = make_desk(dora)
    entries_for(dora, stories["ferry"] + stories["football"])
    scores.retrain(dora.id)  # no ratings and no crowd yet: every story scored alike, newest first
    target = stories["ferry"][-1].title  # the second oldest story

    log_in(page, "dora", "a-long-passphrase-1")
    page.goto("/?filter=all")
    ready(page)
    before = {e["title"]: e for e in shown(page)}
    order_before = list(before)
    assert order_before.index(target) == 10 and len({e["score"] for e in before.values()}) == 1
    assert not before[target]["recommended"]

    voters = [make_user(f"voter{n}") for n in range(4)]
    for voter in voters:
        Subscription.objects.create(user=voter, feed=feed)
        entries_for(voter, [stories["ferry"][-1]])
        vote_good(browser, web, voter.username, target)
    wait_for(lambda: Rating.objects.filter(story__title=target, value=Rating.GOOD).count() == 4, 10)

    def moved():
        page.reload()
        ready(page)
        return [e["title"] for e in shown(page)][0] == target

    wait_for(moved, 60, interval=1.0, message="the worker to rescore the story for dora")
    after = {e["title"]: e for e in shown(page)}
    assert after[target]["score"] > before[target]["score"]
    assert "other readers rated this story good" in after[target]["reasons"]
    assert after[target]["recommended"]
    # only the voted story moved: the others keep their scores and their order
    others = [t for t in after if t != target]
    assert others == [t for t in order_before if t != target]
    assert all(after[t]["score"] == before[t]["score"] for t in others)
    assert not Rating.objects.filter(user=dora).exists()  # dora rated nothing: the crowd moved it
    both_schemes(page, "live-crowd")
    assert page.js_errors == []
