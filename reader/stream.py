"""A user's ranked feed, paged by keyset (score, id) so page 2,000 costs what page 1 does.

A cursor is the (score, id) of the last entry shown; the next page starts strictly after it in the
order of the entry_* indexes (user, [flag,] -score, -id). No OFFSET: deep pages never rescan the top.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils.text import Truncator

from .models import Entry, Rating

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


def encode_cursor(entry: Entry) -> str:
    return f"{entry.score!r}_{entry.id}"


def decode_cursor(cursor: str) -> tuple[float, int]:
    try:
        score, entry_id = cursor.split("_")
        score, entry_id = float(score), int(entry_id)
        if not (math.isfinite(score) and 0 < entry_id < 2 ** 63):  # beyond these the database errs, not the cursor
            raise ValueError(cursor)
        return score, entry_id
    except ValueError:
        raise BadCursor(f"not a feed cursor: {cursor[:40]!r}") from None


def entries(user, filter_name: str) -> QuerySet:
    """The user's (a User or its id) entries under a filter, best first."""
    if filter_name not in FILTERS:
        raise KeyError(filter_name)
    return (Entry.objects.filter(user=user, **FILTERS[filter_name])
            .select_related("story__feed").order_by("-score", "-id"))


def after(queryset: QuerySet, score: float, entry_id: int) -> QuerySet:
    # The redundant score__lte gives the database an index range to start from; the OR only breaks ties.
    return queryset.filter(Q(score__lt=score) | Q(score=score, id__lt=entry_id), score__lte=score)


def before(queryset: QuerySet, score: float, entry_id: int) -> QuerySet:
    """Entries ahead of (score, id), nearest first."""
    return (queryset.filter(Q(score__gt=score) | Q(score=score, id__gt=entry_id), score__gte=score)
            .order_by("score", "id"))


@dataclass
class Page:
    entries: list[Entry]
    next_cursor: str | None


def snippet(story, words: int = 40) -> str:
    text = " ".join(story.best_text.split())
    if story.title and text.startswith(story.title):  # extracted articles often open with their headline
        text = text[len(story.title):].lstrip()
    return Truncator(text).words(words)


def page(user, filter_name: str = DEFAULT_FILTER, cursor: str | None = None, size: int | None = None) -> Page:
    """One page of the user's feed; each entry gets .rating (1, -1 or None) and .snippet for display."""
    size = size or PAGE_SIZE
    queryset = entries(user, filter_name)
    if cursor:
        queryset = after(queryset, *decode_cursor(cursor))
    rows = list(queryset[:size + 1])
    shown = rows[:size]
    ratings = dict(Rating.objects.filter(user=user, story_id__in=[e.story_id for e in shown])
                   .values_list("story_id", "value"))
    for entry in shown:
        entry.rating = ratings.get(entry.story_id)
        entry.snippet = snippet(entry.story)
    return Page(shown, encode_cursor(shown[-1]) if len(rows) > size else None)


def neighbours(entry: Entry, filter_name: str) -> tuple[Entry | None, Entry | None]:
    """The entries shown just before and just after this one in the given filter."""
    queryset = entries(entry.user_id, filter_name)
    return (before(queryset, entry.score, entry.id).first(), after(queryset, entry.score, entry.id).first())
