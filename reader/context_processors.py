"""Template context shared by both template engines."""
from __future__ import annotations

from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html


def one_csrf_token(request) -> str:
    """The masked CSRF token of this response, made once.

    Django's lazy token masks the secret afresh at every use in a template, drawing 64 characters from the OS's
    random source one call at a time (tens of microseconds each); the feed page uses it three times. One mask per
    response is what BREACH protection needs. Keyed by the secret, so a token rotated mid-request (log in) is new.
    """
    secret = request.META.get("CSRF_COOKIE")
    made = getattr(request, "_reader_csrf_token", None)
    if secret is None or made is None or made[0] != secret:
        token = get_token(request)
        made = request._reader_csrf_token = (request.META["CSRF_COOKIE"], token)
    return made[1]


def csrf(request) -> dict:
    """Replaces the engines' own `csrf_token` and `csrf_input` (still lazy: pages without forms set no cookie)."""
    token = SimpleLazyObject(lambda: one_csrf_token(request))
    return {"csrf_token": token,
            "csrf_input": SimpleLazyObject(lambda: format_html(
                '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token))}
