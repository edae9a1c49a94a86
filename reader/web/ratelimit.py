"""Per-client request budgets in the Django cache (Redis in production, so shared by all web processes), and
the client's address they count by (login throttling counts by it too)."""
from __future__ import annotations

import ipaddress
import time

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.core.cache import cache

UNKNOWN = "0.0.0.0"  # no usable address: such clients share one budget


def client_address(request) -> str:
    """The client's IP address. Behind BEHIND_PROXY, the entry the trusted proxies appended to X-Forwarded-For:
    TRUSTED_PROXY_HOPS from the right. Entries further left were sent by the client, who can write anything."""
    if settings.CLIENT_IP_FROM_PROXY:
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(hops) >= settings.TRUSTED_PROXY_HOPS and _is_ip(hops[-settings.TRUSTED_PROXY_HOPS]):
            return hops[-settings.TRUSTED_PROXY_HOPS]
    address = request.META.get("REMOTE_ADDR", "")
    return address if _is_ip(address) else UNKNOWN


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' lockout check, for logins that come with a web request. A call without one (a test client's
    login(), a shell) is no one's attempt from an address, so it is passed on to the next backend."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


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
