"""Glue between the database and recommender/: ratings in, per-user models and entry scores out.

Ratings are the source of truth. A model that cannot be loaded is rebuilt from them.
"""
from __future__ import annotations

import logging
import time

import recommender
from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from .models import Entry, Rating, Rule, Story, Subscription, TasteModel

log = logging.getLogger(__name__)
SCORE_BATCH = 2000
COMMUNITY_TTL = 60.0  # seconds a worker reuses the community prior before recounting
_community_cache: list = []


def story_value(story: Story) -> recommender.Story:
    return recommender.Story(
        id=story.id, title=story.title, text=story.best_text,
        feed=story.feed_id, feed_title=story.feed.title or story.feed.url, author=story.author,
        tags=story.tags, published=story.published, url=story.url,
    )


def _stories(ids) -> list[recommender.Story]:
    # The extracted HTML is the largest field and scoring reads the text: leave it in the database.
    stories = Story.objects.filter(id__in=list(ids)).select_related("feed").defer("extracted_html", "extraction_error")
    return [story_value(s) for s in stories]


def community() -> recommender.CommunityPrior:
    """Aggregate good/bad counts per story over all readers (fit() takes the user's own votes out), with
    the crowd model fitted on them, warm-started from the worker's previous one (a fraction of a cold fit)."""
    if _community_cache and time.monotonic() - _community_cache[0] < COMMUNITY_TTL:
        return _community_cache[1]
    votes = (Rating.objects.values("story_id")
             .annotate(good=Count("id", filter=Q(value=Rating.GOOD)), bad=Count("id", filter=Q(value=Rating.BAD))))
    counts = {v["story_id"]: (v["good"], v["bad"]) for v in votes}
    previous = _community_cache[1].crowd_model if _community_cache else None
    prior = recommender.CommunityPrior([(s, *counts[s.id]) for s in _stories(counts)]).with_crowd_model(start=previous)
    _community_cache[:] = [time.monotonic(), prior]
    return prior


def crowd_for(user_id: int) -> recommender.CommunityPrior:
    """The community prior without this user's own votes: they must not come back as "other readers like…"."""
    own = [(recommender.Story(id=story_id), value == Rating.GOOD)  # the prior only needs the ids
           for story_id, value in Rating.objects.filter(user_id=user_id).values_list("story_id", "value")]
    return community().excluding(own) if own else community()


def rules_for(user_id: int) -> list[recommender.Rule]:
    return [recommender.Rule(kind=r.kind, value=r.value, action=r.action)
            for r in Rule.objects.filter(user_id=user_id)]


def teach_me(user_id: int, k: int = 5, pool: int = 500, model=None) -> list[int]:
    """Ids of unrated stories in the user's feed whose rating would teach the model most."""
    model = model or load_model(user_id)
    rated = Rating.objects.filter(user_id=user_id).values("story_id")
    candidates = (Entry.objects.filter(user_id=user_id).exclude(story_id__in=rated)
                  .order_by("-story__published").values_list("story_id", flat=True)[:pool])
    return model.teach_me(_stories(candidates), k=k, community=crowd_for(user_id))


def taste_summary(user_id: int, limit: int = 10, model=None) -> recommender.TasteSummary:
    return (model or load_model(user_id)).taste(limit)


def rate(user, story_id: int, value: int | None) -> None:
    """Store (or clear) a rating, then retrain that user's model after the commit."""
    from .tasks import retrain_user

    with transaction.atomic():
        if value is None:
            Rating.objects.filter(user=user, story_id=story_id).delete()
        else:
            Rating.objects.update_or_create(user=user, story_id=story_id, defaults={"value": value})
        transaction.on_commit(lambda: retrain_user.apply_async((user.id,), countdown=1))


def retrain(user_id: int) -> bool:
    """Fit the user's model on all their ratings and rescore their feed. Idempotent."""
    model = _fit_and_store(user_id)
    entry_story_ids = Entry.objects.filter(user_id=user_id).values_list("story_id", flat=True)
    _score_user(user_id, model, _batches(list(entry_story_ids), crowd_for(user_id)))
    return True


def _fit_and_store(user_id: int):
    ratings = list(Rating.objects.filter(user_id=user_id).select_related("story__feed"))
    rated = [(story_value(r.story), r.good) for r in ratings]
    feeds = set(Subscription.objects.filter(user_id=user_id).values_list("feed_id", flat=True))
    model = recommender.fit(rated, subscribed_feeds=feeds, community=community())
    stored, created = TasteModel.objects.get_or_create(
        user_id=user_id, defaults={"data": model.to_bytes(), "rating_count": len(rated), "version": 1})
    if not created:
        TasteModel.objects.filter(pk=stored.pk).update(
            data=model.to_bytes(), rating_count=len(rated), version=F("version") + 1, trained_at=timezone.now())
    return model


def load_model(user_id: int, rescore: bool = True):
    """The stored model, or a fresh one fitted from the ratings when it is missing or unreadable.

    A fresh model rescores the user's whole feed, unless the caller is about to score what it needs itself.
    """
    stored = TasteModel.objects.filter(user_id=user_id).first()
    if stored is not None:
        try:
            return recommender.UserModel.from_bytes(bytes(stored.data))
        except recommender.ModelError as exc:  # ratings are the source of truth: refit
            log.warning("rebuilding unreadable model of user %s: %s", user_id, exc)
    if not rescore:
        return _fit_and_store(user_id)
    retrain(user_id)
    return recommender.UserModel.from_bytes(bytes(TasteModel.objects.get(user_id=user_id).data))


def _batches(story_ids: list[int], prior: recommender.CommunityPrior):
    """The stories in chunks, each featurised and joined with the crowd's votes once."""
    for start in range(0, len(story_ids), SCORE_BATCH):
        yield recommender.prepare(_stories(story_ids[start:start + SCORE_BATCH]), prior)


def _score_user(user_id: int, model, batches) -> None:
    model = model.with_rules(rules_for(user_id))
    for batch in batches:
        _write_scores(user_id, model.score(batch))


def _write_scores(user_id: int, scored) -> None:
    """Every score of one user's batch in one UPDATE ... FROM (VALUES ...), without reading the entries first:
    bulk_update() built a CASE per row and field, which cost more than the scoring itself."""
    if not scored:
        return
    reasons = Entry._meta.get_field("reasons")
    rows = [(s.story_id, float(s.score), bool(s.recommended), reasons.get_db_prep_value(s.reasons, connection))
            for s in scored]
    table = connection.ops.quote_name(Entry._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH scored (story_id, score, recommended, reasons) AS (VALUES {', '.join(['(%s, %s, %s, %s)'] * len(rows))}) "
            f"UPDATE {table} SET score = scored.score, recommended = scored.recommended, reasons = scored.reasons "
            f"FROM scored WHERE {table}.user_id = %s AND {table}.story_id = scored.story_id",
            [value for row in rows for value in row] + [user_id])


def score_stories(story_ids: list[int]) -> int:
    """Score new stories for every user whose feed holds them."""
    users = Entry.objects.filter(story_id__in=story_ids).values_list("user_id", flat=True).distinct()
    raters = set(Rating.objects.filter(user_id__in=users).values_list("user_id", flat=True).distinct())
    shared = None  # users who rated nothing see the whole crowd: their batches are prepared once
    for user_id in users:
        if user_id in raters:
            batches = _batches(story_ids, crowd_for(user_id))
        else:
            shared = shared or list(_batches(story_ids, community()))
            batches = shared
        _score_user(user_id, load_model(user_id, rescore=False), batches)
    return len(story_ids)
