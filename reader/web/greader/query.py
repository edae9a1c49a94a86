"""Which of a user's entries a stream holds, filtered as the app asks, in order, a page at a time.

Orders (`r`): newest first by publication time (the default, what Google Reader did), oldest first (`r=o`), or
ranked (`r=a`, Google Reader's "auto" sort; here our score, best first). Pages are keyed like the feed page's
(reader/web/stream.py): the continuation is the key of the last item given, so paging never skips or repeats an
item while new ones arrive. `ot` and `nt` bound when the story reached the user's feed (Google Reader's crawl
time), so an app that syncs "since my last sync" also gets old stories from a feed added since.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from django.db.models import Q

from ...models import Entry, Subscription
from .. import stream as feed_stream
from .ids import Stream
from .protocol import bad_request, number

ORDERS = {"d": "newest", "n": "newest", "o": "oldest", "a": "ranked"}
DEFAULT_N = 20
MAX_N = 10_000
# The states xt (exclude) and it (include) may name, as conditions on entries.
EXCLUDE = {"read": Q(read=False), "starred": Q(saved=False), "kept-unread": Q(read=True), "unread": Q(read=True)}
INCLUDE = {"read": Q(read=True), "starred": Q(saved=True), "kept-unread": Q(read=False), "unread": Q(read=False),
           "reading-list": Q()}
KINDS = {"all": Q(), "starred": Q(saved=True), "read": Q(read=True), "unread": Q(read=False),
         "recommended": Q(recommended=True, read=False)}


@dataclass
class Query:
    stream: Stream
    order: str = "newest"
    n: int = DEFAULT_N
    continuation: str = ""
    since: float | None = None  # ot, seconds
    until: float | None = None  # nt, seconds
    conditions: list = field(default_factory=list)  # from xt and it


def _state_name(text: str) -> str | None:
    prefix = "/state/com.google/"
    return text.split(prefix, 1)[1] if text.startswith("user/") and prefix in text else None


def from_params(params, stream: Stream, default_n: int = DEFAULT_N) -> Query:
    """The query an app's parameters ask for. Unknown xt/it targets are dropped; n is clamped to 1..MAX_N."""
    order = params.get("r", "d")
    if order not in ORDERS:
        raise bad_request(f"r must be d (newest first), o (oldest first) or a (ranked), not {order[:20]!r}")
    conditions = [EXCLUDE[s] for s in map(_state_name, params.getlist("xt")) if s in EXCLUDE]
    conditions += [INCLUDE[s] for s in map(_state_name, params.getlist("it")) if s in INCLUDE]
    return Query(stream, ORDERS[order], int(number(params, "n", default_n, 1, MAX_N)), params.get("c", "").strip(),
                 number(params, "ot", None, 0, 2 ** 33), number(params, "nt", None, 0, 2 ** 33), conditions)


def _in_stream(user, stream: Stream) -> Q:
    if stream.kind == "none":
        return Q(pk__in=[])
    if stream.kind == "folder":
        return Q(feed_id__in=Subscription.objects.filter(user=user, folder=stream.folder).values("feed_id"))
    if stream.kind == "feed" and stream.feed_id is not None:
        return Q(feed_id=stream.feed_id)
    if stream.kind == "feed":
        return Q(feed_id__in=Subscription.objects.filter(user=user, feed__url=stream.feed_url)
                 .values("feed_id"))
    return KINDS[stream.kind]


_COLUMNS = {"newest": ("story__published", "story_id"), "oldest": ("story__published", "story_id"),
            "ranked": ("score", "story__published", "id")}


def _after(order: str, key: tuple) -> Q:
    """Entries strictly after `key` in the order."""
    columns, op = _COLUMNS[order], "gt" if order == "oldest" else "lt"
    condition = Q(**{f"{columns[-1]}__{op}": key[-1]})
    for column, value in zip(reversed(columns[:-1]), reversed(key[:-1])):
        condition = Q(**{f"{column}__{op}": value}) | (Q(**{column: value}) & condition)
    return condition


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=timezone.utc)


def page(user, query: Query) -> tuple[list[int], str | None]:
    """Up to n story ids of the stream, in order, and the continuation for the next page (None at the end)."""
    entries = Entry.objects.filter(Q(user=user) & _in_stream(user, query.stream), *query.conditions)
    if query.since is not None:
        entries = entries.filter(created_at__gte=_moment(query.since))
    if query.until is not None:
        entries = entries.filter(created_at__lt=_moment(query.until))
    sort = "score" if query.order == "ranked" else "newest"
    if query.continuation:
        try:
            entries = entries.filter(_after(query.order, feed_stream.decode_cursor(query.continuation, sort)))
        except feed_stream.BadCursor:
            raise bad_request(f"Not a continuation of this stream: {query.continuation[:40]!r}") from None
    direction = "" if query.order == "oldest" else "-"
    rows = list(entries.order_by(*(direction + c for c in _COLUMNS[query.order]))
                .values_list("story_id", "story__published", "score", "id")[:query.n + 1])
    shown = rows[:query.n]
    if len(rows) <= query.n:
        return [r[0] for r in shown], None
    story_id, published, score, entry_id = shown[-1]
    key = (score, published, entry_id) if sort == "score" else (published, story_id)
    return [r[0] for r in shown], feed_stream.encode_cursor(*key)
