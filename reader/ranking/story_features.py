"""Stories as the recommender's features, stored with each story and made again only when its text changes."""
from __future__ import annotations

import dataclasses

import recommender
from django.db import connection

from ..models import Story


def story_value(story: Story) -> recommender.Story:
    return recommender.Story(
        id=story.id, title=story.title, text=story.best_text,
        feed=story.feed_id, feed_title=story.feed.title or story.feed.url, author=story.author,
        tags=story.tags, published=story.published, url=story.url,
    )


def features(ids) -> list[recommender.StoryFeatures]:
    """The stories as the recommender's features: the stored ones while the story is unchanged, else made now.

    Featurising costs 0.3-1 ms a story and a retrain reads every rated story and the user's whole feed, so a
    story is featurised once per change of its text (Story.updated_at), not at every rating.
    """
    rows = Story.objects.filter(id__in=list(ids)).values_list(
        "id", "features", "features_at", "updated_at", "feed__title", "feed__url")
    ready, stale = [], []
    for story_id, stored, made_at, updated_at, feed_title, feed_url in rows:
        made = _stored_features(stored) if stored and made_at == updated_at else None
        if made is None:
            stale.append(story_id)
        elif made.feed_title != (feed_title or feed_url):  # the feed was renamed since
            ready.append(dataclasses.replace(made, feed_title=feed_title or feed_url))
        else:
            ready.append(made)
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
    update_from_values(Story, ["id"], ["features", "features_at"],
                       [(story.id, made_features.to_json(), story.updated_at) for story, made_features in made])
    return [made_features for _, made_features in made]


def update_from_values(model, keys: list[str], fields: list[str], rows: list[tuple]) -> None:
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
