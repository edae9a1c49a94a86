"""Per-client request budgets in the Django cache (Redis in production, so shared by all web processes)."""
from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache


def client_address(request) -> str:
    if settings.CLIENT_IP_FROM_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return request.META.get("REMOTE_ADDR", "unknown")


def hit(scope: str, client: str, limit: int, window: int) -> int:
    """Count one request in the current fixed window; returns the seconds to wait if over the limit, else 0."""
    now = time.time()
    slot = int(now // window)
    key = f"ratelimit:{scope}:{client}:{slot}"
    # add() creates the counter with its expiry once; incr() is atomic on Redis.
    cache.add(key, 0, timeout=window + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.add(key, 1, timeout=window + 1)
        count = 1
    if count > limit:
        return max(1, int((slot + 1) * window - now) + 1)
    return 0
