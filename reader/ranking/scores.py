"""Glue between the database and recommender/: ratings in, per-user models and entry scores out.

Ratings are the source of truth. A model that cannot be loaded is rebuilt from them, in a worker: web
requests only read stored models and queue work (see reader.queue). One user's broken model or rule never
stops another's scores: each user is scored on their own, and a failure falls back to the crowd and feed
priors for that user alone.
"""
from __future__ import annotations

import logging

import recommender
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .. import queue
from ..models import Entry, Rating, Rule, Subscription, TasteModel
from . import crowd, implicit
from .story_features import features, update_from_values

log = logging.getLogger(__name__)
SCORE_CHUNK = 2000
CROWD_USERS = 500  # users a live-crowd rescoring task scores: a vote never fans out into one huge task
CROWD_DELAY = 30.0  # seconds votes on a story gather before its readers' entries are rescored
RETRAIN_DELAY = 2.0  # seconds ratings gather before a retrain (later ones queue one more run)


def crowd_for(user_id: int, story_ids=()) -> recommender.CommunityPrior:
    """The community prior, live on these stories and the user's rated ones, without the user's own votes:
    they must not come back as "other readers like…"."""
    own = [(recommender.Story(id=story_id), value == Rating.GOOD)  # the prior only needs the ids
           for story_id, value in Rating.objects.filter(user_id=user_id).values_list("story_id", "value")]
    prior = crowd.live(crowd.community(), [*story_ids, *(story.id for story, _ in own)])
    return prior.excluding(own) if own else prior


def rules_for(user_id: int) -> list[recommender.Rule]:
    """The user's rules the recommender accepts; one it refuses (stored before the form checked) is skipped."""
    rules = []
    for kind, value, action in Rule.objects.filter(user_id=user_id).values_list("kind", "value", "action"):
        try:
            rules.append(recommender.Rule(kind=kind, value=value, action=action))
        except ValueError as exc:
            log.warning("user %s: rule %s %r skipped: %s", user_id, kind, value, exc)
    return rules


def teach_me(user_id: int, k: int = 5, pool: int = 500, model=None) -> list[int]:
    """Ids of unrated stories in the user's feed whose rating would teach the model most (none without a model)."""
    model = model or stored_model(user_id)
    if model is None:
        return []
    rated = Rating.objects.filter(user_id=user_id).values("story_id")
    candidates = list(Entry.objects.filter(user_id=user_id).exclude(story_id__in=rated)
                      .order_by("-story__published").values_list("story_id", flat=True)[:pool])
    return model.teach_me(features(candidates), k=k, community=crowd_for(user_id, candidates))


def taste_summary(user_id: int, limit: int = 10, model=None) -> recommender.TasteSummary:
    model = model or stored_model(user_id)
    if model is None:
        return recommender.TasteSummary([], [], [], 0, 0)
    return model.taste(limit)


def agreement(user_id: int, points: int = 10) -> list[recommender.AgreementPoint]:
    """How often the feed's guess (recommended or not) matched the user's rating, in stretches of their
    ratings, oldest first: the guess the user saw when rating, not the model's fit on those ratings."""
    rows = list(Rating.objects.filter(user_id=user_id, shown_recommended__isnull=False)
                .order_by("created_at", "id").values_list("value", "shown_recommended", "story__published"))
    out, start = [], 0
    for n in [len(rows) // points + (i < len(rows) % points) for i in range(min(points, len(rows)))]:
        stretch = rows[start:start + n]
        matched = sum((value == Rating.GOOD) == shown for value, shown, _ in stretch)
        out.append(recommender.AgreementPoint(start, n, matched / n, max(p for _, _, p in stretch)))
        start += n
    return out


def rate(user, story_id: int, value: int | None) -> None:
    """Store (or clear) a rating with the score the user saw, then retrain that user's model and rescore the
    story's other readers after the commit."""
    with transaction.atomic():
        if value is None:
            Rating.objects.filter(user=user, story_id=story_id).delete()
        else:
            shown = Entry.objects.filter(user=user, story_id=story_id).values_list("score", "recommended").first()
            rating, created = Rating.objects.get_or_create(user=user, story_id=story_id, defaults={
                "value": value, "shown_score": shown and shown[0], "shown_recommended": shown and shown[1]})
            if not created and rating.value != value:  # a changed mind keeps the guess seen the first time
                Rating.objects.filter(pk=rating.pk).update(value=value, updated_at=timezone.now())
        queue_retrain(user.id)
        queue.queue_once(f"crowd:{story_id}", "reader.tasks.rescore_story_readers", (story_id,),
                                countdown=CROWD_DELAY)


def queue_retrain(user_id: int) -> None:
    """Refit the user's model and rescore their feed soon (once, however many times this is called meanwhile):
    after a rating, or a change of their subscriptions."""
    queue.queue_once(f"retrain:{user_id}", "reader.tasks.retrain_user", (user_id,), countdown=RETRAIN_DELAY)


def queue_rescore(user_id: int) -> None:
    """Rescore the user's feed with their stored model (rules changed: no refit needed)."""
    queue.queue_once(f"rescore:{user_id}", "reader.tasks.rescore_user", (user_id,))


def retrain(user_id: int) -> bool:
    """Fit the user's model on all their ratings and rescore their feed. Idempotent."""
    queue.started(f"retrain:{user_id}")
    _score_feed(user_id, _fit_and_store(user_id))
    return True


def rescore(user_id: int) -> bool:
    """Rescore the user's feed with their stored model and current rules (fitted first if there is none)."""
    queue.started(f"rescore:{user_id}")
    _score_feed(user_id, load_model(user_id))
    return True


def _score_feed(user_id: int, model) -> None:
    entry_story_ids = list(Entry.objects.filter(user_id=user_id).values_list("story_id", flat=True))
    _score_user(user_id, model, _prepared(entry_story_ids, crowd_for(user_id, entry_story_ids)))


def _fit_and_store(user_id: int):
    ratings = list(Rating.objects.filter(user_id=user_id).order_by("created_at", "id").values_list("story_id", "value"))
    by_id = {f.story_id: f for f in features(story_id for story_id, _ in ratings)}
    rated = [(by_id[story_id], value == Rating.GOOD) for story_id, value in ratings if story_id in by_id]
    seen = implicit.for_fit(user_id)  # none unless the user opted in
    signal_features = {f.story_id: f for f in features({story_id for story_id, _ in seen} - set(by_id))}
    signal_features.update(by_id)
    signals = [(signal_features[story_id], kind) for story_id, kind in seen if story_id in signal_features]
    feeds = set(Subscription.objects.filter(user_id=user_id).values_list("feed_id", flat=True))
    # fit() takes the user's own votes out; the rated stories' counts are made current so they hold them all
    community = crowd.live(crowd.community(), by_id)
    model = recommender.fit(rated, subscribed_feeds=feeds, community=community, signals=signals)
    stored, created = TasteModel.objects.get_or_create(
        user_id=user_id, defaults={"data": model.to_bytes(), "rating_count": len(rated), "version": 1})
    if not created:
        TasteModel.objects.filter(pk=stored.pk).update(
            data=model.to_bytes(), rating_count=len(rated), version=F("version") + 1, trained_at=timezone.now())
    return model


def stored_model(user_id: int):
    """The user's stored model, or None when there is none or it cannot be read (a retrain is then queued):
    what web requests use, as they never fit a model."""
    data = TasteModel.objects.filter(user_id=user_id).values_list("data", flat=True).first()
    if data is not None:
        try:
            return recommender.UserModel.from_bytes(bytes(data))
        except recommender.ModelError as exc:
            log.warning("user %s: stored model unreadable (%s): retrain queued", user_id, exc)
    queue_retrain(user_id)
    return None


def load_model(user_id: int):
    """The stored model, or one fitted now from the ratings when it is missing or unreadable (workers only)."""
    stored = TasteModel.objects.filter(user_id=user_id).first()
    if stored is not None:
        try:
            return recommender.UserModel.from_bytes(bytes(stored.data))
        except recommender.ModelError as exc:  # ratings are the source of truth: refit
            log.warning("rebuilding unreadable model of user %s: %s", user_id, exc)
    return _fit_and_store(user_id)


def _prepared(story_ids: list[int], prior: recommender.CommunityPrior):
    """The stories in chunks, each featurised and joined with the crowd's votes once."""
    for start in range(0, len(story_ids), SCORE_CHUNK):
        yield recommender.prepare(features(story_ids[start:start + SCORE_CHUNK]), prior)


def _score_user(user_id: int, model, prepared) -> None:
    model = model.with_rules(rules_for(user_id))
    for chunk in prepared:
        _write_scores(user_id, model.score(chunk))


def _write_scores(user_id: int, scored) -> None:
    update_from_values(Entry, ["user_id", "story_id"], ["score", "recommended", "reasons"],
                       [(user_id, s.story_id, float(s.score), bool(s.recommended), s.reasons) for s in scored])


def score_stories(story_ids: list[int], user_ids=None) -> int:
    """Score these stories for every user whose feed holds them (or these users' entries of them).

    Each user is scored on their own: if their model or rules fail, the error is logged and their entries
    get the score of a model without ratings (the crowd and feed priors), and the next user is scored.
    """
    entries = Entry.objects.filter(story_id__in=story_ids)
    if user_ids is not None:
        entries = entries.filter(user_id__in=list(user_ids))
    users = sorted(set(entries.values_list("user_id", flat=True)))
    raters = set(Rating.objects.filter(user_id__in=users).values_list("user_id", flat=True).distinct())
    shared = []  # users who rated nothing see the whole crowd: their chunks are prepared once
    for user_id in users:
        try:
            with transaction.atomic():
                if user_id in raters:
                    prepared = _prepared(story_ids, crowd_for(user_id, story_ids))
                else:
                    shared = shared or list(_prepared(story_ids, crowd.live(crowd.community(), story_ids)))
                    prepared = shared
                _score_user(user_id, load_model(user_id), prepared)
        except Exception:
            log.exception("scoring stories for user %s failed: scored by the crowd and feed priors instead", user_id)
            _score_without_model(user_id, story_ids)
    return len(story_ids)


def _score_without_model(user_id: int, story_ids: list[int]) -> None:
    """What a reader with no ratings would see: still a ranking, and no story left at the unscored default."""
    try:
        feeds = Subscription.objects.filter(user_id=user_id).values_list("feed_id", flat=True)
        prior = crowd.live(crowd.community(), story_ids)
        model = recommender.fit([], subscribed_feeds=feeds, community=prior)
        for chunk in _prepared(story_ids, prior):
            _write_scores(user_id, model.score(chunk))
    except Exception:  # the next user is still scored
        log.exception("scoring stories for user %s without a model failed too", user_id)


def rescore_story_readers(story_id: int, after_user: int = 0) -> list[int]:
    """After votes on a story: rescore its unread entries for up to CROWD_USERS readers (after ``after_user``),
    so what other readers think shows before the next crowd fit. Returns the last user scored, for the caller
    to continue from in another task, or nothing when done."""
    if after_user == 0:
        queue.started(f"crowd:{story_id}")
    users = list(Entry.objects.filter(story_id=story_id, read=False, user_id__gt=after_user)
                 .order_by("user_id").values_list("user_id", flat=True)[:CROWD_USERS])
    score_stories([story_id], user_ids=users)
    return users[-1:] if len(users) == CROWD_USERS else []
