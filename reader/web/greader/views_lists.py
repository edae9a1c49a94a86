"""What an app lists before it syncs items: subscriptions, labels (folders, the starred state and the virtual
Recommended label) and unread counts."""
from __future__ import annotations

from django.db.models import Max
from django.http import JsonResponse

from ... import unread_cache
from ...models import Entry
from . import ids, render
from .protocol import api_view


def _subscriptions(user):
    return user.subscriptions.select_related("feed").order_by("folder", "feed__title", "feed__url")


@api_view("GET")
def subscription_list(request, caller, params):
    return JsonResponse({"subscriptions": [render.subscription(s) for s in _subscriptions(caller.user)]})


def recommended_unread(user) -> int:
    return Entry.objects.filter(user=user, recommended=True, read=False).count()


@api_view("GET")
def tag_list(request, caller, params):
    user = caller.user
    folders = sorted(set(user.subscriptions.exclude(folder="").values_list("folder", flat=True)), key=str.casefold)
    tags = [{"id": ids.state("starred")}]
    tags += [{"id": ids.label(name), "label": name, "type": "folder"} for name in folders]
    if ids.RECOMMENDED not in folders:
        tags.append({"id": ids.label(ids.RECOMMENDED), "label": ids.RECOMMENDED, "type": "tag",
                     "unread_count": recommended_unread(user)})
    return JsonResponse({"tags": tags})


def _usec(moment) -> str:
    return str(int(moment.timestamp() * 1_000_000)) if moment else "0"


@api_view("GET")
def unread_count(request, caller, params):
    """Per feed, per folder, the Recommended label and the whole reading list; with the arrival time of each one's
    newest unread story."""
    user = caller.user
    counts = unread_cache.unread(user).by_feed  # the cached counts the pages show
    newest = dict(Entry.objects.filter(user=user, read=False).values_list("feed_id")
                  .annotate(newest=Max("created_at")).order_by())
    rows, folders = [], {}
    for sub in _subscriptions(user):
        count, latest = counts.get(sub.feed_id, 0), newest.get(sub.feed_id)
        rows.append({"id": f"feed/{sub.feed_id}", "count": count, "newestItemTimestampUsec": _usec(latest)})
        if sub.folder:
            total, when = folders.get(sub.folder, (0, None))
            folders[sub.folder] = (total + count, max(filter(None, (when, latest)), default=None))
    rows += [{"id": ids.label(name), "count": total, "newestItemTimestampUsec": _usec(when)}
             for name, (total, when) in folders.items()]
    if ids.RECOMMENDED not in folders:
        rows.append({"id": ids.label(ids.RECOMMENDED), "count": recommended_unread(user),
                     "newestItemTimestampUsec": _usec(max(newest.values(), default=None))})
    total = sum(counts.values())
    rows.append({"id": ids.state("reading-list"), "count": total,
                 "newestItemTimestampUsec": _usec(max(newest.values(), default=None))})
    return JsonResponse({"max": total, "unreadcounts": rows})
