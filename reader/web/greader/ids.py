"""The protocol's names for things: item ids (long and short form) and stream ids (states, labels, feeds).

An item is one of the user's stories, named by the story's id: long form `tag:google.com,2005:reader/item/<hex>`
(16 hex digits when we write it; apps send it unpadded too, NetNewsWire among them), short form the decimal id.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .protocol import GReaderError, bad_request

LONG_PREFIX = "tag:google.com,2005:reader/item/"
MAX_ID = 2 ** 63 - 1
HEX = re.compile(r"[0-9a-fA-F]{1,16}")
DECIMAL = re.compile(r"[0-9]{1,19}")


def long_id(story_id: int) -> str:
    return f"{LONG_PREFIX}{story_id:016x}"


def item_id(text: str) -> int:
    """The story id an item id names; 400 for anything that is not an item id."""
    text = text.strip()
    if text.startswith(LONG_PREFIX):
        digits = text[len(LONG_PREFIX):]
        value = int(digits, 16) if HEX.fullmatch(digits) else 0
    else:
        value = int(text) if DECIMAL.fullmatch(text) else 0
    if not 0 < value <= MAX_ID:
        raise bad_request(f"Not an item id: {text[:60]!r} (long form {LONG_PREFIX}<hex> or a decimal id)")
    return value


MAX_ITEMS = 10_000


def item_ids(params) -> list[int]:
    values = params.getlist("i")
    if not values:
        raise bad_request("No items: send one or more i=<item id>")
    if len(values) > MAX_ITEMS:
        raise bad_request(f"Too many items: at most {MAX_ITEMS} per request")
    return list(dict.fromkeys(item_id(v) for v in values))


# States: the user's own, or "-" for the caller. Label names may hold any character, "/" included.
_STATE = re.compile(r"user/(-|[0-9]{1,18})/state/com\.google/(.+)")
_LABEL = re.compile(r"user/(-|[0-9]{1,18})/label/(.+)", re.S)
_FEED_ID = re.compile(r"[0-9]{1,18}")
RECOMMENDED = "Recommended"  # the virtual label of recommended unread stories: our ranking, in any app


@dataclass(frozen=True)
class Stream:
    """kind: all, starred, read, unread, recommended, folder, feed, or none (states we keep nothing in)."""
    kind: str
    folder: str | None = None
    feed_id: int | None = None
    feed_url: str | None = None


STATES = {"reading-list": "all", "starred": "starred", "read": "read", "kept-unread": "unread",
          "unread": "unread", "fresh": "unread",
          # Known states we keep nothing in: an empty stream, not an error.
          "like": "none", "broadcast": "none", "broadcast-friends": "none", "tracking-kept-unread": "none"}


def _own(user, who: str) -> None:
    if who != "-" and who != str(user.pk):
        raise GReaderError(404, "No such stream: it belongs to another user")


def stream(text: str, user, folders: set[str]) -> Stream:
    """The stream an id names; `folders` are the user's folder names (a folder named like the virtual label
    shadows it). 400 for an id of no known shape."""
    text = text.strip()
    if match := _STATE.fullmatch(text):
        _own(user, match[1])
        if match[2] not in STATES:
            raise bad_request(f"Unknown state stream: {text[:80]!r}")
        return Stream(STATES[match[2]])
    if match := _LABEL.fullmatch(text):
        _own(user, match[1])
        name = match[2]
        if name == RECOMMENDED and name not in folders:
            return Stream("recommended")
        return Stream("folder", folder=name)
    if text.startswith("feed/") and len(text) > 5:
        rest = text[5:]
        return Stream("feed", feed_id=int(rest)) if _FEED_ID.fullmatch(rest) else Stream("feed", feed_url=rest)
    raise bad_request(f"Unknown stream: {text[:80]!r} (user/-/state/com.google/…, user/-/label/…, feed/…)")


def users_stream(text: str, user) -> Stream:
    """The stream an id names for this user, with their folders looked up."""
    return stream(text, user, set(user.subscriptions.values_list("folder", flat=True)))


def label(name: str) -> str:
    return f"user/-/label/{name}"


def state(name: str) -> str:
    return f"user/-/state/com.google/{name}"


def label_name(text: str) -> str | None:
    """The folder a label stream (`a=`/`r=` of subscription/edit) names, or None if it is not a label."""
    match = _LABEL.fullmatch(text.strip())
    return match[2] if match else None
