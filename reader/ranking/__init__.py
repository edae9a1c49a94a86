"""Ranking: ratings in, per-user models and entry scores out (the glue between the database and recommender/).

Owns the scoring service (scores), the crowd snapshot (crowd), the stories' stored features (story_features)
and the taste page's agreement chart (taste_chart).

May import: reader.models, reader.queue, recommender. Never reader.ingestion, reader.web or reader.tasks.
"""
