"""Items and subscriptions as Google Reader apps read them (the fields FreshRSS and Miniflux send)."""
from __future__ import annotations

from datetime import datetime

from ...ingestion.digits import whole_number
from ...models import Entry
from ..jinja import web_url
from ..views import article_html
from . import ids

CHUNK = 500  # story ids per query: far below every database's bound on parameters
LENGTH_DIGITS = 18  # an enclosure's size in bytes: apps read it as a 64-bit integer


def _usec(moment: datetime) -> int:
    return int(moment.timestamp() * 1_000_000)


def categories(entry: Entry, folder: str) -> list[str]:
    names = [ids.state("reading-list")]
    if folder:
        names.append(ids.label(folder))
    if entry.read:
        names.append(ids.state("read"))
    if entry.saved:
        names.append(ids.state("starred"))
    if entry.recommended and not entry.read:
        names.append(ids.label(ids.RECOMMENDED))  # apps that show labels list our picks under it
    return names


def enclosures(story) -> list[dict]:
    found = []
    for item in story.enclosures if isinstance(story.enclosures, list) else []:
        url = web_url(item.get("url") or "") if isinstance(item, dict) and isinstance(item.get("url"), str) else ""
        if url:
            media = {"href": url, "type": str(item.get("type") or "")}
            # Stored as the feed wrote it: str.isdigit() takes "²", which int() refuses, and int() refuses 5,000 digits.
            length = whole_number(str(item.get("length") or ""), LENGTH_DIGITS)
            if length is not None and length < 10 ** LENGTH_DIGITS - 1:  # a clamped one is no size at all
                media["length"] = length
            found.append(media)
    return found


def item(entry: Entry, subscription) -> dict:
    story, feed = entry.story, entry.story.feed
    link = web_url(story.url)
    arrived = _usec(entry.created_at)
    return {
        "id": ids.long_id(story.id),
        "crawlTimeMsec": str(arrived // 1000),
        "timestampUsec": str(arrived),
        "published": int(story.published.timestamp()),
        "updated": int(story.published.timestamp()),
        "title": story.title,
        "author": story.author,
        "canonical": [{"href": link}] if link else [],
        "alternate": [{"href": link, "type": "text/html"}] if link else [],
        "summary": {"direction": "ltr", "content": article_html(story, "")[1]},
        "categories": categories(entry, subscription.folder if subscription else ""),
        "origin": {"streamId": f"feed/{feed.id}", "title": subscription.name if subscription else str(feed),
                   "htmlUrl": web_url(feed.site_url)},
        "enclosure": enclosures(story),
    }


def items(user, story_ids: list[int]) -> list[dict]:
    """The user's own items among these story ids, in the order given; others' and unknown ids are left out."""
    entries = {}
    for start in range(0, len(story_ids), CHUNK):
        entries.update((e.story_id, e) for e in Entry.objects.filter(
            user=user, story_id__in=story_ids[start:start + CHUNK]).select_related("story__feed"))
    subscriptions = {s.feed_id: s for s in user.subscriptions.select_related("feed")}
    return [item(entries[i], subscriptions.get(entries[i].story.feed_id)) for i in story_ids if i in entries]


def subscription(sub) -> dict:
    folders = [{"id": ids.label(sub.folder), "label": sub.folder, "type": "folder"}] if sub.folder else []
    return {"id": f"feed/{sub.feed_id}", "title": sub.name, "categories": folders, "url": sub.feed.url,
            "htmlUrl": web_url(sub.feed.site_url), "iconUrl": "", "firstitemmsec": "0"}
