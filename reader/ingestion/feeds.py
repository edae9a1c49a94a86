"""Fetch a feed, parse it, store its stories: one clear fetch -> parse -> store pipeline."""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from extraction.document import xml_text
from extraction.fetch import FetchError
from extraction.render import html_to_text

from .. import unread_cache
from ..models import Entry, Feed, Story, Subscription
from . import fetching, schedule
from .feed_fields import INDEX_BYTES, NotAFeed, ParsedEntry, ParsedFeed, digest, normalised_link
from .parsing import parse

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
    text = " ".join(html_to_text(entry.content_html).split())
    return {
        "guid": _stored_guid(entry.guid),
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
        "enclosures": [_enclosure(e) for e in entry.enclosures[:10] if len(e["url"]) <= 2000],
        "thumbnail": entry.thumbnail[:2000],
    }


def _key(guid: str, characters: int, max_bytes: int = INDEX_BYTES) -> str:
    """The guid as stored (a longer one failed the whole feed on PostgreSQL: feed_fields.INDEX_BYTES): its first characters, fewer where they are many bytes in UTF-8, no character split."""
    guid = guid[:characters]
    data = guid.encode()
    return guid if len(data) <= max_bytes else data[:max_bytes].decode(errors="ignore")


def _marked(guid: str, distinct: str) -> str:
    """A key made distinct: the guid's start and a digest of `distinct`, together within the stored key's bounds."""
    return f"{_key(guid, 983, INDEX_BYTES - 17)}#{digest(distinct)[:16]}"


def _stored_guid(guid: str) -> str:
    """The guid, or for one too long to store, its start and a digest of the whole: two long guids that share
    their first thousand characters are two stories, and the later one must not overwrite the earlier."""
    return guid if _key(guid, 1000) == guid else _marked(guid, guid)


def _enclosure(enclosure: dict) -> dict:
    # A cut address would name another file, so long ones are left out above; a media type has at most 255
    # characters (RFC 6838) and a length at most 20 digits, and anything longer is cut, not stored whole.
    return {"url": enclosure["url"], "type": enclosure["type"][:255], "length": enclosure["length"][:20]}


def _distinct(feed: Feed, items: list[dict]) -> list[dict]:
    """One candidate per story in the document, each with its own key (stored as the guid).

    An item repeated with the same guid, link and title is one story. Items sharing a guid but not their link
    (or title) are distinct stories, as real feeds have them: the one whose link the stored story has keeps
    the plain guid, the others get a key made from the guid and their link (and title, if the link is shared).
    """
    groups: dict[str, dict[tuple, dict]] = {}
    for item in items:
        groups.setdefault(item["guid"], {}).setdefault((item["link_hash"], item["title"]), item)
    shared = [guid for guid, group in groups.items() if len(group) > 1]
    stored = dict(Story.objects.filter(feed=feed, guid__in=shared).values_list("guid", "link_hash"))
    for guid in shared:
        group = list(groups[guid].values())
        holder = next((i for i in group if i["link_hash"] == stored[guid]), None) if guid in stored else group[0]
        links = Counter(item["link_hash"] for item in group)
        for item in group:
            if item is not holder:
                distinct = item["link_hash"] + (item["title"] if links[item["link_hash"]] > 1 else "")
                item["guid"] = _marked(guid, distinct)
    return [item for group in groups.values() for item in group.values()]


def _enclosure_urls(enclosures: list[dict]) -> set[str]:
    return {e.get("url") for e in enclosures if isinstance(e, dict)}


class _Known:
    """A feed's stored stories matched to the incoming ones: by guid, else as the same story under a new guid.

    A distinct guid is a distinct story (podcast episodes all linking to the show's page, live-blog updates at
    "#update-N"), so a stored story is taken for an incoming one with a new guid only when its own guid has
    left the feed, and it has the same enclosures and the same link and title, or the same title and text.
    """

    def __init__(self, feed: Feed, incoming: list[dict]):
        self.keys = {item["guid"] for item in incoming}
        links = [i["link_hash"] for i in incoming if i["link_hash"]]
        hashes = [i["content_hash"] for i in incoming if i["content_hash"]]
        stories = (Story.objects.filter(feed=feed, guid__in=self.keys)
                   | Story.objects.filter(feed=feed, link_hash__in=links)
                   | Story.objects.filter(feed=feed, content_hash__in=hashes))
        self.by_guid, self.by_link, self.by_hash, self.claimed = {}, {}, {}, set()
        for story in stories.order_by("id"):
            self.by_guid[story.guid] = story
            if story.link_hash:
                self.by_link.setdefault(story.link_hash, []).append(story)
            if story.content_hash:
                self.by_hash.setdefault(story.content_hash, []).append(story)

    def find(self, item: dict) -> Story | None:
        story = self.by_guid.get(item["guid"])
        if story is None:
            same_link = [s for s in self.by_link.get(item["link_hash"] or None, []) if s.title == item["title"]]
            candidates = same_link + self.by_hash.get(item["content_hash"] or None, [])
            enclosures = _enclosure_urls(item["enclosures"])
            story = next((s for s in candidates if s.guid not in self.keys and s.id not in self.claimed
                          and _enclosure_urls(s.enclosures) == enclosures), None)
        if story is not None:
            self.claimed.add(story.id)
        return story


@transaction.atomic
def store(feed: Feed, parsed: ParsedFeed) -> FetchOutcome:
    """Insert new stories, update changed ones, and add new ones to every subscriber's feed."""
    now = timezone.now()
    incoming = _distinct(feed, [story_fields(entry, now) for entry in parsed.entries])
    existing = _Known(feed, incoming)
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
        [Entry(user_id=u, story_id=s, feed=feed) for u in subscribers for s in outcome.new_story_ids],
        ignore_conflicts=True,
    )
    unread_cache.forget(subscribers)  # new stories to count, and perhaps a new title for the feed
    return outcome


def conditional_headers(feed: Feed) -> dict:
    headers = {}
    if feed.etag:
        headers["If-None-Match"] = feed.etag
    if feed.last_modified:
        headers["If-Modified-Since"] = feed.last_modified
    return headers


# Fetch failures whose message is a library's repr (urllib3, ssl); the others already name the address in words.
WORDLESS = (FetchError.CONNECTION, FetchError.TIMEOUT, FetchError.TLS)


def record_error(feed: Feed, exc: Exception, now: datetime) -> None:
    """The error as its subscribers read it on their pages (a fetch's reason in words, not a library's repr)."""
    feed.error_count += 1
    if isinstance(exc, FetchError) and exc.kind in WORDLESS:
        log.info("feed %s: %s", feed.id, exc)  # the technical detail, for whoever runs the server
        feed.last_error = fetching.explain(exc, feed.url)[:2000]
    else:
        feed.last_error = xml_text(str(exc))[:2000]  # a message may quote what a stranger sent (PostgreSQL refuses NUL)
    feed.last_error_at = now
    feed.failing_since = feed.failing_since or now
    asked = schedule.retry_after(exc.headers, now) if isinstance(exc, FetchError) else None
    feed.next_fetch_at = schedule.next_after_error(now, feed.error_count, feed.failing_since, asked)
    feed.save(update_fields=["last_fetched_at", "error_count", "last_error", "last_error_at", "failing_since",
                             "next_fetch_at"])


def _validator(value: str, limit: int) -> str:
    """A validator to send back as it came, or none: a cut one never matches, and one with control characters
    (a NUL, which PostgreSQL refuses to store) is no header value. Without it the next fetch is a plain GET."""
    return value if len(value) <= limit and value.isprintable() else ""


def _learn(feed: Feed, parsed: ParsedFeed, response, outcome: FetchOutcome, now: datetime) -> None:
    """What a full response teaches: the feed's metadata, validators and posting rate."""
    feed.title = parsed.title or feed.title  # the feed names itself; users' own labels are on their subscriptions
    feed.site_url = feed.site_url or parsed.site_url
    feed.format = parsed.format
    feed.etag = _validator(response.headers.get("etag", ""), 500)
    feed.last_modified = _validator(response.headers.get("last-modified", ""), 100)
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
    try:
        response = fetching.get(feed.url, conditional_headers(feed), max_wait=max_wait, booking=booking)
    except FetchError as exc:
        feed.last_fetched_at = now
        record_error(feed, exc, now)
        return FetchOutcome(error=str(exc))
    return take(feed, response, now)


def take(feed: Feed, response, now: datetime) -> FetchOutcome:
    """Store a response fetched for the feed at now: its stories, what it teaches about the feed, its next fetch.

    The crawl's fetch comes here, and so does the body discovery fetched when a user subscribed to a new feed
    (reader/ingestion/subscribe.py), so that its first fetch is not done twice. A body that is not a feed is
    recorded on the feed, as a failed fetch is.
    """
    feed.last_fetched_at = now
    ttl = None
    try:
        if response.status == 304:
            outcome = FetchOutcome(not_modified=True)
            feed.fetch_interval = schedule.unchanged_interval(feed.fetch_interval)
        else:
            parsed = parse(response.content, response.url, response.headers.get("content-type", ""),
                           settings.FEED_MAX_ENTRIES)
            outcome = store(feed, parsed)
            _learn(feed, parsed, response, outcome, now)
            ttl = parsed.ttl_minutes
    except NotAFeed as exc:
        record_error(feed, exc, now)
        return FetchOutcome(error=str(exc))
    feed.error_count = 0
    feed.last_error = ""
    feed.failing_since = None
    feed.next_fetch_at = schedule.next_success(now, feed.fetch_interval, response.headers, ttl)
    feed.save()
    return outcome
