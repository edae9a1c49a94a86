"""The JSON API (docs/api.md): session auth + CSRF for a user's own feed; an open, rate-limited extractor."""
from __future__ import annotations

import json
from functools import wraps

from django.conf import settings
from django.db.models import Count, Q
from django.http import JsonResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import extraction

from .. import unread_cache
from ..models import Entry, Feed, Rating, Story
from ..ranking import scores
from . import extract_demo, ratelimit, reading, stream
from .api_errors import ApiError
from .jinja import web_url

RATINGS = {"good": Rating.GOOD, "bad": Rating.BAD, None: None}
RATING_NAMES = {Rating.GOOD: "good", Rating.BAD: "bad", None: None}


def error(code: str, message: str, status: int) -> JsonResponse:
    return ApiError(code, status, message).response()


def login_required_json(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return error("not_logged_in", "Log in first: this API uses your session", 401)
        return view(request, *args, **kwargs)
    return wrapper


def csrf_failure(request, reason=""):
    """CSRF failures as JSON for API clients; for forms, a page in the site's own style that says what to do (Django's
    own page is for developers, and its inline style is refused by our Content-Security-Policy)."""
    if request.path.startswith("/api/"):
        return error("csrf", f"CSRF check failed ({reason}); send the X-CSRFToken header from the csrftoken cookie",
                     403)
    return render(request, "403_csrf.html", {"reason": reason, "no_cookie": reason == REASON_NO_CSRF_COOKIE},
                  status=403)


def body(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except RecursionError:  # the decoder recurses once per level of nesting
        raise ApiError("bad_json", 400, "The request body is nested too deeply") from None
    except ValueError:  # bad JSON or text, and numbers past Python's digit limit
        raise ApiError("bad_json", 400, "The request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError("bad_json", 400, "The request body must be a JSON object")
    return data


MAX_ID = 2 ** 63 - 1


def id_list(text: str) -> list[int]:
    """'1,2,3' -> [1, 2, 3]; ValueError unless every item is a possible row id (the database overflows past it)."""
    ids = [int(i) for i in text.split(",") if i.strip()]
    if not all(0 < i <= MAX_ID for i in ids):
        raise ValueError(f"row ids are between 1 and {MAX_ID}")
    return ids


def entry_json(item: stream.Item) -> dict:
    return {
        "id": item.story_id, "title": item.title, "url": web_url(item.url), "feed": {"id": item.feed_id, "title": item.feed},
        "author": item.author, "published": item.published.isoformat(), "snippet": item.snippet,
        "score": item.score, "recommended": item.recommended, "reasons": item.reasons,
        "read": item.read, "saved": item.saved, "rating": RATING_NAMES[item.rating],
        "extraction": item.extraction_status,
    }


def cors(response):
    # The extractor is public and reads no cookies, so any page may call it (the embeddable widget).
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Allow-Headers"] = "Content-Type"
    response["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
    response["Access-Control-Max-Age"] = "3600"
    return response


@csrf_exempt  # acts with no user's authority (the session is never read), so there is nothing to forge
@require_http_methods(["GET", "POST", "OPTIONS"])
def extract(request):
    if request.method == "OPTIONS":
        return cors(JsonResponse({}))
    if request.method == "GET":
        return cors(JsonResponse({"methods": list(extraction.METHODS), "default": settings.EXTRACTION_METHOD}))
    wait = ratelimit.hit("extract", ratelimit.client_address(request),
                         settings.EXTRACT_RATE_LIMIT, settings.EXTRACT_RATE_WINDOW)
    if wait:
        return cors(ApiError("rate_limited", 429, f"Too many extractions from your address; try again in {wait} s",
                             {"Retry-After": str(wait)}).response())
    try:
        data = body(request)
        compare = bool(data.get("compare"))
        methods = list(extraction.METHODS) if compare else [data.get("method") or settings.EXTRACTION_METHOD]
        extract_demo.check_methods(methods)
        source = extract_demo.load(data.get("url"), data.get("html"))
        if compare:  # every method on one page: a smaller page, so that the request's CPU time stays bounded
            extract_demo.check_size(source.html, settings.EXTRACT_COMPARE_MAX_BYTES, "The page",
                                    "for comparing all methods (one method takes larger pages)")
        result = ({"results": extract_demo.compare(source, methods), "url": source.url} if compare
                  else extract_demo.run(source, methods[0]))
    except ApiError as exc:
        if exc.status in (502, 504):  # the site's failure, not ours: see api_errors.SiteFaultsAsWarnings
            request.site_fault = True
        return cors(exc.response())
    return cors(JsonResponse(result))


@require_GET
@login_required_json
def stories(request):
    filter_name = request.GET.get("filter", stream.DEFAULT_FILTER)
    if filter_name not in stream.FILTERS:
        return error("bad_filter", f"filter must be one of {', '.join(stream.FILTERS)}", 400)
    if request.GET.get("sort", stream.DEFAULT_SORT) not in stream.SORTS:
        return error("bad_sort", f"sort must be one of {', '.join(stream.SORTS)}", 400)
    try:
        scope = stream.scope_from(request.GET)
        page = stream.page(request.user, cursor=request.GET.get("cursor"), scope=scope)
    except stream.BadCursor as exc:
        return error("bad_cursor", str(exc), 400)
    except stream.BadFolder as exc:
        return error("bad_folder", str(exc), 400)
    except ValueError as exc:
        return error("bad_feed", str(exc), 400)
    return JsonResponse({"stories": [entry_json(e) for e in page.entries], "next_cursor": page.next_cursor})


def own_entry(view):
    """Only the user's own entries: another user's story id answers 404, exactly like a missing one."""
    @wraps(view)
    def wrapper(request, story_id):
        entry = Entry.objects.filter(user=request.user, story_id=story_id).first()
        if entry is None:
            return error("not_found", "No such story in your feed", 404)
        try:
            return view(request, entry, body(request))
        except ApiError as exc:
            return exc.response()
    return login_required_json(require_POST(wrapper))


def flag(data: dict, name: str) -> bool:
    value = data.get(name, True)
    if not isinstance(value, bool):
        raise ApiError("bad_value", 400, f'"{name}" must be true or false')
    return value


@own_entry
def rating(request, entry, data):
    value = data.get("rating", "")  # missing: "", which is no rating
    if not (value is None or isinstance(value, str)) or value not in RATINGS:  # a list or object is unhashable
        return error("bad_rating", 'Send {"rating": "good"}, {"rating": "bad"} or {"rating": null}', 400)
    scores.rate(request.user, entry.story_id, RATINGS[value])
    return JsonResponse({"id": entry.story_id, "rating": value})


@own_entry
def read(request, entry, data):
    wanted = flag(data, "read")
    reading.set_read(request.user, [entry.story_id], wanted)  # also refreshes the unread counts
    return JsonResponse({"id": entry.story_id, "read": wanted})


@own_entry
def save(request, entry, data):
    wanted = flag(data, "saved")
    reading.set_saved(request.user, [entry.story_id], wanted)
    return JsonResponse({"id": entry.story_id, "saved": wanted})


@require_GET
@login_required_json
def progress(request):
    """How the user's newly added feeds are doing: fetched yet, stories in, pages extracted."""
    try:
        ids = id_list(request.GET.get("feeds", ""))
    except ValueError:
        return error("bad_feeds", "feeds must be a comma-separated list of feed ids", 400)
    feeds = (Feed.objects.filter(id__in=ids[:2000], subscriptions__user=request.user)
             .annotate(stories_total=Count("stories", distinct=True),
                       stories_pending=Count("stories", filter=Q(stories__extraction_status=Story.Extraction.PENDING),
                                             distinct=True))
             .order_by("id"))
    rows = [{
        "id": f.id, "title": str(f), "url": f.url, "fetched": f.last_fetched_at is not None, "error": f.last_error,
        "failed": bool(f.last_error), "stories": f.stories_total, "extracting": f.stories_pending,
    } for f in feeds]
    done = all(r["fetched"] and not r["extracting"] for r in rows)
    # The worker storing these stories cannot drop this process's cached counts under the default per-process
    # cache; the page that watches it does, so the page the user goes to next counts them.
    unread_cache.forget([request.user.id])
    return JsonResponse({"feeds": rows, "done": done, "summary": progress_summary(rows, done)})


def progress_summary(rows: list[dict], done: bool) -> str:
    """One line over the progress list; a feed that failed is never counted as fetched."""
    total, failed = len(rows), sum(r["failed"] for r in rows)
    fetched, stories = sum(r["fetched"] and not r["failed"] for r in rows), sum(r["stories"] for r in rows)
    found = f"{_count(stories, 'story', 'stories')} {'is' if stories == 1 else 'are'} in your feed"
    if not done:
        return f"{fetched} of {_count(total, 'feed', 'feeds')} fetched, {_count(stories, 'story', 'stories')} so far…"
    if not failed:
        return f"Done: {_count(total, 'feed', 'feeds')} fetched, {found}."
    if failed == total:
        return ("The feed could not be fetched: see the error below." if total == 1
                else f"None of the {total} feeds could be fetched: see the errors below.")
    return f"{fetched} of {total} feeds fetched, {found}; {failed} could not be fetched (see below)."


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
