"""What a user has read and saved: unread counts per feed and folder, marking stories read or unread, one or a whole
view, and saving them.

Counting a user's unread stories by feed joins every unread entry to its story (about 60 ms at 50,000 unread
on SQLite), and every page shows the total, so the counts are cached for COUNTS_TTL seconds and dropped when
the user marks something: stories that arrive in the meantime are counted up to a minute late.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max

from ..models import Entry, Story
from . import stream


COUNTS_TTL = 60


def _counts_key(user) -> str:
    # date_joined too: a user id can come back (a deleted account, a test database rolled back).
    return f"unread-by-feed:{user.pk}:{user.date_joined.timestamp()}"


def unread_total(user) -> int:
    return sum(unread_by_feed(user).values())


def unread_by_feed(user) -> dict[int, int]:
    """feed id -> the user's unread stories in it (feeds with none are left out)."""
    counts = cache.get(_counts_key(user))
    if counts is None:
        counts = dict(Entry.objects.filter(user=user, read=False).values_list("story__feed_id")
                      .annotate(unread=Count("id")).order_by())
        if counts:  # none yet is cheap to count again, and a new reader's first stories show at once
            cache.set(_counts_key(user), counts, COUNTS_TTL)
    return counts


def _changed(user, count: int) -> int:
    if count:
        cache.delete(_counts_key(user))
    return count


@dataclass
class FeedCount:
    feed_id: int
    title: str
    unread: int


@dataclass
class FolderCount:
    name: str  # "" for the feeds in no folder
    unread: int
    feeds: list[FeedCount]


def unread_tree(user) -> list[FolderCount]:
    """The user's folders, each with its feeds, and their unread counts: folders by name, unfiled ones last."""
    counts = unread_by_feed(user)
    folders: dict[str, FolderCount] = {}
    for sub in user.subscriptions.select_related("feed").order_by("folder", "feed__title", "feed__url"):
        folder = folders.setdefault(sub.folder, FolderCount(sub.folder, 0, []))
        unread = counts.get(sub.feed_id, 0)
        folder.feeds.append(FeedCount(sub.feed_id, str(sub.feed), unread))
        folder.unread += unread
    return sorted(folders.values(), key=lambda f: (f.name == "", f.name.casefold()))


def set_read(user, story_ids: list[int], read: bool = True) -> int:
    """Mark these of the user's stories read (or unread); returns how many entries changed."""
    return _changed(user, Entry.objects.filter(user=user, story_id__in=story_ids).exclude(read=read).update(read=read))


def set_saved(user, story_ids: list[int], saved: bool = True) -> int:
    """Save these of the user's stories for later (or unsave them); returns how many entries changed."""
    return Entry.objects.filter(user=user, story_id__in=story_ids).exclude(saved=saved).update(saved=saved)


def newest_entry_id() -> int:
    """The bound "mark all read" is given when a page is drawn: stories that arrive later stay unread."""
    return Entry.objects.aggregate(top=Max("id"))["top"] or 0


def mark_all_read(user, scope: stream.Scope, upto: int) -> int:
    """Mark read every unread entry of the view with an id up to `upto`; returns how many."""
    conditions, params = stream.scope_sql(user.pk, scope)
    sql = (f"UPDATE {Entry._meta.db_table} SET read = %s WHERE id IN ("
           f"SELECT e.id FROM {Entry._meta.db_table} e JOIN {Story._meta.db_table} s ON s.id = e.story_id "
           f"WHERE e.user_id = %s AND e.read = %s AND e.id <= %s {' '.join(conditions)})")
    with connection.cursor() as cursor:
        cursor.execute(sql, [True, user.pk, False, upto, *params])
        return _changed(user, cursor.rowcount)
