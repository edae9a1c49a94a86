"""Builders for the ranking tests: a desk of stories on two subjects, a crowd that rates them, the crowd
snapshot fitted on those votes, and a record of the ranking tasks queued instead of sending them."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from reader.ranking import crowd
from reader import queue
from reader.models import Entry, Rating, Story
from ui_factories import make_feed, make_user

SUBJECTS = {"ferry": "The harbour ferry crossed the strait as the ferry crew ended their strike",
            "football": "The striker scored in the derby before the league leaders equalised"}


def make_desk(user=None, per_subject: int = 6):
    """A feed with per_subject stories on each subject, alternating, the first one published most recently."""
    feed = make_feed(user, title="Harbour desk")
    now, stories = timezone.now(), {subject: [] for subject in SUBJECTS}
    for n in range(per_subject * 2):
        subject = list(SUBJECTS)[n % 2]
        stories[subject].append(Story.objects.create(
            feed=feed, guid=f"{subject}{n}", url=f"https://news.example/{n}", title=f"{subject} report {n}",
            extracted_text=f"{SUBJECTS[subject]}. Report number {n}.", extraction_status="done",
            tags=[subject], published=now - timedelta(hours=n)))
    return feed, stories


def crowd_likes_ferries(stories, raters: int = 4, rated: int = 4):
    """raters readers who rate the first `rated` stories of each subject: ferries good, football bad."""
    users = [make_user(f"reader{n}") for n in range(raters)]
    for user in users:
        for story in stories["ferry"][:rated]:
            Rating.objects.create(user=user, story=story, value=Rating.GOOD)
        for story in stories["football"][:rated]:
            Rating.objects.create(user=user, story=story, value=Rating.BAD)
    return users


def entries_for(user, stories):
    return Entry.objects.bulk_create([Entry(user=user, story=s) for s in stories])


@pytest.fixture
def snapshot():
    """crowd.fit_snapshot, with this process's loaded snapshot dropped after the test."""
    crowd.forget()
    yield crowd.fit_snapshot
    crowd.forget()


@pytest.fixture
def queued(monkeypatch):
    """The ranking tasks sent, as (name, args), in order, instead of sending them."""
    sent = []
    monkeypatch.setattr(queue.app, "send_task", lambda name, args, **options: sent.append((name, tuple(args))))
    return sent
