"""A user's ranked feed, paged by keyset (score, published, id) so page 2,000 costs what page 1 does.

Best score first; equal scores (a new reader's feed, scored by the crowd and feed priors alone, has many)
newest story first. A cursor is the (score, published, id) of the last entry shown; the next page starts
strictly after it. No OFFSET: deep pages never rescan the top. The entry_* indexes (user, [flag,] -score,
-id) give the score order, and the database sorts only each run of equal scores by date.

The feed page is the page people load most, so a page is one hand-written query (entries, their stories and
feeds, and the user's ratings, joined) read into plain rows: building it with the ORM and model instances
cost several times the query itself.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from django.db import connection
from django.utils.dateparse import parse_datetime

from .models import Entry, Feed, Rating, Story, Subscription

FILTERS = {
    "recommended": {"recommended": True},
    "all": {},
    "unread": {"read": False},
    "saved": {"saved": True},
}
DEFAULT_FILTER = "recommended"
PAGE_SIZE = 40


class BadCursor(ValueError):
    pass


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def encode_cursor(score: float, published: datetime, entry_id: int) -> str:
    micros = (published - _EPOCH) // timedelta(microseconds=1)
    return f"{score!r}_{micros}_{entry_id}"


def decode_cursor(cursor: str) -> tuple[float, datetime, int]:
    try:
        score, micros, entry_id = cursor.split("_")
        score, entry_id = float(score), int(entry_id)
        if not (math.isfinite(score) and 0 < entry_id < 2 ** 63) or len(micros) > 20:  # else the database errs
            raise ValueError(cursor)
        return score, _EPOCH + timedelta(microseconds=int(micros)), entry_id
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

    @classmethod
    def from_row(cls, row) -> Item:
        (entry_id, story_id, score, recommended, read, saved, reasons, rating, title, url, author, published,
         snippet, status, feed_id, feed_title, feed_url) = row
        if isinstance(reasons, str):  # JSON arrives as text (Django leaves decoding to the field)
            reasons = json.loads(reasons)
        if isinstance(published, str):
            published = parse_datetime(published)
        if published.tzinfo is None:  # SQLite keeps datetimes naive, in UTC
            published = published.replace(tzinfo=timezone.utc)
        return cls(entry_id, story_id, score, bool(recommended), bool(read), bool(saved), reasons, rating, title,
                   url, author, published, snippet, status, feed_id, feed_title or feed_url)


_SELECT = f"""
SELECT e.id, e.story_id, e.score, e.recommended, e.read, e.saved, e.reasons, r.value,
       s.title, s.url, s.author, s.published, s.snippet, s.extraction_status, s.feed_id,
       COALESCE(NULLIF(sub.title, ''), f.title), f.url
FROM {Entry._meta.db_table} e
JOIN {Story._meta.db_table} s ON s.id = e.story_id
JOIN {Feed._meta.db_table} f ON f.id = s.feed_id
LEFT JOIN {Subscription._meta.db_table} sub ON sub.user_id = e.user_id AND sub.feed_id = s.feed_id
LEFT JOIN {Rating._meta.db_table} r ON r.user_id = e.user_id AND r.story_id = e.story_id
WHERE e.user_id = %s"""


def _items(user_id: int, filter_name: str, start: tuple[float, datetime, int] | None, limit: int,
           ahead: bool = False) -> list[Item]:
    """Up to `limit` items after `start` in feed order, or with `ahead` the ones before it, nearest first."""
    sql, params = [_SELECT], [user_id]
    for column, value in FILTERS[filter_name].items():
        sql.append(f"AND e.{column} = %s")
        params.append(value)
    if start is not None:
        # The redundant bound on score gives the database an index range to start from; the OR only breaks ties.
        sign, bound = (">", ">=") if ahead else ("<", "<=")
        sql.append(f"AND (e.score {sign} %s OR (e.score = %s AND (s.published {sign} %s OR "
                   f"(s.published = %s AND e.id {sign} %s)))) AND e.score {bound} %s")
        score, published, entry_id = start
        published = connection.ops.adapt_datetimefield_value(published)
        params += [score, score, published, published, entry_id, score]
    direction = "ASC" if ahead else "DESC"
    sql.append(f"ORDER BY e.score {direction}, s.published {direction}, e.id {direction}")
    sql.append("LIMIT %s")
    params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute("\n".join(sql), params)
        return [Item.from_row(row) for row in cursor.fetchall()]


@dataclass
class Page:
    entries: list[Item]
    next_cursor: str | None


def page(user, filter_name: str = DEFAULT_FILTER, cursor: str | None = None, size: int | None = None) -> Page:
    """One page of the user's (a User or its id) feed, best first; KeyError for an unknown filter."""
    size = size or PAGE_SIZE
    user_id = user if isinstance(user, int) else user.pk
    rows = _items(user_id, filter_name, decode_cursor(cursor) if cursor else None, size + 1)
    shown = rows[:size]
    last = shown[-1] if shown else None
    return Page(shown, encode_cursor(last.score, last.published, last.entry_id) if len(rows) > size else None)


def neighbours(entry: Entry, filter_name: str) -> tuple[Item | None, Item | None]:
    """The items shown just before and just after this entry in the given filter (its story is read)."""
    start = (entry.score, entry.story.published, entry.id)
    previous = _items(entry.user_id, filter_name, start, 1, ahead=True)
    following = _items(entry.user_id, filter_name, start, 1)
    return (previous[0] if previous else None, following[0] if following else None)
