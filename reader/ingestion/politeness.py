"""Per-host politeness shared by every worker: at most N connections at once, a minimum delay between starts.

Every request to a host first books a start time on the host's calendar (one start per min_delay), then
takes one of the host's N connection leases when its time comes, and no sooner than min_delay after the
host's last actual start: requests that waited for a free connection would otherwise start together. A
task that would wait too long is re-queued for its booked time and keeps its booking, so workers do not
sleep and the calendar has no holes.
A lease expires, so a crashed worker cannot block a host.

Two implementations behind one interface: Redis (atomic Lua scripts on Redis's clock, so it holds across
machines) and, for the embedded default without Redis, lock files on the local disk (holds across the
worker processes of one machine). Times are milliseconds on the gate's clock.
"""
from __future__ import annotations

import hashlib
import time
import uuid
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings

from extraction.fetch import ascii_host

from .locked_json import locked_json

POLL = 0.05  # how soon to ask again when every connection to the host is in use
# A lease outlives the fetch's own deadline (FETCH_TIMEOUT) by this much: a live fetch keeps its slot, and a worker
# killed mid-fetch frees it soon after. A fixed 120 s kept a host blocked for two minutes after a kill -9 (the drill
# "kill -9 the whole worker mid page task" took 129 s to recover, against 36 s when no lease was held).
LEASE_MARGIN = 10.0
# ...and lasts at most an hour: FETCH_TIMEOUT may be inf (no deadline) or 1e300, which as milliseconds overflowed
# the lease's arithmetic and Redis's expiry, failing every fetch.
LEASE_MAX = 3600.0


def host_of(url: str) -> str:
    """The name politeness counts by (an IDN in its punycode form); empty for a URL the fetcher will refuse anyway."""
    try:
        return ascii_host(urlsplit(url).hostname or "")
    except ValueError:
        return ""


class HostBusy(Exception):
    """The request's turn is more than the allowed wait away: come back in retry_in s with booking."""

    def __init__(self, host: str, retry_in: float, booking: int | None):
        super().__init__(f"{host} is busy; retry in {retry_in:.1f} s")
        self.host, self.retry_in, self.booking = host, retry_in, booking


class Gate:
    def __init__(self, max_connections: int, min_delay: float, exempt: frozenset = frozenset(),
                 lease: float | None = None):
        self.max_connections, self.min_delay, self.exempt = max_connections, min_delay, exempt
        self.lease = min(settings.FETCH_TIMEOUT + LEASE_MARGIN, LEASE_MAX) if lease is None else lease  # seconds

    def book(self, host: str, count: int = 1) -> tuple[int, float]:
        """Book the host's next count free starts; returns (first booking, seconds from now until it).

        The others follow at min_delay intervals: see bookings().
        """
        raise NotImplementedError

    def bookings(self, host: str, count: int) -> list[tuple[int, float]]:
        """count consecutive turns on the host's calendar, booked at once: (booking, seconds from now)."""
        first, wait = self.book(host, count)
        step = int(self.min_delay * 1000)
        return [(first + i * step, wait + i * step / 1000) for i in range(count)]

    def try_acquire(self, host: str, booking: int) -> tuple[str | None, float]:
        """(token, 0) when the booked start has come and a connection is free, else (None, seconds to wait)."""
        raise NotImplementedError

    def release(self, host: str, token: str) -> None:
        raise NotImplementedError

    def exempted(self, host: str) -> bool:
        return not host or host in self.exempt

    @contextmanager
    def slot(self, host: str, max_wait: float, booking: int | None = None):
        """Hold one of the host's connections for the block; wait up to max_wait, else raise HostBusy."""
        host = (host or "").lower()
        if self.exempted(host):
            yield
            return
        if booking is None:
            booking, _ = self.book(host)
        token = self._acquire(host, booking, max_wait)
        try:
            yield
        finally:
            self.release(host, token)

    @contextmanager
    def slot_now(self, host: str, max_wait: float):
        """For a person waiting on a web request: a connection within max_wait, else HostBusy (booking None).

        No turn is booked: the crawl's calendar may be minutes of queued pages deep, and a web request must not
        wait behind it, nor leave a turn that nobody takes. The connection cap and the gap between starts hold.
        """
        host = (host or "").lower()
        if self.exempted(host):
            yield
            return
        token = self._acquire(host, 0, max_wait, keep_booking=False)  # booking 0: any time from now
        try:
            yield
        finally:
            self.release(host, token)

    def _acquire(self, host: str, booking: int, max_wait: float, keep_booking: bool = True) -> str:
        deadline = time.monotonic() + max_wait
        while True:
            token, wait = self.try_acquire(host, booking)
            if token is not None:
                return token
            if time.monotonic() + wait > deadline:
                raise HostBusy(host, wait, booking if keep_booking else None)
            time.sleep(wait)


_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
_BOOK = _NOW + """
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local span = tonumber(ARGV[1]) * tonumber(ARGV[2])
redis.call('SET', KEYS[1], slot + span, 'PX', slot - now + span + 60000)
return {slot, slot - now}
"""
_ACQUIRE = _NOW + """
if tonumber(ARGV[2]) > now then return tonumber(ARGV[2]) - now end
local gap = tonumber(redis.call('GET', KEYS[2]) or '0') + tonumber(ARGV[5]) - now
if gap > 0 then return gap end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return -1 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
redis.call('SET', KEYS[2], now, 'PX', tonumber(ARGV[5]) + 60000)
return 0
"""


class RedisGate(Gate):
    def __init__(self, url: str, *args, **kwargs):
        import redis

        super().__init__(*args, **kwargs)
        self.redis = redis.Redis.from_url(url)
        self.book_script = self.redis.register_script(_BOOK)
        self.acquire_script = self.redis.register_script(_ACQUIRE)

    @staticmethod
    def _key(host: str, what: str) -> str:
        return f"polite:{{{host}}}:{what}"  # the braces keep a host's keys in one Redis Cluster slot

    def book(self, host, count=1):
        slot, wait = self.book_script(keys=[self._key(host, "booked")], args=[int(self.min_delay * 1000), count])
        return int(slot), wait / 1000

    def try_acquire(self, host, booking):
        token = uuid.uuid4().hex
        waited = self.acquire_script(keys=[self._key(host, "leases"), self._key(host, "started")],
                                     args=[token, booking, self.max_connections, int(self.lease * 1000),
                                           int(self.min_delay * 1000)])
        if waited == 0:
            return token, 0.0
        return None, POLL if waited < 0 else waited / 1000

    def release(self, host, token):
        self.redis.zrem(self._key(host, "leases"), token)


class FileGate(Gate):
    """The same rules with one lock file per host; wall-clock time, since all users share a machine."""

    def __init__(self, folder: Path, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def _state(self, host: str):
        with locked_json(self.folder / hashlib.sha1(host.encode()).hexdigest()) as state:
            state.setdefault("leases", {})
            yield state, int(time.time() * 1000)

    def book(self, host, count=1):
        with self._state(host) as (state, now):
            slot = max(now, state.get("booked", 0))
            state["booked"] = slot + count * int(self.min_delay * 1000)
            return slot, (slot - now) / 1000

    def try_acquire(self, host, booking):
        with self._state(host) as (state, now):
            if booking > now:
                return None, (booking - now) / 1000
            gap = state.get("started", 0) + int(self.min_delay * 1000) - now
            if gap > 0:
                return None, gap / 1000
            state["leases"] = {t: exp for t, exp in state["leases"].items() if exp > now}
            if len(state["leases"]) >= self.max_connections:
                return None, POLL
            token = uuid.uuid4().hex
            state["leases"][token] = now + int(self.lease * 1000)
            state["started"] = now
            return token, 0.0

    def release(self, host, token):
        with self._state(host) as (state, _now):
            state["leases"].pop(token, None)


def shared_redis_url() -> str:
    """The Redis every worker shares (REDIS_URL, else a Redis broker); empty on the embedded default."""
    broker = settings.CELERY_BROKER_URL
    return settings.REDIS_URL or (broker if broker.startswith(("redis://", "rediss://")) else "")


@lru_cache(maxsize=1)
def gate() -> Gate:
    limits = (settings.POLITE_MAX_CONNECTIONS, settings.POLITE_MIN_DELAY, frozenset(settings.POLITE_EXEMPT_HOSTS))
    redis_url = shared_redis_url()
    if redis_url:
        return RedisGate(redis_url, *limits)
    return FileGate(settings.VAR_DIR / "politeness", *limits)
