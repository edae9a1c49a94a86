"""A user's feed, paged by keyset so page 2,000 costs what page 1 does: best first, or newest first.

By score, equal scores (a new reader's feed, scored by the crowd and feed priors alone, has many) go newest
story first: a cursor is the (score, published, entry id) of the last entry shown and the next page starts
strictly after it. The entry_* indexes (user, [flag,] -score, -id) give the score order, and the database sorts
only each run of equal scores by date. Newest first, a cursor is the (published, story id) of the last story, in
the order of the story indexes (published; feed, -published). No OFFSET: deep pages never rescan the top.

A view can be narrowed to one of the user's feeds or folders, and to the stories holding some words (a `Scope`).

The feed page is the page people load most, so a page is one hand-written query (entries, their stories and the
user's ratings, joined) read into plain rows: building it with the ORM and model instances cost several times the
query itself. Feeds are named from the user's cached feed list (reader/unread_cache.py), which the page shows
anyway, rather than by two more joins.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from django.db import connection
from django.utils.dateparse import parse_datetime

from .. import unread_cache
from ..ingestion.digits import row_id
from ..models import Entry, Feed, Rating, Story, Subscription
from . import search

FILTERS = {
    "recommended": {"recommended": True},
    "all": {},
    "unread": {"read": False},
    "saved": {"saved": True},
}
DEFAULT_FILTER = "recommended"
SORTS = ("score", "newest")
DEFAULT_SORT = "score"
PAGE_SIZE = 40
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class BadCursor(ValueError):
    pass


@dataclass(frozen=True)
class Scope:
    """Which of the user's stories a view lists, and in what order: a filter, a sort, one feed or one folder."""
    filter: str = DEFAULT_FILTER
    sort: str = DEFAULT_SORT
    feed_id: int | None = None
    folder: str | None = None
    search: tuple[str, ...] = ()  # words every story shown must contain (search.terms)

    def __post_init__(self):
        if self.filter not in FILTERS or self.sort not in SORTS:
            raise KeyError(f"unknown filter or sort: {self.filter!r}, {self.sort!r}")


class BadFolder(ValueError):
    """A folder no folder can be named."""


def scope_from(data) -> Scope:
    """The view a query string or form asks for (filter, sort, feed, folder, q); unknown filters and sorts fall
    back to the defaults. ValueError for a feed that cannot be a row id, a folder that cannot be a name."""
    filter_name, sort, feed = data.get("filter", ""), data.get("sort", ""), data.get("feed", "")
    feed_id = row_id(feed) if feed else None
    if feed and feed_id is None:
        raise ValueError(f"not a feed id: {feed[:40]!r}")
    folder = data.get("folder")
    if folder is not None and "\x00" in folder:  # no folder holds one, and PostgreSQL refuses it in a query
        raise BadFolder(f"not a folder name: {folder[:40]!r}")
    return Scope(filter=filter_name if filter_name in FILTERS else DEFAULT_FILTER,
                 sort=sort if sort in SORTS else DEFAULT_SORT, feed_id=feed_id,
                 folder=folder, search=tuple(search.terms(data.get("q", ""))))


def encode_cursor(*key) -> str:
    """An item's key in its order (Item.key): scores as written, dates as microseconds since 1970, row ids."""
    return "_".join(repr((part - _EPOCH) // timedelta(microseconds=1)) if isinstance(part, datetime)
                    else repr(part) for part in key)


def _cursor_part(kind: str, text: str):
    if kind == "score":
        value = float(text)
        if not math.isfinite(value):
            raise ValueError(text)
        return value
    if len(text) > 20:  # beyond these the database errs, not the cursor
        raise ValueError(text)
    if kind == "date":
        return _EPOCH + timedelta(microseconds=int(text))
    value = int(text)
    if not 0 < value < 2 ** 63:
        raise ValueError(text)
    return value


def decode_cursor(cursor: str, sort: str = DEFAULT_SORT) -> tuple:
    """The key encode_cursor wrote for an item in this sort; BadCursor for anything else."""
    kinds = _CURSOR_KINDS[sort]
    try:
        parts = cursor.split("_")
        if len(parts) != len(kinds):
            raise ValueError(cursor)
        return tuple(_cursor_part(kind, text) for kind, text in zip(kinds, parts))
    except (ValueError, OverflowError):
        raise BadCursor(f"not a feed cursor: {cursor[:40]!r}") from None


@dataclass(slots=True)
class Item:
    """One story as the feed shows it: the user's entry, the story, its feed's name and the user's rating."""
    entry_id: int
    story_id: int
    score: float
    recommended: bool
    read: bool
    saved: bool
    reasons: list
    rating: int | None
    title: str
    url: str
    author: str
    published: datetime
    snippet: str
    extraction_status: str
    feed_id: int
    feed: str

    @property
    def percent(self) -> int:
        """The score as the page prints it."""
        return round(self.score * 100)

    def key(self, sort: str) -> tuple:
        """Where the item sits in the given order (_ORDER_COLUMNS): its cursor's parts."""
        return (self.published, self.story_id) if sort == "newest" else (self.score, self.published, self.entry_id)

    @classmethod
    def from_row(cls, row, feed_names: dict[int, str]) -> Item:
        (entry_id, story_id, score, recommended, read, saved, reasons, rating, title, url, author, published,
         snippet, status, feed_id) = row
        if isinstance(reasons, str):  # JSON arrives as text (Django leaves decoding to the field)
            reasons = json.loads(reasons)
        if isinstance(published, str):
            published = parse_datetime(published)
        if published.tzinfo is None:  # SQLite keeps datetimes naive, in UTC
            published = published.replace(tzinfo=timezone.utc)
        return cls(entry_id, story_id, score, bool(recommended), bool(read), bool(saved), reasons, rating, title,
                   url, author, published, snippet, status, feed_id, feed_names[feed_id])


_SELECT = f"""
SELECT e.id, e.story_id, e.score, e.recommended, e.read, e.saved, e.reasons, r.value,
       s.title, s.url, s.author, s.published, s.snippet, s.extraction_status, e.feed_id
FROM {Entry._meta.db_table} e
JOIN {Story._meta.db_table} s ON s.id = e.story_id
LEFT JOIN {Rating._meta.db_table} r ON r.user_id = e.user_id AND r.story_id = e.story_id
WHERE e.user_id = %s"""
_ORDER_COLUMNS = {"score": ("e.score", "s.published", "e.id"), "newest": ("s.published", "s.id")}
_CURSOR_KINDS = {"score": ("score", "date", "id"), "newest": ("date", "id")}


def scope_sql(user_id: int, scope: Scope) -> tuple[list[str], list]:
    """The WHERE conditions (after the user's) that narrow entries `e` of stories `s` to the scope."""
    sql, params = [], []
    for column, value in FILTERS[scope.filter].items():
        sql.append(f"AND e.{column} = %s")
        params.append(value)
    if scope.feed_id is not None:
        sql.append("AND e.feed_id = %s")
        params.append(scope.feed_id)
    if scope.folder is not None:
        sql.append(f"AND e.feed_id IN (SELECT feed_id FROM {Subscription._meta.db_table} "
                   "WHERE user_id = %s AND folder = %s)")
        params += [user_id, scope.folder]
    if scope.search:
        condition, words = search.condition(list(scope.search), PAGE_SIZE)
        sql.append(condition)
        params += words
    return sql, params


def _after(columns: tuple[str, ...], start: tuple, ahead: bool) -> tuple[str, list]:
    """The condition for rows strictly after `start` in the order of `columns` (before it, with `ahead`).

    The redundant bound on the first column gives the database an index range to start from; the nested ORs
    only break ties."""
    sign, bound = (">", ">=") if ahead else ("<", "<=")
    # As the columns store them (datetimes are text on SQLite).
    values = [connection.ops.adapt_datetimefield_value(v) if isinstance(v, datetime) else v for v in start]
    condition, params = f"{columns[-1]} {sign} %s", [values[-1]]
    for column, value in zip(reversed(columns[:-1]), reversed(values[:-1])):
        condition = f"{column} {sign} %s OR ({column} = %s AND ({condition}))"
        params = [value, value, *params]
    return f"AND ({condition}) AND {columns[0]} {bound} %s", [*params, values[0]]


def feed_names(user, feed_ids: set[int]) -> dict[int, str]:
    """What each feed is called for this user: from their cached feed list, or for a feed they no longer follow
    (whose rated stories stay) its own title, else its address."""
    names = {feed_id: name for _, feed_id, name in unread_cache.feed_list(user)}
    missing = feed_ids - names.keys()
    if missing:
        names.update((feed.id, str(feed)) for feed in Feed.objects.filter(id__in=missing).only("title", "url"))
    return names


def _items(user, scope: Scope, start: tuple | None, limit: int, ahead: bool = False) -> list[Item]:
    """Up to `limit` items after `start` in the scope's order, or with `ahead` the ones before it, nearest first."""
    conditions, scope_params = scope_sql(user.pk, scope)
    sql, params = [_SELECT, *conditions], [user.pk, *scope_params]
    columns = _ORDER_COLUMNS[scope.sort]
    if start is not None:
        condition, values = _after(columns, start, ahead)
        sql.append(condition)
        params += values
    direction = "ASC" if ahead else "DESC"
    sql.append("ORDER BY " + ", ".join(f"{column} {direction}" for column in columns))
    sql.append("LIMIT %s")
    params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute("\n".join(sql), params)
        rows = cursor.fetchall()
    names = feed_names(user, {row[-1] for row in rows})
    return [Item.from_row(row, names) for row in rows]


@dataclass
class Page:
    entries: list[Item]
    next_cursor: str | None


def page(user, filter_name: str = DEFAULT_FILTER, cursor: str | None = None, size: int | None = None,
         scope: Scope | None = None) -> Page:
    """One page of the user's feed: in the scope if given, else by score in the filter.

    KeyError for an unknown filter."""
    scope = scope or Scope(filter_name)
    size = size or PAGE_SIZE
    rows = _items(user, scope, decode_cursor(cursor, scope.sort) if cursor else None, size + 1)
    shown = rows[:size]
    return Page(shown, encode_cursor(*shown[-1].key(scope.sort)) if len(rows) > size else None)


def neighbours(user, entry: Entry, scope: Scope) -> tuple[Item | None, Item | None]:
    """The items shown just before and just after this entry of the user's in the given view."""
    story = entry.story
    start = (story.published, story.id) if scope.sort == "newest" else (entry.score, story.published, entry.id)
    previous = _items(user, scope, start, 1, ahead=True)
    following = _items(user, scope, start, 1)
    return (previous[0] if previous else None, following[0] if following else None)
