"""An entry carries its story's feed (reader.models.Entry), however it is made, so that unread counts by feed read
one index and never join the stories; migration 0013 fills the column for entries made before it."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from reader import unread_cache
from reader.models import Entry
from ui_factories import make_feed, make_story, make_user

pytestmark = pytest.mark.django_db


def test_an_entry_made_without_its_feed_takes_the_storys_by_create_and_by_bulk_create():
    user = make_user("ines")
    alps, harbour = make_feed(user, url="https://alps.example/feed"), make_feed(user, url="https://h.example/feed")
    one = Entry.objects.create(user=user, story=make_story(alps, 1))
    Entry.objects.bulk_create([Entry(user=user, story=make_story(harbour, n)) for n in range(3)])
    assert one.feed_id == alps.id
    assert sorted(Entry.objects.values_list("feed_id", flat=True)) == [alps.id] + [harbour.id] * 3


def test_unread_counts_by_feed_never_join_the_stories():
    user = make_user("ines")
    alps, harbour = make_feed(user, url="https://alps.example/feed"), make_feed(user, url="https://h.example/feed")
    Entry.objects.bulk_create([Entry(user=user, story=make_story(alps, n)) for n in range(2)]
                              + [Entry(user=user, story=make_story(harbour, n), read=n == 0) for n in range(3)])
    with CaptureQueriesContext(connection) as queries:
        counts = unread_cache.unread(user)
    assert counts.by_feed == {alps.id: 2, harbour.id: 2}
    assert not any("reader_story" in q["sql"] for q in queries.captured_queries)


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_feed_of_entries_made_before_it():
    user = make_user("ines")
    feed = make_feed(user, url="https://alps.example/feed")
    story = make_story(feed, 1)
    executor = MigrationExecutor(connection)
    executor.migrate([("reader", "0012_implicit_signals")])
    try:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO reader_entry (user_id, story_id, score, recommended, reasons, read, saved, "
                           "created_at) VALUES (%s, %s, 0.5, false, '[]', false, false, CURRENT_TIMESTAMP)",
                           [user.id, story.id])
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes("reader"))
    assert list(Entry.objects.values_list("feed_id", flat=True)) == [feed.id]
