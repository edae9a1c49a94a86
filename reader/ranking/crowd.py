"""The crowd: all readers' votes as one community prior, fitted by a periodic task and stored as a snapshot.

Fitting the crowd model costs seconds of CPU (7.5 s cold for 20,000 stories and 600,000 votes), so no web
request and no per-user task fits it: `fit_snapshot` runs in the ranking worker on a beat, warm-started from
the previous snapshot, and every process loads the newest snapshot (checked every SNAPSHOT_CHECK seconds).
Votes cast since the snapshot still count for the very stories they were cast on (`live`).
"""
from __future__ import annotations

import logging
import pickle
import time

import recommender
from django.db.models import Count, Q

from .. import queue
from ..models import CrowdSnapshot, Rating
from .story_features import features

log = logging.getLogger(__name__)
SNAPSHOT_CHECK = 60.0  # seconds a process uses its snapshot before looking for a newer one
ID_CHUNK = 5000  # story ids per query (SQLite takes up to 32,766 parameters)
KEEP = 2  # snapshots kept: the newest, and the one a process may still be loading
FIT_TASK = "reader.tasks.fit_crowd"
_loaded: dict = {}  # "checked": monotonic time, "id": snapshot id, "prior": CommunityPrior


def counts(story_ids=None) -> dict[int, tuple[int, int]]:
    """Good and bad votes per story, now (of these stories, or of every story with votes)."""
    if story_ids is None:
        return _counts(Rating.objects.all())
    ids, out = sorted(set(story_ids)), {}
    for start in range(0, len(ids), ID_CHUNK):
        out.update(_counts(Rating.objects.filter(story_id__in=ids[start:start + ID_CHUNK])))
    return out


def _counts(votes) -> dict[int, tuple[int, int]]:
    rows = votes.values("story_id").annotate(good=Count("id", filter=Q(value=Rating.GOOD)),
                                             bad=Count("id", filter=Q(value=Rating.BAD)))
    return {row["story_id"]: (row["good"], row["bad"]) for row in rows}


def live(prior: recommender.CommunityPrior, story_ids) -> recommender.CommunityPrior:
    """The prior with the current votes on these stories: a vote counts from the next scoring, not the next fit."""
    return prior.with_story_votes((story_id, good, bad) for story_id, (good, bad) in counts(story_ids).items())


def fit_snapshot() -> int:
    """Fit the crowd model on all votes (warm-started from the last snapshot's) and store it; the number of
    stories with votes."""
    queue.started("fit-crowd")
    votes = counts()
    previous = _newest()[1].crowd_model
    ids = sorted(votes)
    voted = [f for start in range(0, len(ids), ID_CHUNK) for f in features(ids[start:start + ID_CHUNK])]
    prior = recommender.CommunityPrior([(f, *votes[f.story_id]) for f in voted])
    prior = prior.with_crowd_model(start=previous)
    snapshot = CrowdSnapshot.objects.create(data=pickle.dumps(prior, protocol=pickle.HIGHEST_PROTOCOL),
                                            stories=len(votes), votes=sum(g + b for g, b in votes.values()))
    old = CrowdSnapshot.objects.order_by("-id").values_list("id", flat=True)[KEEP:]
    CrowdSnapshot.objects.filter(id__in=list(old)).delete()
    _loaded.update(checked=time.monotonic(), id=snapshot.id, prior=prior)
    return len(votes)


def community() -> recommender.CommunityPrior:
    """The newest stored community prior (loaded once per snapshot per process); without one yet, an empty
    prior, and a fit is queued."""
    if not _loaded or time.monotonic() - _loaded["checked"] >= SNAPSHOT_CHECK:
        newest, prior = _newest()
        if newest is None:
            queue.queue_once("fit-crowd", FIT_TASK, ())
        _loaded.update(checked=time.monotonic(), id=newest, prior=prior)
    return _loaded["prior"]


def _newest() -> tuple[int | None, recommender.CommunityPrior]:
    """The newest snapshot's id and prior (the loaded one if it is still the newest); (None, empty) if none."""
    newest = CrowdSnapshot.objects.order_by("-id").values_list("id", flat=True).first()
    if newest is None:
        return None, recommender.CommunityPrior()
    return newest, _loaded["prior"] if newest == _loaded.get("id") else _load(newest)


def _load(snapshot_id: int) -> recommender.CommunityPrior:
    data = CrowdSnapshot.objects.filter(id=snapshot_id).values_list("data", flat=True).first()
    try:
        prior = pickle.loads(bytes(data))
    except Exception as exc:  # written by our own worker; unreadable only after an upgrade or damage: refit
        log.warning("crowd snapshot %s is unreadable (%s): fitting a new one", snapshot_id, exc)
        queue.queue_once("fit-crowd", FIT_TASK, ())
        return recommender.CommunityPrior()
    return prior if isinstance(prior, recommender.CommunityPrior) else recommender.CommunityPrior()


def forget() -> None:
    """Drop this process's loaded snapshot (tests, and a process that must see a new one at once)."""
    _loaded.clear()
