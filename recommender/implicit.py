"""Implicit signals: what a reader did with a story without rating it, as weak, weighted labels.

Opening a story, reading it to the end and saving it say "somewhat interested"; scrolling past it
unopened in a list the reader looked at says "somewhat not". None says as much as a rating: a reader
opens stories to find out, and skips good ones for lack of time. So each weighs a small fraction of
an explicit rating in the fit, and a story the reader rated keeps only its rating.
"""
from __future__ import annotations

from collections.abc import Iterable

from .features import StoryFeatures

OPENED, READ, SAVED, SKIPPED = "opened", "read", "saved", "skipped"
# What each signal weighs next to an explicit rating (1). A story's positive signals add up (opened,
# then read to the end, then saved), capped at MAX_WEIGHT; skipping counts only for a story with no
# positive signal (a reader who skipped it once and opened it later was interested after all).
WEIGHTS = {OPENED: 0.1, READ: 0.1, SAVED: 0.1, SKIPPED: 0.05}
MAX_WEIGHT = 0.25
POSITIVE = frozenset({OPENED, READ, SAVED})


def story_id(story) -> object:
    return story.story_id if isinstance(story, StoryFeatures) else story.id


def weak_labels(signals: Iterable[tuple[object, str]], rated_ids: Iterable = ()) -> list[tuple[object, bool, float]]:
    """``(story, kind)`` signals as ``(story, good, weight)`` rows, one per story, in first-seen order.

    Stories in ``rated_ids`` are left out (the rating says more); unknown kinds raise ValueError."""
    rated = set(rated_ids)
    stories, kinds = {}, {}
    for story, kind in signals:
        if kind not in WEIGHTS:
            raise ValueError(f"unknown implicit signal {kind!r}; known: {', '.join(WEIGHTS)}")
        key = story_id(story)
        if key in rated:
            continue
        stories.setdefault(key, story)
        kinds.setdefault(key, set()).add(kind)
    rows = []
    for key, story in stories.items():
        positive = kinds[key] & POSITIVE
        if positive:
            rows.append((story, True, min(MAX_WEIGHT, sum(WEIGHTS[k] for k in positive))))
        else:
            rows.append((story, False, WEIGHTS[SKIPPED]))
    return rows
