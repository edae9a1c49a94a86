"""The Django app. Rooms: web/ (views, API), ingestion/ (feeds to stored stories and pages), ranking/ (scores),
demo/ (the fake news site); at the top settings, models, admin, the Celery app and tasks, and queue
(docs/architecture.md)."""
from .celery import app as celery_app

__all__ = ["celery_app"]
