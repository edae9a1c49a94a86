"""The healing sweep (reader/ingestion/healing.py) queues again the pages and feeds a dead worker's broker lost,
once, and leaves work that is merely waiting alone."""
from datetime import timedelta

import pytest
from django.utils import timezone

from conftest import wait_for
from reader.ingestion import healing, politeness
from reader import tasks
from reader.ingestion.batches import batches
from reader.models import Entry, Feed, Rule, Story
from ui_factories import make_feed, make_story, make_user

BOUND = 600


class Queued:
    """What the sweep asked to queue: plain functions standing in for the tasks' queueing."""

    def __init__(self):
        self.pages, self.finished, self.feeds = [], [], []

    def heal(self) -> healing.Healed:
        return healing.heal(queue_pages=self.pages.append, finish_page=lambda b, s: self.finished.append((b, s)),
                            queue_feed=self.feeds.append)


@pytest.fixture
def bounds(settings):
    settings.HEAL_PAGE_AFTER, settings.HEAL_PAGE_MAX_REQUEUES = BOUND, 2


def ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


@pytest.mark.django_db
def test_a_page_past_its_bound_is_queued_again_once_and_waiting_pages_are_left_alone(
        bounds, django_capture_on_commit_callbacks):
    feed = make_feed()
    lost = make_story(feed, 1, page_due_at=ago(2 * BOUND), page_batch="b1")
    never_queued = make_story(feed, 2)
    Story.objects.filter(id=never_queued.id).update(created_at=ago(2 * BOUND))  # stored, then the worker died
    waiting = make_story(feed, 3, page_due_at=ago(BOUND / 2), page_batch="b1")
    due_later = make_story(feed, 4, page_due_at=timezone.now() + timedelta(seconds=3 * BOUND))  # a booked turn
    just_stored = make_story(feed, 5)
    done = make_story(feed, 6, page_due_at=ago(2 * BOUND), extraction_status="done")
    queued = Queued()
    with django_capture_on_commit_callbacks(execute=True):
        healed = queued.heal()
    assert sorted(healed.pages) == sorted([lost.id, never_queued.id]) and not healed.given_up
    assert sorted(queued.pages[0]) == sorted([lost.id, never_queued.id])
    assert queued.finished == [("b1", lost.id)]  # ticked off the batch it was lost from, so the batch is scored
    for story in (waiting, due_later, just_stored, done):
        story.refresh_from_db()
        assert story.page_requeues == 0
    # A second sweep right after finds nothing: the pages it queued are due now, not past the bound.
    with django_capture_on_commit_callbacks(execute=True):
        assert queued.heal() == healing.Healed()
    assert Story.objects.get(id=lost.id).page_requeues == 1


@pytest.mark.django_db
def test_a_page_lost_too_often_is_marked_failed_with_the_reason(bounds, django_capture_on_commit_callbacks):
    story = make_story(make_feed(), 1, page_due_at=ago(2 * BOUND), page_batch="b1", page_requeues=2)
    queued = Queued()
    with django_capture_on_commit_callbacks(execute=True):
        healed = queued.heal()
    assert healed.given_up == [story.id] and queued.pages == [[]]
    assert queued.finished == [("b1", story.id)]
    story.refresh_from_db()
    assert story.extraction_status == "failed" and "lost 3 times" in story.extraction_error


@pytest.mark.django_db
def test_only_an_expired_lock_still_held_is_released(django_capture_on_commit_callbacks):
    dead = Feed.objects.create(url="http://news.example/dead", locked_by="dead-task", locked_until=ago(1))
    live = Feed.objects.create(url="http://news.example/live", locked_by="live-task",
                               locked_until=timezone.now() + timedelta(seconds=100))
    idle = Feed.objects.create(url="http://news.example/idle")
    queued = Queued()
    with django_capture_on_commit_callbacks(execute=True):
        assert queued.heal().feeds == [dead.id]
    assert queued.feeds == [dead.id]
    assert Feed.objects.filter(id=dead.id, locked_by="", locked_until=None).exists()
    assert Feed.objects.filter(id=live.id, locked_by="live-task").exists()
    assert Feed.objects.filter(id=idle.id, locked_by="").exists()


@pytest.mark.django_db
def test_queued_pages_are_stamped_with_their_booked_turn_and_batch(monkeypatch, tmp_path):
    monkeypatch.setattr(politeness, "gate", lambda: politeness.FileGate(tmp_path, 2, 50.0))  # turns 50 s apart
    sent = []
    monkeypatch.setattr(tasks.fetch_story_page, "apply_async", lambda args, **kw: sent.append(args))
    feed = make_feed(url="http://stamps.example/feed.xml")
    ids = [make_story(feed, n, url=f"http://stamps.example/{n}").id for n in range(3)]
    before = timezone.now()
    tasks.queue_pages(ids)
    batch = sent[0][3]
    stamps = Story.objects.filter(id__in=ids).values_list("page_due_at", "page_batch")
    # Three turns 50 s apart: every page is stamped with the last one, so none is healed while it waits.
    assert all(due >= before + timedelta(seconds=100) and stamp == batch for due, stamp in stamps)


def rss(server, name: str, links: list[str]) -> str:
    items = "".join(f"<item><title>Zebra {i}</title><link>{link}</link><guid>{name}-{i}</guid></item>"
                    for i, link in enumerate(links))
    return server.add(f"/{name}.xml", f'<rss version="2.0"><channel><title>{name}</title>{items}</channel></rss>',
                      headers={"Content-Type": "application/rss+xml"})


def article(server, path: str) -> str:
    text = "".join(f"<p>Zebra paragraph {i}, long enough to read as the article's body text here.</p>"
                   for i in range(8))
    return server.add(path, f"<html><body><article><h1>Zebra</h1>{text}</article></body></html>",
                      headers={"Content-Type": "text/html"})


def test_a_real_worker_extracts_and_scores_the_healed_page_and_fetches_the_dead_feed(
        celery_worker_process, server, settings):
    settings.HEAL_PAGE_AFTER = BOUND
    user = make_user()
    Rule.objects.create(user=user, kind="word", value="zebra", action="show")  # a scored entry carries reasons
    stories_feed = make_feed(user, url=rss(server, "stories", []))
    lost = make_story(stories_feed, 1, url=article(server, "/lost.html"), title="Zebra lost",
                      page_due_at=ago(2 * BOUND))
    finished = make_story(stories_feed, 2, url=article(server, "/finished.html"), title="Zebra finished",
                          extraction_status="done")
    waiting = make_story(stories_feed, 3, url=article(server, "/waiting.html"), title="Zebra waiting",
                         page_due_at=ago(BOUND / 2))
    for story in (lost, finished, waiting):
        Entry.objects.create(user=user, story=story)
    # The fetch queued lost and finished in one batch; finished was ticked off, lost's message died.
    batch = batches().open([lost.id, finished.id])
    assert batches().finish(batch, finished.id) is None
    Story.objects.filter(id__in=[lost.id, finished.id]).update(page_batch=batch)
    dead_feed = make_feed(user, url=rss(server, "dead", [server.url("/new.html")]))
    article(server, "/new.html")
    Feed.objects.filter(id=dead_feed.id).update(locked_by="dead-task", locked_until=ago(1))
    live_feed = make_feed(user, url=rss(server, "live", []))
    Feed.objects.filter(id=live_feed.id).update(locked_by="live-task", locked_until=ago(-BOUND))

    tasks.heal_stuck_work()

    wait_for(lambda: Story.objects.filter(id=lost.id, extraction_status="done").exists(), message="the lost page")
    wait_for(lambda: Story.objects.filter(feed=dead_feed, extraction_status="done").exists(),
             message="the dead feed's fetch and its new story's page")
    wait_for(lambda: all(Entry.objects.get(user=user, story_id=s).reasons for s in (lost.id, finished.id)),
             message="the lost page's first batch and its new batch scored")
    assert Feed.objects.get(id=dead_feed.id).locked_by == ""
    assert Feed.objects.get(id=live_feed.id).locked_by == "live-task"
    assert Story.objects.get(id=waiting.id).extraction_status == "pending"
    assert Entry.objects.get(user=user, story=waiting).reasons == []
    paths = [path for path, _ in server.requests]
    assert paths.count("/lost.html") == 1 and "/waiting.html" not in paths and "/live.xml" not in paths


def test_a_feed_lock_shorter_than_a_fetch_is_warned_about(settings):
    from reader.checks import feed_lock_outlasts_a_fetch

    assert feed_lock_outlasts_a_fetch(None) == []
    settings.FEED_LOCK_SECONDS = tasks.fetch_feed.time_limit
    assert [warning.id for warning in feed_lock_outlasts_a_fetch(None)] == ["reader.W001"]
