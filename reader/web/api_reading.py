"""POST /api/stories/read: several stories read (or unread) at once, for mark-on-scroll; POST /api/stories/signals:
what the reader opened, read to the end or scrolled past, for users who opted in (docs/api.md)."""
from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.http import require_POST

from ..ranking import implicit
from . import reading
from .api import MAX_ID, body, flag, login_required_json
from .api_errors import ApiError

MAX_IDS = 500


def story_ids(data: dict) -> list[int]:
    ids = data.get("ids")
    if (not isinstance(ids, list) or len(ids) > MAX_IDS
            or not all(type(i) is int and 0 < i <= MAX_ID for i in ids)):
        raise ApiError("bad_ids", 400, f'"ids" must be a list of at most {MAX_IDS} story ids')
    return ids


@login_required_json
@require_POST
def read_many(request):
    try:
        data = body(request)
        ids, read = story_ids(data), flag(data, "read")
    except ApiError as exc:
        return exc.response()
    return JsonResponse({"changed": reading.set_read(request.user, ids, read), "read": read})


def signal_list(data: dict) -> list[tuple[int, str]]:
    """{"signals": [{"id": story id, "kind": "opened" | "read" | "saved" | "skipped"}, ...]}: a malformed item is
    dropped, not the whole batch; a batch that is no list, or too long, is refused."""
    items = data.get("signals")
    if not isinstance(items, list) or len(items) > MAX_IDS:
        raise ApiError("bad_signals", 400, f'"signals" must be a list of at most {MAX_IDS} {{"id", "kind"}} objects')
    return [(item["id"], item["kind"]) for item in items
            if isinstance(item, dict) and type(item.get("id")) is int and 0 < item["id"] <= MAX_ID
            and isinstance(item.get("kind"), str) and item["kind"] in implicit.KINDS]


@login_required_json
@require_POST
def signals(request):
    try:
        batch = signal_list(body(request))
    except ApiError as exc:
        return exc.response()
    recorded = implicit.record(request.user.id, batch)
    return JsonResponse({"recorded": recorded, "enabled": implicit.enabled(request.user.id)})
