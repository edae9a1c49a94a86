"""Fetch a feed, parse it, store its stories: one clear fetch -> parse -> store pipeline."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from extraction.fetch import FetchError

from . import fetching, schedule
from .models import Entry, Feed, Story, Subscription
from .parsing import NotAFeed, ParsedEntry, ParsedFeed, digest, normalised_link, parse, plain_text

log = logging.getLogger(__name__)

# Fields the feed owns; a story's extraction results are never overwritten by an update.
FEED_FIELDS = ("url", "title", "author", "tags", "summary_html", "summary_length", "content_hash", "link_hash",
               "enclosures", "thumbnail")


@dataclass
class FetchOutcome:
    new_story_ids: list[int] = field(default_factory=list)
    changed_link_ids: list[int] = field(default_factory=list)  # updated stories whose page must be fetched again
    not_modified: bool = False
    error: str = ""


def story_fields(entry: ParsedEntry, now: datetime) -> dict:
    text = plain_text(entry.content_html)
    return {
        "guid": entry.guid[:1000],
        "url": entry.url[:2000],
        "title": entry.title[:1000],
        "author": entry.author[:500],
        "published": entry.published or now,
        "tags": [t[:100] for t in entry.tags[:20]],
        "summary_html": entry.content_html,
        "summary_length": len(text),
        # Only a story with both a title and text can be recognised by its content alone.
        "content_hash": digest(f"{entry.title}\n{text}") if entry.title and text else "",
        "link_hash": digest(normalised_link(entry.url)) if entry.url else "",
        "enclosures": entry.enclosures[:10],
        "thumbnail": entry.thumbnail[:2000],
    }


class _Index:
    """Stories known by guid, then normalised link, then content hash: the dedupe order."""

    def __init__(self):
        self.by_guid, self.by_link, self.by_hash = {}, {}, {}

    def add(self, key: dict, value) -> None:
        self.by_guid.setdefault(key["guid"], value)
        if key["link_hash"]:
            self.by_link.setdefault(key["link_hash"], value)
        if key["content_hash"]:
            self.by_hash.setdefault(key["content_hash"], value)

    def find(self, key: dict):
        return (self.by_guid.get(key["guid"]) or self.by_link.get(key["link_hash"] or None)
                or self.by_hash.get(key["content_hash"] or None))


def _existing(feed: Feed, incoming: list[dict]) -> _Index:
    index = _Index()
    guids = [f["guid"] for f in incoming]
    links = [f["link_hash"] for f in incoming if f["link_hash"]]
    hashes = [f["content_hash"] for f in incoming if f["content_hash"]]
    stories = (Story.objects.filter(feed=feed, guid__in=guids) | Story.objects.filter(feed=feed, link_hash__in=links)
               | Story.objects.filter(feed=feed, content_hash__in=hashes))
    for story in stories.order_by("id"):
        index.add({"guid": story.guid, "link_hash": story.link_hash, "content_hash": story.content_hash}, story)
    return index


@transaction.atomic
def store(feed: Feed, parsed: ParsedFeed) -> FetchOutcome:
    """Insert new stories, update changed ones, and add new ones to every subscriber's feed."""
    now = timezone.now()
    incoming, seen = [], _Index()
    for entry in parsed.entries:
        fields = story_fields(entry, now)
        if seen.find(fields) is None:  # a feed repeating a story yields one
            seen.add(fields, True)
            incoming.append(fields)
    existing = _existing(feed, incoming)
    outcome, new = FetchOutcome(), []
    for fields in incoming:
        story = existing.find(fields)
        if story is None:
            story = Story(feed=feed, **fields)
            story.refresh_snippet()
            new.append(story)
        elif story.content_hash != fields["content_hash"] or story.url != fields["url"]:
            if story.url != fields["url"] and fields["url"]:
                outcome.changed_link_ids.append(story.id)
                story.extraction_status = Story.Extraction.PENDING
            for name in FEED_FIELDS:
                setattr(story, name, fields[name])
            story.refresh_snippet()
            story.save()
    Story.objects.bulk_create(new, ignore_conflicts=True)
    outcome.new_story_ids = list(Story.objects.filter(feed=feed, guid__in=[s.guid for s in new])
                                 .values_list("id", flat=True))
    subscribers = list(Subscription.objects.filter(feed=feed).values_list("user_id", flat=True))
    Entry.objects.bulk_create(
        [Entry(user_id=u, story_id=s) for u in subscribers for s in outcome.new_story_ids], ignore_conflicts=True
    )
    return outcome


def conditional_headers(feed: Feed) -> dict:
    headers = {}
    if feed.etag:
        headers["If-None-Match"] = feed.etag
    if feed.last_modified:
        headers["If-Modified-Since"] = feed.last_modified
    return headers


def record_error(feed: Feed, exc: Exception, now: datetime) -> None:
    feed.error_count += 1
    feed.last_error = str(exc)[:2000]
    feed.last_error_at = now
    feed.failing_since = feed.failing_since or now
    asked = schedule.retry_after(exc.headers, now) if isinstance(exc, FetchError) else None
    feed.next_fetch_at = schedule.next_after_error(now, feed.error_count, feed.failing_since, asked)
    feed.save(update_fields=["last_fetched_at", "error_count", "last_error", "last_error_at", "failing_since",
                             "next_fetch_at"])


def _learn(feed: Feed, parsed: ParsedFeed, response, outcome: FetchOutcome, now: datetime) -> None:
    """What a full response teaches: the feed's metadata, validators and posting rate."""
    feed.title = feed.title or parsed.title
    feed.site_url = feed.site_url or parsed.site_url
    feed.format = parsed.format
    feed.etag = response.headers.get("etag", "")[:500]
    feed.last_modified = response.headers.get("last-modified", "")[:100]
    capped = parsed.total_entries > len(parsed.entries)
    notes = [parsed.problem, capped and f"the feed has {parsed.total_entries} entries; only the first "
                                        f"{len(parsed.entries)} are read"]
    feed.notice = "; ".join(note for note in notes if note)[:2000]
    if outcome.new_story_ids:
        recent = feed.stories.order_by("-published").values_list("published", flat=True)[:20]
        feed.fetch_interval = schedule.posting_interval(list(recent), now)
    else:
        feed.fetch_interval = schedule.unchanged_interval(feed.fetch_interval)


def refresh(feed: Feed, max_wait: float = 30.0, booking: int | None = None) -> FetchOutcome:
    """Fetch and store one feed; failures are recorded on the feed, never raised.

    politeness.HostBusy is the exception: nothing was fetched, and the caller decides when to come back.
    """
    now = timezone.now()
    feed.last_fetched_at = now
    ttl = None
    try:
        response = fetching.get(feed.url, conditional_headers(feed), max_wait=max_wait,
                                  booking=booking)
        if response.status == 304:
            outcome = FetchOutcome(not_modified=True)
            feed.fetch_interval = schedule.unchanged_interval(feed.fetch_interval)
        else:
            parsed = parse(response.content, response.url, response.headers.get("content-type", ""),
                           settings.FEED_MAX_ENTRIES)
            outcome = store(feed, parsed)
            _learn(feed, parsed, response, outcome, now)
            ttl = parsed.ttl_minutes
    except (FetchError, NotAFeed) as exc:
        record_error(feed, exc, now)
        return FetchOutcome(error=str(exc))
    feed.error_count = 0
    feed.last_error = ""
    feed.failing_since = None
    feed.next_fetch_at = schedule.next_success(now, feed.fetch_interval, response.headers, ttl)
    feed.save()
    return outcome
