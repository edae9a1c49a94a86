"""When to fetch a feed next: its posting rate, what the server asks for, and backoff after errors."""
from __future__ import annotations

import random
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime

from django.conf import settings

from .digits import whole_number

SLOWDOWN = 1.25  # nothing new: wait a little longer next time
LONG_FAILING = timedelta(days=3)
RARE_RETRY = timedelta(days=3)  # a feed failing for days is still tried, but rarely


def clamp(seconds: float) -> int:
    return int(min(max(seconds, settings.FEED_MIN_INTERVAL), settings.FEED_MAX_INTERVAL))


def posting_interval(published: list[datetime], now: datetime) -> int:
    """About two fetches per typical gap between posts; slower as the newest post ages."""
    if len(published) < 2:
        return clamp(3600)
    newest, oldest = max(published), min(published)
    mean_gap = (newest - oldest).total_seconds() / (len(published) - 1)
    quiet_for = (now - newest).total_seconds()
    return clamp(max(mean_gap, quiet_for / 4) / 2)


def unchanged_interval(current: int) -> int:
    return clamp(current * SLOWDOWN)


def server_minimum(headers: dict, ttl_minutes: int | None) -> int:
    """The longest of Cache-Control max-age and RSS <ttl>: the server says nothing changes sooner."""
    seconds = ttl_minutes * 60 if ttl_minutes else 0
    for directive in headers.get("cache-control", "").split(","):
        name, _, value = directive.strip().partition("=")
        if name.lower() == "max-age":
            seconds = max(seconds, whole_number(value.strip('" ')) or 0)
    return seconds


def retry_after(headers: dict, now: datetime) -> int | None:
    """Seconds asked for by a Retry-After header (delta seconds or an HTTP date), if any."""
    value = (headers or {}).get("retry-after", "").strip()
    if (seconds := whole_number(value)) is not None:
        return seconds
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0, int((when - now).total_seconds())) if when.tzinfo else None


def next_success(now: datetime, interval: int, headers: dict, ttl_minutes: int | None = None) -> datetime:
    wait = min(max(interval, server_minimum(headers, ttl_minutes)), settings.FEED_MAX_INTERVAL)
    return now + timedelta(seconds=wait)


def next_after_error(now: datetime, error_count: int, failing_since: datetime, asked: int | None) -> datetime:
    """Exponential backoff with jitter from the minimum interval, capped; rare retries after days of failure."""
    if now - failing_since >= LONG_FAILING:
        cap = RARE_RETRY.total_seconds()
    else:
        cap = settings.FEED_MAX_INTERVAL
    delay = min(settings.FEED_MIN_INTERVAL * 2 ** min(error_count - 1, 20), cap)
    delay = random.uniform(delay / 2, delay)  # spread retries so failed feeds do not return in a herd
    if asked:
        delay = max(delay, min(asked, RARE_RETRY.total_seconds()))
    return now + timedelta(seconds=delay)
