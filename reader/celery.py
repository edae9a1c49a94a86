"""The Celery app. Three queues, so a flood of story pages never starves feed refreshes."""
import os

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.conf import settings
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reader.settings")

app = Celery("reader")


def django_settings() -> dict:
    """Django's CELERY_* settings, copied into a plain dict when Celery first needs them. Celery reads its settings
    a dozen times for every message sent and run, and each read through Django's lazy settings cost ~20 µs."""
    return {name.removeprefix("CELERY_").lower(): getattr(settings, name) for name in dir(settings)
            if name.startswith("CELERY_")}


app.add_defaults(django_settings)
app.conf.update(
    task_queues=[Queue("feeds"), Queue("pages"), Queue("ranking")],
    task_default_queue="feeds",
    task_routes={
        "reader.tasks.fetch_feed": {"queue": "feeds"},
        "reader.tasks.schedule_due_feeds": {"queue": "feeds"},
        "reader.tasks.heal_stuck_work": {"queue": "feeds"},
        "reader.tasks.queue_story_pages": {"queue": "feeds"},
        "reader.tasks.fetch_story_page": {"queue": "pages"},
        "reader.tasks.retrain_user": {"queue": "ranking"},
        "reader.tasks.score_stories": {"queue": "ranking"},
        "reader.tasks.rescore_user": {"queue": "ranking"},
        "reader.tasks.rescore_story_readers": {"queue": "ranking"},
        "reader.tasks.fit_crowd": {"queue": "ranking"},
    },
    # A message is acknowledged after its task ran, and re-delivered if the worker died: tasks are idempotent.
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_ignore_result=True,
    task_time_limit=300,
    task_soft_time_limit=240,
    broker_connection_retry_on_startup=True,
    # Reconnects even when closing the lost connection fails (reader/worker_consumer.py).
    worker_consumer="reader.worker_consumer:Consumer",
    # The Redis visibility timeout is a setting (BROKER_VISIBILITY_TIMEOUT): see reader/settings.py.
    # lxml and feedparser hold on to memory after a huge document; recycle pool processes now and then.
    worker_max_tasks_per_child=2000,
    beat_schedule={
        "schedule-due-feeds": {"task": "reader.tasks.schedule_due_feeds", "schedule": 30.0},
        # The crowd model is fitted here, never in a web request; processes load the stored snapshot.
        "fit-crowd": {"task": "reader.tasks.fit_crowd", "schedule": 300.0},
        # Queues again what a dead worker's broker lost (reader/ingestion/healing.py).
        "heal-stuck-work": {"task": "reader.tasks.heal_stuck_work", "schedule": settings.HEAL_EVERY},
    },
)
# Celery's Django fixup closes the database connection before and after every task unless told to reuse it,
# and a new PostgreSQL connection (a backend process, its caches warmed again) cost more than most of our tasks.
# Reuse it for up to this many tasks, and close it as Django does after a web request: when CONN_MAX_AGE has
# passed, or when an error left it unusable (its health is checked before reuse, see settings.DATABASES).
app.conf["CELERY_DB_REUSE_MAX"] = 1000


@task_prerun.connect
@task_postrun.connect
def close_old_connections(sender=None, **kwargs) -> None:
    if not getattr(sender.request, "is_eager", False):  # an eager task runs inside its caller's transaction
        from django.db import close_old_connections as close

        close()


app.autodiscover_tasks()
