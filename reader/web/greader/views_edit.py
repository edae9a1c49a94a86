"""Changing items: edit-tag (read, kept-unread, starred) and mark-all-as-read, through the reader's own services
(reader/web/reading.py), so the pages' unread counts follow."""
from __future__ import annotations

from datetime import datetime, timezone

from django.db.models import Max

from ...models import Entry, Subscription
from .. import reading, stream as feed_stream
from . import ids
from .protocol import api_view, bad_request, number, ok

# What adding (True) or removing (False) a state does: (field, value).
EFFECTS = {("read", True): ("read", True), ("read", False): ("read", False),
           ("kept-unread", True): ("read", False), ("kept-unread", False): ("read", True),
           ("starred", True): ("saved", True), ("starred", False): ("saved", False)}
IGNORED = {"like", "broadcast", "broadcast-friends", "tracking-kept-unread", "tracking-body-link-used",
           "tracking-emailed", "tracking-item-link-used", "fresh", "reading-list"}


def _changes(params) -> dict[str, bool]:
    """field -> value wanted, from the a= (add) and r= (remove) tags; labels on items are accepted and ignored."""
    changes: dict[str, bool] = {}
    for adding, key in ((True, "a"), (False, "r")):
        for tag in params.getlist(key):
            tag = tag.strip()
            if ids.label_name(tag) is not None:
                continue
            prefix = "/state/com.google/"
            name = tag.split(prefix, 1)[1] if tag.startswith("user/") and prefix in tag else None
            if name in IGNORED:
                continue
            if (name, adding) not in EFFECTS:
                raise bad_request(f"Unknown tag: {tag[:80]!r} (read, kept-unread and starred can be set)")
            field, value = EFFECTS[(name, adding)]
            if changes.setdefault(field, value) != value:
                raise bad_request(f"Conflicting tags: {field} both set and cleared")
    return changes


@api_view("POST")
def edit_tag(request, caller, params):
    story_ids = ids.item_ids(params)
    changes = _changes(params)
    if not params.getlist("a") and not params.getlist("r"):
        raise bad_request("Send a=<tag> to add or r=<tag> to remove, e.g. a=user/-/state/com.google/read")
    if "read" in changes:
        reading.set_read(caller.user, story_ids, changes["read"])
    if "saved" in changes:
        reading.set_saved(caller.user, story_ids, changes["saved"])
    return ok()


def _bound(user, params) -> int:
    """The newest entry id mark-all-as-read reaches: stories that reached the feed up to ts (microseconds when 16
    digits or more, else seconds), or all the user has now."""
    raw = params.get("ts", "").strip()
    if not raw:
        return reading.newest_entry_id()
    value = number(params, "ts", minimum=0)
    seconds = value / 1_000_000 if len(raw.split(".")[0]) >= 16 else value
    moment = datetime.fromtimestamp(min(seconds, 2 ** 33), tz=timezone.utc)
    return Entry.objects.filter(user=user, created_at__lte=moment).aggregate(top=Max("id"))["top"] or 0


def _scope(user, stream: ids.Stream) -> feed_stream.Scope | None:
    if stream.kind in ("read", "none"):
        return None
    if stream.kind == "feed" and stream.feed_id is None:
        feed_id = Subscription.objects.filter(user=user, feed__url=stream.feed_url).values_list("feed_id", flat=True)
        stream = ids.Stream("feed", feed_id=feed_id.first() or 0)
    return feed_stream.Scope({"recommended": "recommended", "starred": "saved"}.get(stream.kind, "all"),
                             feed_id=stream.feed_id, folder=stream.folder)


@api_view("POST")
def mark_all_as_read(request, caller, params):
    user = caller.user
    if not params.get("s", "").strip():
        raise bad_request("s (the stream to mark read) is required")
    stream = ids.users_stream(params["s"], user)
    upto = _bound(user, params)
    scope = _scope(user, stream)
    if scope is not None and upto:
        reading.mark_all_read(user, scope, upto)
    return ok()
