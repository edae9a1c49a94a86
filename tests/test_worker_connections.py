"""A worker keeps its database connection from one task to the next (Celery's Django fixup would close it
around every task, and a new PostgreSQL connection cost more than most tasks), yet drops a broken one."""
import pytest
from celery import signals
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from reader import tasks
from reader.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


def run_task_signals(fixup, task):
    """What a worker does around each task, as far as the database connection is concerned."""
    fixup.on_task_prerun(task)
    signals.task_prerun.send(sender=task)
    fixup.on_task_postrun(task)
    signals.task_postrun.send(sender=task)


def test_the_connection_is_reused_across_tasks():
    fixup = DjangoWorkerFixup(app)
    connection.ensure_connection()
    opened = connection.connection
    for _ in range(3):
        run_task_signals(fixup, tasks.fetch_story_page)
    assert connection.connection is opened


def test_a_connection_left_unusable_by_an_error_is_closed_after_the_task(monkeypatch):
    fixup = DjangoWorkerFixup(app)
    connection.ensure_connection()
    connection.errors_occurred = True
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    run_task_signals(fixup, tasks.fetch_story_page)
    assert connection.connection is None
