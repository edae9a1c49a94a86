"""Fetch a feed, parse it, store its stories: one clear fetch -> parse -> store pipeline."""
from __future__ import annotations

import hashlib
import io
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as dt_timezone

import feedparser
import nh3
from django.db import transaction
from django.utils import timezone

from extraction.fetch import FetchError

from . import fetching
from .models import Entry, Feed, Story, Subscription

log = logging.getLogger(__name__)
MAX_BACKOFF = timedelta(hours=24)


class NotAFeed(Exception):
    pass


@dataclass
class FetchOutcome:
    new_story_ids: list[int]
    not_modified: bool = False


def parse(content: bytes, url: str, content_type: str = "") -> feedparser.FeedParserDict:
    # A stream, never a str or bytes: feedparser would otherwise open URLs or local paths itself.
    parsed = feedparser.parse(io.BytesIO(content), response_headers={"content-location": url,
                                                                     "content-type": content_type})
    if not parsed.entries and not parsed.feed.get("title"):
        reason = parsed.get("bozo_exception") or "no feed title and no entries"
        raise NotAFeed(f"not a feed: {reason}")
    return parsed


def _published(entry) -> datetime:
    stamp = entry.get("published_parsed") or entry.get("updated_parsed")
    if stamp:
        return datetime(*stamp[:6], tzinfo=dt_timezone.utc)
    return timezone.now()


def _story_fields(entry) -> dict:
    content = entry.get("content") or []
    summary = content[0].get("value", "") if content else entry.get("summary", "")
    title = nh3.clean(entry.get("title", ""), tags=set()).strip()
    link = entry.get("link", "")
    guid = entry.get("id") or link or hashlib.sha256((title + summary).encode()).hexdigest()
    return {
        "guid": guid[:1000],
        "url": link[:2000],
        "title": title[:1000],
        "author": nh3.clean(entry.get("author", ""), tags=set())[:500],
        "published": _published(entry),
        "tags": [t.get("term", "") for t in entry.get("tags", []) if t.get("term")][:20],
        "summary_html": nh3.clean(summary),
        "content_hash": hashlib.sha256(f"{title}\n{summary}".encode()).hexdigest(),
    }


@transaction.atomic
def store(feed: Feed, parsed) -> list[int]:
    """Insert new stories, update changed ones, and add new ones to every subscriber's feed."""
    incoming = {}
    for entry in parsed.entries:
        fields = _story_fields(entry)
        incoming.setdefault(fields["guid"], fields)  # a feed repeating a guid yields one story
    existing = {s.guid: s for s in Story.objects.filter(feed=feed, guid__in=list(incoming))}
    for guid, fields in incoming.items():
        story = existing.get(guid)
        if story and story.content_hash != fields["content_hash"]:
            for name, value in fields.items():
                setattr(story, name, value)
            story.save()
    new = [Story(feed=feed, **fields) for guid, fields in incoming.items() if guid not in existing]
    Story.objects.bulk_create(new, ignore_conflicts=True)
    new_ids = list(Story.objects.filter(feed=feed, guid__in=[s.guid for s in new]).values_list("id", flat=True))
    subscribers = list(Subscription.objects.filter(feed=feed).values_list("user_id", flat=True))
    Entry.objects.bulk_create(
        [Entry(user_id=u, story_id=s) for u in subscribers for s in new_ids], ignore_conflicts=True
    )
    return new_ids


def record_error(feed: Feed, message: str) -> None:
    feed.error_count += 1
    feed.last_error = message[:2000]
    feed.last_error_at = timezone.now()
    backoff = min(timedelta(seconds=feed.fetch_interval) * 2 ** min(feed.error_count, 10), MAX_BACKOFF)
    feed.next_fetch_at = timezone.now() + backoff
    feed.save(update_fields=["error_count", "last_error", "last_error_at", "next_fetch_at"])


def refresh(feed: Feed) -> FetchOutcome:
    """Fetch and store one feed; failures are recorded on the feed, never raised."""
    headers = {}
    if feed.etag:
        headers["If-None-Match"] = feed.etag
    if feed.last_modified:
        headers["If-Modified-Since"] = feed.last_modified
    now = timezone.now()
    feed.last_fetched_at = now
    try:
        response = fetching.get(feed.url, headers)
        if response.status == 304:
            outcome = FetchOutcome([], not_modified=True)
        else:
            parsed = parse(response.content, response.url, response.headers.get("content-type", ""))
            outcome = FetchOutcome(store(feed, parsed))
            feed.title = feed.title or nh3.clean(parsed.feed.get("title", ""), tags=set())[:500]
            feed.site_url = feed.site_url or parsed.feed.get("link", "")[:2000]
            feed.etag = response.headers.get("etag", "")[:500]
            feed.last_modified = response.headers.get("last-modified", "")[:100]
    except (FetchError, NotAFeed) as exc:
        feed.save(update_fields=["last_fetched_at"])
        record_error(feed, str(exc))
        return FetchOutcome([])
    feed.error_count = 0
    feed.last_error = ""
    feed.next_fetch_at = now + timedelta(seconds=feed.fetch_interval)
    feed.save()
    return outcome
