"""How every Google Reader API call is checked and answered: its parameters, the GoogleLogin header, the edit
token on POSTs, a per-user request budget, and clear 4xx errors (JSON when the app asked for JSON, else text).

The API reads no cookies (the session is never consulted), so a page on another site cannot act through a
reader's browser; that is why the views are exempt from Django's CSRF check. T is checked on every POST anyway,
as Google Reader did, and a stale T answers 401 with `X-Reader-Google-Bad-Token: true`, which tells apps to ask
/token again.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from urllib.parse import parse_qsl

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.datastructures import MultiValueDict
from django.views.decorators.csrf import csrf_exempt

from .. import ratelimit
from . import credentials

# A sync asks for up to 10,000 items at once (NetNewsWire's older versions do), each a repeated `i=` field: more
# than Django's 1,000-field form limit, so the API parses its form bodies itself, with this bound.
MAX_FIELDS = 10_100


class GReaderError(Exception):
    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}

    def response(self, params) -> HttpResponse:
        if wants_json(params):
            response = JsonResponse({"error": {"code": self.status, "message": self.message}}, status=self.status)
        else:
            response = HttpResponse(self.message + "\n", status=self.status, content_type="text/plain; charset=utf-8")
        for name, value in self.headers.items():
            response[name] = value
        return response


def wants_json(params) -> bool:
    return params is not None and params.get("output", "") == "json"


def bad_request(message: str) -> GReaderError:
    return GReaderError(400, message)


def parameters(request) -> MultiValueDict:
    """The query string and, for a POST, the form body (its values after the query's)."""
    merged = MultiValueDict()
    for key, values in request.GET.lists():
        merged.setlistdefault(key).extend(values)
    if request.method == "POST":
        if request.content_type == "multipart/form-data":
            pairs = [(key, value) for key, values in request.POST.lists() for value in values]
        else:  # form-encoded, or no type at all (some apps send none)
            try:
                pairs = parse_qsl(request.body.decode("utf-8", "replace"), keep_blank_values=True,
                                  max_num_fields=MAX_FIELDS)
            except ValueError:
                raise bad_request(f"Too many form fields (at most {MAX_FIELDS})") from None
        for key, value in pairs:
            merged.setlistdefault(key).append(value)
    refuse_nul([*merged, *(value for _key, values in merged.lists() for value in values)])
    return merged


def refuse_nul(texts) -> None:
    """400 for a NUL anywhere: no name or value the API keeps can hold one, and PostgreSQL refuses it in any query
    (a label "a\\x00b" in a stream id was a DataError, a 500, however the call would have ended)."""
    if any("\x00" in text for text in texts):
        raise bad_request("Parameters cannot hold NUL characters")


UNAUTHORIZED = {"X-Reader-Google-Bad-Token": "true", "WWW-Authenticate": "GoogleLogin"}


def token_from_header(request) -> str:
    """`GoogleLogin auth=<token>`, the header every app sends; empty if there is none of that form."""
    scheme, _, rest = request.META.get("HTTP_AUTHORIZATION", "").strip().partition(" ")
    name, _, token = rest.strip().partition("=")
    return token.strip() if scheme.lower() == "googlelogin" and name.strip().lower() == "auth" else ""


@dataclass
class Caller:
    user: object
    stored: object  # the ApiPassword row the token was made from


def authenticate(request, params) -> Caller:
    token = token_from_header(request)
    stored = credentials.stored_for_token(token) if token else None
    if stored is None:
        raise GReaderError(401, "Unauthorized: sign in with /accounts/ClientLogin and send "
                                "'Authorization: GoogleLogin auth=<token>'", UNAUTHORIZED)
    if request.method == "POST" and not credentials.edit_token_matches(stored, params.get("T", "")):
        raise GReaderError(401, "Unauthorized: missing or stale edit token T; get one from /reader/api/0/token",
                           UNAUTHORIZED)
    # date_joined too: a user id can come back (a deleted account, a test database rolled back).
    budget = f"{stored.user_id}:{stored.user.date_joined.timestamp()}"
    wait = ratelimit.hit("greader", budget, settings.GREADER_RATE_LIMIT, settings.GREADER_RATE_WINDOW)
    if wait:
        raise GReaderError(429, f"Too many requests; try again in {wait} s", {"Retry-After": str(wait)})
    return Caller(stored.user, stored)


def api_view(*methods: str):
    """A view of the API: `view(request, caller, params, **kwargs)`, called for these methods only."""
    def decorate(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            params = None
            try:
                if request.method not in methods:
                    raise GReaderError(405, f"Use {' or '.join(methods)}", {"Allow": ", ".join(methods)})
                params = parameters(request)
                refuse_nul(kwargs.values())  # a stream id in the path
                return view(request, authenticate(request, params), params, *args, **kwargs)
            except GReaderError as exc:
                return exc.response(params)
        return wrapper
    return decorate


def ok() -> HttpResponse:
    return HttpResponse("OK", content_type="text/plain; charset=utf-8")


def number(params, name: str, default=None, minimum=None, maximum=None) -> float | None:
    """A numeric parameter (apps send Unix times as "1701234567" or "1701234567.123"), clamped to the bounds;
    400 if it is not a finite number."""
    raw = params.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")) or len(raw) > 40:
        raise bad_request(f"{name} must be a number, not {raw[:40]!r}")
    if minimum is not None:
        value = max(minimum, value)
    if maximum is not None:
        value = min(maximum, value)
    return value
