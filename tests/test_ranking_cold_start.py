"""Right from the first minute: a new reader's feed is ranked by the crowd and feed priors, equal scores are
newest first, and "recommended" needs a reason (issue 18, item 3)."""
import pytest

from reader.ranking import scores
from reader.web import stream
from reader.models import Entry
from ranking_crowd import crowd_likes_ferries, entries_for, make_desk, queued, snapshot  # noqa: F401
from ui_factories import make_user

pytestmark = pytest.mark.django_db


def test_new_stories_for_a_new_reader_are_ranked_by_the_crowd_with_reasons(snapshot):
    dora = make_user("dora")
    _, stories = make_desk(dora)
    crowd_likes_ferries(stories)
    snapshot()
    unrated = stories["ferry"][4:] + stories["football"][4:]
    entries_for(dora, unrated)

    scores.score_stories([s.id for s in unrated])  # as the worker does when the stories arrive

    by_subject = {subject: [Entry.objects.get(user=dora, story=s) for s in stories[subject][4:]]
                  for subject in stories}
    assert min(e.score for e in by_subject["ferry"]) > max(e.score for e in by_subject["football"])
    assert all(e.recommended for e in by_subject["ferry"])
    assert not any(e.recommended for e in by_subject["football"])
    assert all("other readers like stories on this subject" in e.reasons for e in by_subject["ferry"])


def test_without_any_crowd_nothing_is_recommended_and_equal_scores_are_newest_first():
    dora = make_user("dora")
    _, stories = make_desk(dora)
    # entries created oldest story first, so their ids run against the publication order
    everything = sorted(stories["ferry"] + stories["football"], key=lambda s: s.published)
    entries_for(dora, everything)

    scores.score_stories([s.id for s in everything])

    entries = Entry.objects.filter(user=dora)
    assert len({e.score for e in entries}) == 1  # nothing tells these stories apart yet
    assert not any(e.recommended for e in entries)
    shown, cursor = [], None
    while True:
        page = stream.page(dora, "all", cursor, size=5)
        shown += [item.published for item in page.entries]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert shown == sorted((s.published for s in everything), reverse=True)


def test_subscribing_queues_one_retrain_which_scores_the_feed(queued, django_capture_on_commit_callbacks):
    from reader.ingestion.subscribe import subscribe

    dora = make_user("dora")
    feed, _ = make_desk()
    with django_capture_on_commit_callbacks(execute=True):
        subscribe(dora, feed.url)
    with django_capture_on_commit_callbacks(execute=True):
        subscribe(dora, feed.url)  # already subscribed: nothing more

    assert queued == [("reader.tasks.retrain_user", (dora.id,))]
    scores.retrain(dora.id)
    entries = Entry.objects.filter(user=dora)
    assert len(entries) == 12 and all(e.score != 0.5 for e in entries)  # scored by the feed prior


RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour desk</title>
<item><guid>a</guid><title>Ferry strike ends</title><link>http://127.0.0.1/a</link></item>
<item><guid>b</guid><title>Derby tonight</title><link>http://127.0.0.1/b</link></item>
</channel></rss>"""


def test_a_fetch_queues_the_scoring_of_its_new_stories_before_their_pages(server, allow_loopback, monkeypatch):
    from reader import tasks
    from reader.models import Feed, Story, Subscription

    feed = Feed.objects.create(url=server.add("/feed.xml", RSS, headers={"Content-Type": "application/rss+xml"}))
    Subscription.objects.create(user=make_user("dora"), feed=feed)
    pages, scored = [], []
    monkeypatch.setattr(tasks, "queue_pages", pages.extend)
    monkeypatch.setattr(tasks.score_stories, "apply_async", lambda args, **options: scored.append(sorted(args[0])))

    tasks.fetch_feed.run(feed.id)

    new = sorted(Story.objects.filter(feed=feed).values_list("id", flat=True))
    assert len(new) == 2 and sorted(pages) == new
    assert scored == [new]  # at once: the pages' batch scores them again when it is done
