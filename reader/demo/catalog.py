"""The demo site's stories: loaded from stories.json and moved forward in time.

The stories carry fixed dates; serving them as if they were years old would make a
news reader treat them as stale, so every date is shifted by the same whole number of
hours, putting the newest story within the last hour while keeping the spacing.
"""
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

DESKS = [
    ("science", "Science desk"),
    ("city", "City desk"),
    ("sports", "Sports desk"),
    ("business", "Business desk"),
]

STORIES_FILE = Path(__file__).with_name("stories.json")


def load_stories(now=None):
    """Return the story dicts, newest first, with `published` as an aware datetime.

    Each dict has slug, desk, title, author, published, tags, teaser, body (a list of
    blocks: a string is a paragraph, a dict is a subheading, list, quote, figure or
    table) and paragraphs (the plain paragraph strings of the body).
    """
    now = now or datetime.now(timezone.utc)
    raw = json.loads(STORIES_FILE.read_text(encoding="utf-8"))
    for story in raw:
        story["published"] = datetime.fromisoformat(story["published"])
    shift = _shift_to(now, max(s["published"] for s in raw))
    for story in raw:
        story["published"] += shift
        story["paragraphs"] = [b for b in story["body"] if isinstance(b, str)]
    return sorted(raw, key=lambda s: s["published"], reverse=True)


def _shift_to(now, newest):
    hours = (now - newest) // timedelta(hours=1)
    return timedelta(hours=hours)


def desk_title(slug):
    return dict(DESKS)[slug]
