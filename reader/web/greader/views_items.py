"""Items: their ids in a stream (how apps sync), their contents by id, and a stream's contents in one call."""
from __future__ import annotations

import time

from django.http import JsonResponse

from . import ids, query, render
from .protocol import api_view, bad_request


@api_view("GET")
def item_ids(request, caller, params):
    """GET stream/items/ids?s=<stream>&n=&r=&c=&xt=&it=&ot=&nt= -> {"itemRefs": [{"id": "<decimal>"}],
    "continuation": …}"""
    if not params.get("s", "").strip():
        raise bad_request("s (the stream) is required, e.g. s=user/-/state/com.google/reading-list")
    wanted = query.from_params(params, ids.users_stream(params["s"], caller.user))
    story_ids, continuation = query.page(caller.user, wanted)
    answer = {"itemRefs": [{"id": str(i)} for i in story_ids]}
    if continuation:
        answer["continuation"] = continuation
    return JsonResponse(answer)


def _contents(stream_id: str, title: str, items: list[dict], continuation: str | None = None) -> JsonResponse:
    answer = {"direction": "ltr", "id": stream_id, "title": title, "updated": int(time.time()), "items": items}
    if continuation:
        answer["continuation"] = continuation
    return JsonResponse(answer)


@api_view("GET", "POST")
def item_contents(request, caller, params):
    """POST stream/items/contents with i=<item id>, repeated (long or short form): the user's own items among them,
    in the order asked (r=o reverses it, as apps that send r expect)."""
    story_ids = ids.item_ids(params)
    items = render.items(caller.user, story_ids)
    if params.get("r") == "o":
        items.sort(key=lambda item: (item["published"], item["id"]))
    return _contents(ids.state("reading-list"), "Reading list", items)


@api_view("GET")
def stream_contents(request, caller, params, stream_id: str = ""):
    """GET stream/contents/<stream> (or ?s=): the stream's items, a page of n (default 20), with continuation."""
    stream_id = stream_id or params.get("s", "") or ids.state("reading-list")
    wanted = query.from_params(params, ids.users_stream(stream_id, caller.user))
    story_ids, continuation = query.page(caller.user, wanted)
    return _contents(stream_id, stream_id.rsplit("/", 1)[-1], render.items(caller.user, story_ids), continuation)
