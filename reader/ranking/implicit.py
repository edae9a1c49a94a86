"""Implicit signals, for users who opt in: what they open, read to the end, save and scroll past, recorded
as weak labels their model is fitted on beside their ratings (recommender.fit's ``signals``).

Off by default. Only stories in the user's own feed are recorded, each kind once per story, and at most
MAX_PER_USER rows per user (the oldest go first): a reader's habits from months ago say little, and a
script posting signals cannot grow the table without bound. Turning the setting off deletes them. Signals
wait for the user's next retrain (after a rating, or the setting changing): a scrolled page must not refit
a model on every batch.
"""
from __future__ import annotations

from django.core.cache import cache
from django.db import transaction

from ..models import Entry, Preferences, Signal

MAX_PER_USER = 5000
SHOWN_TTL = 60
KINDS = frozenset(Signal.Kind.values)


def enabled(user_id: int) -> bool:
    return Preferences.objects.filter(user_id=user_id, implicit_signals=True).exists()


def _shown_key(user_id: int) -> str:
    return f"implicit-signals-shown:{user_id}"


def shown_on_pages(user_id: int) -> bool:
    """Whether the feed and story pages load the signal script: cached, as the feed page asks on every draw.
    Another process's copy may be a minute stale; a stale yes only sends signals that record() refuses."""
    return cache.get_or_set(_shown_key(user_id), lambda: enabled(user_id), SHOWN_TTL)


def set_enabled(user_id: int, on: bool) -> None:
    """Turn the recording on or off; off deletes what was recorded (the caller queues a retrain)."""
    with transaction.atomic():
        Preferences.objects.update_or_create(user_id=user_id, defaults={"implicit_signals": on})
        if not on:
            Signal.objects.filter(user_id=user_id).delete()
    cache.delete(_shown_key(user_id))


def record(user_id: int, signals: list[tuple[int, str]]) -> int:
    """Store (story id, kind) signals of stories in the user's feed, if the user opted in; returns how many
    are new. Unknown kinds and stories outside the feed are dropped, not the whole batch."""
    if not signals or not enabled(user_id):
        return 0
    wanted = {(story_id, kind) for story_id, kind in signals if kind in KINDS}
    in_feed = set(Entry.objects.filter(user_id=user_id, story_id__in={s for s, _ in wanted})
                  .values_list("story_id", flat=True))
    with transaction.atomic():
        known = set(Signal.objects.filter(user_id=user_id, story_id__in=in_feed).values_list("story_id", "kind"))
        new = [Signal(user_id=user_id, story_id=s, kind=k) for s, k in sorted(wanted) if s in in_feed
               and (s, k) not in known]
        Signal.objects.bulk_create(new, ignore_conflicts=True)  # a concurrent request may add the same
        oldest_kept = (Signal.objects.filter(user_id=user_id).order_by("-id")
                       .values_list("id", flat=True)[MAX_PER_USER - 1:MAX_PER_USER].first())
        if oldest_kept is not None:
            Signal.objects.filter(user_id=user_id, id__lt=oldest_kept).delete()
    return len(new)


def for_fit(user_id: int) -> list[tuple[int, str]]:
    """(story id, kind) of the user's signals, oldest first; none unless the user opted in."""
    if not enabled(user_id):
        return []
    return list(Signal.objects.filter(user_id=user_id).order_by("id").values_list("story_id", "kind"))
