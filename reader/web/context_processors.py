"""Template context for the reader's pages (the Jinja2 engine's context processors)."""
from __future__ import annotations

from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html


def csrf(request) -> dict:
    """`csrf_token` and `csrf_input` sharing one masked token, made on first use.

    They replace the engine's own, which mask the secret afresh at every use in a template, each time drawing
    64 characters from the OS's random source one call at a time (tens of microseconds); the feed page uses the
    token three times. One mask per response is what BREACH protection needs. Still lazy: pages without forms
    set no CSRF cookie.
    """
    token = SimpleLazyObject(lambda: get_token(request))
    return {"csrf_token": token,
            "csrf_input": SimpleLazyObject(lambda: format_html(
                '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token))}


def unread(request) -> dict:
    """`unread_count` for the nav: the signed-in user's unread stories, counted only if a page shows it."""
    from .reading import unread_total

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_count": 0}
    return {"unread_count": SimpleLazyObject(lambda: unread_total(user))}


def names(request) -> dict:
    """`names.show(kind, value)`: a taste feature or rule as the user's stories write it (reader/as_written)."""
    from .as_written import Names

    user = getattr(request, "user", None)
    return {"names": SimpleLazyObject(lambda: Names(user))}
