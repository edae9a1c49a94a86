"""The Django app: settings, models, views, admin, Celery tasks and the glue to extraction/recommender."""
from .celery import app as celery_app

__all__ = ["celery_app"]
