"""The Jinja2 environment the reader's pages are rendered with (Django's template language is left to the admin).

Django's template language spent 40-65 ms on a feed page of 40 entries (a node walk per variable, three URL
reversals and two CSRF tokens per entry); Jinja2 compiles the same markup to Python and renders the list in about
1 ms. The helpers below are the few Django template tags and filters the pages use.
"""
from __future__ import annotations

from datetime import datetime
from functools import cache

from django.template import defaultfilters
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from jinja2 import Environment

from . import as_written

_SENTINEL = 987654321


@cache
def _url_around_id(name: str) -> tuple[str, str]:
    # reverse() costs tens of microseconds and a page needs 120 URLs that differ only in the story id.
    head, _, tail = reverse(name, args=[_SENTINEL]).partition(str(_SENTINEL))
    return head, tail


@cache
def _plain_url(name: str) -> str:
    return reverse(name)


@cache
def static_url(path: str) -> str:
    """static(), remembered: a file's address does not change while the process runs (the storage has no manifest
    to reload), and static() costs about 10 microseconds; every page asks for three."""
    return static(path)


def url(name: str, object_id: int | None = None) -> str:
    """The path of a named URL, taking at most one id (every URL of the reader's pages does)."""
    if object_id is None:
        return _plain_url(name)
    head, tail = _url_around_id(name)
    return f"{head}{int(object_id)}{tail}"


_UNITS = ((365 * 86400, "year"), (30 * 86400, "month"), (7 * 86400, "week"), (86400, "day"), (3600, "hour"),
          (60, "minute"))


def ago(moment) -> str:
    """'3 hours ago': the largest unit is enough in a list (Django's timesince took a tenth of the page)."""
    seconds = (timezone.now() - moment).total_seconds()
    for size, unit in _UNITS:
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    return "just now"


def web_url(url: str) -> str:
    """The address if it is an http(s) one; feeds can carry javascript: or data: links."""
    return url if url.lower().startswith(("http://", "https://")) else ""


def environment(**options) -> Environment:
    env = Environment(**options)
    env.globals.update(url=url, static=static_url)
    # url is a filter too ('story'|url(id)): in a loop, a filter costs a tenth of a call (entries.html).
    env.filters.update(url=url, web_url=web_url, iso=datetime.isoformat, ago=ago, date=defaultfilters.date,
                       timesince=defaultfilters.timesince_filter, timeuntil=defaultfilters.timeuntil_filter,
                       pluralize=defaultfilters.pluralize, truncatechars=defaultfilters.truncatechars,
                       as_written=as_written.reason)
    return env
