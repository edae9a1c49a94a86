"""What a user has read and saved: unread counts per feed and folder, marking stories read or unread, one or a whole
view, and saving them.

The counts and the feed list come from reader/unread_cache, which marking here drops.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Max

from .. import unread_cache
from ..models import Entry, Signal, Story
from ..ranking import implicit
from . import stream

# "Mark all as read" can be undone up to this many stories: their ids ride in the session until the undo.
UNDO_MAX = 2000


def unread_total(user) -> int:
    return unread_cache.unread(user).total


def _changed(user, count: int) -> int:
    if count:
        unread_cache.forget_counts(user)
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
    counts = unread_cache.unread(user).by_feed
    folders: dict[str, FolderCount] = {}
    for folder_name, feed_id, name in unread_cache.feed_list(user):
        folder = folders.setdefault(folder_name, FolderCount(folder_name, 0, []))
        unread = counts.get(feed_id, 0)
        folder.feeds.append(FeedCount(feed_id, name, unread))
        folder.unread += unread
    return sorted(folders.values(), key=lambda f: (f.name == "", f.name.casefold()))


def set_read(user, story_ids: list[int], read: bool = True) -> int:
    """Mark these of the user's stories read (or unread); returns how many entries changed."""
    return _changed(user, Entry.objects.filter(user=user, story_id__in=story_ids).exclude(read=read).update(read=read))


def mark_all_bound(user, shown: list) -> int:
    """The bound "mark all read" is given when a page is drawn: the newest unread entry the page knew of (counted,
    or shown on it). Stories that arrive later stay unread."""
    return max([unread_cache.unread(user).top, *(item.entry_id for item in shown)])


def set_saved(user, story_ids: list[int], saved: bool = True) -> int:
    """Save these of the user's stories for later (or unsave them); returns how many entries changed. Saving is
    a weak "good" for a user who lets their model learn from what they do (ranking/implicit)."""
    if saved:
        implicit.record(user.pk, [(story_id, Signal.Kind.SAVED) for story_id in story_ids])
    return Entry.objects.filter(user=user, story_id__in=story_ids).exclude(saved=saved).update(saved=saved)


def newest_entry_id() -> int:
    """The bound "mark all read" is given when a page is drawn: stories that arrive later stay unread."""
    return Entry.objects.aggregate(top=Max("id"))["top"] or 0


def mark_all_read(user, scope: stream.Scope, upto: int) -> tuple[int, list[int]]:
    """Mark read every unread entry of the view with an id up to `upto`: how many, and their ids for an undo (none
    past UNDO_MAX, which a session would carry on every request). The ids are those the update returns: listed by
    a query before it, they missed a story another request marked unread in between (PostgreSQL's read committed),
    which this marked read and the undo left read."""
    conditions, params = stream.scope_sql(user.pk, scope)
    sql = (f"UPDATE {Entry._meta.db_table} SET read = %s WHERE read = %s AND id IN ("
           f"SELECT e.id FROM {Entry._meta.db_table} e JOIN {Story._meta.db_table} s ON s.id = e.story_id "
           f"WHERE e.user_id = %s AND e.read = %s AND e.id <= %s {' '.join(conditions)}) RETURNING id")
    with connection.cursor() as cursor:
        cursor.execute(sql, [True, False, user.pk, False, upto, *params])
        ids = [row[0] for row in cursor.fetchmany(UNDO_MAX + 1)]
        count = len(ids) + sum(1 for _ in cursor)  # the rest counted, not kept (a sync client's whole backlog)
    return _changed(user, count), ids if len(ids) <= UNDO_MAX else []


def mark_entries_unread(user, entry_ids: list[int]) -> int:
    """Undo of mark_all_read: these of the user's entries unread again; returns how many changed."""
    return _changed(user, Entry.objects.filter(user=user, id__in=entry_ids[:UNDO_MAX], read=True).update(read=False))
