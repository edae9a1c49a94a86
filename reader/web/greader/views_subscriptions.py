"""Subscribing and editing subscriptions: subscription/edit (subscribe, unsubscribe, rename, move to a folder) and
subscription/quickadd, through the reader's one subscribe service (reader/ingestion/subscribe.py)."""
from __future__ import annotations

from django.http import JsonResponse

from ...ingestion import subscribe as subscribing
from ...ingestion.digits import row_id
from ...models import Subscription
from . import ids
from .protocol import GReaderError, api_view, bad_request, ok

FOLDER_LENGTH = Subscription._meta.get_field("folder").max_length
TITLE_LENGTH = Subscription._meta.get_field("title").max_length


def _feed_url(text: str) -> str:
    url = text.strip()
    if not url.lower().startswith(("http://", "https://")) or len(url) > 2000:
        raise bad_request(f"Not a feed or page address (http or https): {url[:80]!r}")
    return url


def subscribe(user, url: str, folder: str = "") -> tuple[Subscription, str]:
    """Follow the feed at or behind url (the first one a page offers); a new feed's stories are stored at once
    (subscribing.subscribe). Returns the subscription and the feed's name (the feed's own title, else the one
    discovery read). 400 when there is no feed there or the user follows as many feeds as the server allows."""
    try:
        feed, _created, candidates = subscribing.subscribe(user, _feed_url(url), folder=folder)
        if feed is None:  # a page that offers several feeds: an app cannot ask the user, so the first one
            feed, _created, _ = subscribing.subscribe(user, candidates[0].url, folder=folder)
    except (subscribing.DiscoveryError, subscribing.TooManyFeeds) as exc:
        raise bad_request(f"Could not subscribe: {exc}") from None
    subscription = user.subscriptions.select_related("feed").get(feed=feed)
    found = next((c.title for c in candidates if c.url == feed.url and c.title), "")
    return subscription, subscription.title or feed.title or found or feed.url


def _own(user, stream_id: str) -> Subscription:
    text = stream_id.strip()
    found = None
    if text.startswith("feed/"):
        rest = text[5:]
        feed_id = row_id(rest)
        lookup = {"feed_id": feed_id} if feed_id is not None else {"feed__url": rest}
        found = user.subscriptions.select_related("feed").filter(**lookup).first()
    if found is None:
        raise GReaderError(404, f"You do not follow {text[:80]!r}")
    return found


def _edit(subscription: Subscription, params) -> None:
    """t renames (empty: back to the feed's own title); a=label moves to that folder, r=label out of it."""
    changed = []
    if "t" in params:
        subscription.title = " ".join(params.get("t", "").split())[:TITLE_LENGTH]
        changed.append("title")
    removed = ids.label_name(params.get("r", "")) if params.get("r") else None
    added = ids.label_name(params.get("a", "")) if params.get("a") else None
    if params.get("a") and added is None:
        raise bad_request("a must be a label, user/-/label/<folder>")
    if removed is not None and removed == subscription.folder:
        subscription.folder = ""
        changed.append("folder")
    if added is not None:
        subscription.folder = added.strip()[:FOLDER_LENGTH]
        changed.append("folder")
    if changed:
        subscription.save(update_fields=list(dict.fromkeys(changed)))


@api_view("POST")
def subscription_edit(request, caller, params):
    action, streams, user = params.get("ac", ""), params.getlist("s"), caller.user
    if not streams:
        raise bad_request("s (the feed, feed/<id> or feed/<address>) is required")
    if action == "subscribe":
        text = streams[0].strip()
        if not text.startswith("feed/"):
            raise bad_request("Subscribe to s=feed/<address>")
        followed = user.subscriptions.filter(feed__url=text[5:]).exists() or text[5:].isdigit()
        subscription = _own(user, text) if followed else subscribe(user, text[5:])[0]
        _edit(subscription, params)
    elif action == "unsubscribe":
        for subscription in [_own(user, s) for s in streams]:  # all known before any goes
            subscribing.unsubscribe(subscription)
    elif action == "edit":
        _edit(_own(user, streams[0]), params)
    else:
        raise bad_request("ac must be subscribe, unsubscribe or edit")
    return ok()


@api_view("POST")
def quickadd(request, caller, params):
    url = params.get("quickadd", "").strip()
    if not url:
        raise bad_request("quickadd (the feed or page address) is required")
    url = url[5:] if url.startswith("feed/") else url
    try:
        subscription, name = subscribe(caller.user, url)
    except GReaderError as exc:
        return JsonResponse({"numResults": 0, "query": url[:2000], "error": exc.message}, status=exc.status)
    return JsonResponse({"numResults": 1, "query": url, "streamId": f"feed/{subscription.feed_id}",
                         "streamName": name})


def _folder(params, name: str) -> str:
    folder = ids.label_name(params.get(name, ""))
    if not folder:
        raise bad_request(f"{name} must be a label, user/-/label/<folder>")
    return folder


@api_view("POST")
def rename_tag(request, caller, params):
    """A folder's new name, for every feed in it."""
    old, new = _folder(params, "s"), _folder(params, "dest").strip()[:FOLDER_LENGTH]
    if not caller.user.subscriptions.filter(folder=old).update(folder=new):
        raise GReaderError(404, f"No folder named {old[:80]!r}")
    return ok()


@api_view("POST")
def disable_tag(request, caller, params):
    """Removing a folder: its feeds stay, in no folder."""
    caller.user.subscriptions.filter(folder=_folder(params, "s")).update(folder="")
    return ok()
