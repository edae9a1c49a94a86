"""Glue between the database and recommender/: ratings in, per-user models and entry scores out.

Ratings are the source of truth. A model that cannot be loaded is rebuilt from them.
"""
from __future__ import annotations

import dataclasses
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


def _stories(ids) -> list[recommender.StoryFeatures]:
    """The stories as the recommender's features: the stored ones while the story is unchanged, else made now.

    Featurising costs 0.3-1 ms a story and a retrain reads every rated story and the user's whole feed, so a
    story is featurised once per change of its text (Story.updated_at), not at every rating.
    """
    rows = Story.objects.filter(id__in=list(ids)).values_list(
        "id", "features", "features_at", "updated_at", "feed__title", "feed__url")
    ready, stale = [], []
    for story_id, stored, made_at, updated_at, feed_title, feed_url in rows:
        features = _stored_features(stored) if stored and made_at == updated_at else None
        if features is None:
            stale.append(story_id)
        elif features.feed_title != (feed_title or feed_url):  # the feed was renamed since
            ready.append(dataclasses.replace(features, feed_title=feed_title or feed_url))
        else:
            ready.append(features)
    return ready + (_featurise(stale) if stale else [])


def _stored_features(stored: str) -> recommender.StoryFeatures | None:
    try:
        return recommender.StoryFeatures.from_json(stored)
    except recommender.FeatureError:  # corrupt, or made by another FEATURE_VERSION
        return None


def _featurise(ids) -> list[recommender.StoryFeatures]:
    """Features made from the stories' text and stored for the next time (stamped with the version they saw)."""
    # The extracted HTML is the largest field and features need only the text: leave it in the database.
    stories = Story.objects.filter(id__in=list(ids)).select_related("feed").defer(
        "extracted_html", "extraction_error", "features")
    made = [(story, recommender.featurize(story_value(story))) for story in stories]
    _update_from_values(Story, ["id"], ["features", "features_at"],
                        [(story.id, features.to_json(), story.updated_at) for story, features in made])
    return [features for _, features in made]


def community() -> recommender.CommunityPrior:
    """Aggregate good/bad counts per story over all readers (fit() takes the user's own votes out), with
    the crowd model fitted on them, warm-started from the worker's previous one (a fraction of a cold fit)."""
    if _community_cache and time.monotonic() - _community_cache[0] < COMMUNITY_TTL:
        return _community_cache[1]
    votes = (Rating.objects.values("story_id")
             .annotate(good=Count("id", filter=Q(value=Rating.GOOD)), bad=Count("id", filter=Q(value=Rating.BAD))))
    counts = {v["story_id"]: (v["good"], v["bad"]) for v in votes}
    previous = _community_cache[1].crowd_model if _community_cache else None
    prior = recommender.CommunityPrior([(s, *counts[s.story_id]) for s in _stories(counts)])
    prior = prior.with_crowd_model(start=previous)
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
    ratings = list(Rating.objects.filter(user_id=user_id).order_by("created_at", "id").values_list("story_id", "value"))
    features = {f.story_id: f for f in _stories(story_id for story_id, _ in ratings)}
    rated = [(features[story_id], value == Rating.GOOD) for story_id, value in ratings if story_id in features]
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
    _update_from_values(Entry, ["user_id", "story_id"], ["score", "recommended", "reasons"],
                        [(user_id, s.story_id, float(s.score), bool(s.recommended), s.reasons) for s in scored])


def _update_from_values(model, keys: list[str], fields: list[str], rows: list[tuple]) -> None:
    """Rows (keys..., fields...) written by UPDATE ... FROM (VALUES ...), 500 rows a statement (a few MB of
    features at most), without reading them first: bulk_update() built a CASE per row and field, which cost
    more than the scoring itself."""
    quote, meta = connection.ops.quote_name, model._meta
    columns = [meta.get_field(name) for name in keys + fields]
    quoted = [quote(column.column) for column in columns]
    table = quote(meta.db_table)
    names = ", ".join(quoted)
    assignments = ", ".join(f"{name} = v.{name}" for name in quoted[len(keys):])
    matches = " AND ".join(f"{table}.{name} = v.{name}" for name in quoted[:len(keys)])
    for start in range(0, len(rows), 500):
        chunk = rows[start:start + 500]
        values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(chunk))
        params = [column.get_db_prep_save(value, connection) for row in chunk for column, value in zip(columns, row)]
        with connection.cursor() as cursor:
            cursor.execute(f"WITH v ({names}) AS (VALUES {values}) UPDATE {table} SET {assignments} FROM v "
                           f"WHERE {matches}", params)


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
