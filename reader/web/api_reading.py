"""POST /api/stories/read: several stories read (or unread) at once, for mark-on-scroll (docs/api.md)."""
from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.http import require_POST

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
