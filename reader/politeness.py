"""Per-host politeness shared by every worker: at most N connections at once, a minimum delay between starts.

Two implementations behind one interface: Redis (atomic Lua script, Redis's clock, so it holds across
machines) and, for the embedded default without Redis, lock files on the local disk (holds across the
worker processes of one machine). A slot is a lease that expires, so a crashed worker cannot block a host.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import time
import uuid
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings

POLL = 0.05  # how soon to ask again when every connection to the host is in use
LEASE = 120.0  # longer than any fetch may take (FETCH_TIMEOUT), so a live fetch keeps its slot


def host_of(url: str) -> str:
    """The name politeness counts by; empty for a URL the fetcher will refuse anyway."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


class HostBusy(Exception):
    """The host cannot take another request within the allowed wait; try again after retry_in seconds."""

    def __init__(self, host: str, retry_in: float):
        super().__init__(f"{host} is busy; retry in {retry_in:.1f} s")
        self.host, self.retry_in = host, retry_in


class Gate:
    """try_acquire returns (token, 0) when the request may start now, else (None, seconds to wait)."""

    def __init__(self, max_connections: int, min_delay: float, exempt: frozenset = frozenset()):
        self.max_connections, self.min_delay, self.exempt = max_connections, min_delay, exempt

    def try_acquire(self, host: str) -> tuple[str | None, float]:
        raise NotImplementedError

    def release(self, host: str, token: str) -> None:
        raise NotImplementedError

    def book(self, host: str) -> float:
        """Book the host's next free start (one per min_delay); returns seconds from now until it.

        Queueing many requests for one host at their booked times spreads them out, instead of
        having workers wait for each other at the gate.
        """
        raise NotImplementedError

    @contextmanager
    def slot(self, host: str, max_wait: float):
        """Hold one of the host's connections for the duration of the block, waiting up to max_wait."""
        host = (host or "").lower()
        if not host or host in self.exempt:
            yield
            return
        deadline = time.monotonic() + max_wait
        while True:
            token, wait = self.try_acquire(host)
            if token is not None:
                break
            if time.monotonic() + wait > deadline:
                raise HostBusy(host, wait)
            time.sleep(wait)
        try:
            yield
        finally:
            self.release(host, token)


_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local next_start = tonumber(redis.call('GET', KEYS[2]) or '0')
if next_start > now then return next_start - now end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[2], now + tonumber(ARGV[3]), 'PX', ARGV[3]) end
return 0
"""


_BOOK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], slot + tonumber(ARGV[1]), 'PX', slot - now + tonumber(ARGV[1]) + 1000)
return slot - now
"""


class RedisGate(Gate):
    def __init__(self, url: str, *args, **kwargs):
        import redis

        super().__init__(*args, **kwargs)
        self.redis = redis.Redis.from_url(url)
        self.acquire_script = self.redis.register_script(_ACQUIRE)
        self.book_script = self.redis.register_script(_BOOK)

    @staticmethod
    def _keys(host: str) -> list[str]:
        # The braces keep both keys of a host in one Redis Cluster slot.
        return [f"polite:{{{host}}}:slots", f"polite:{{{host}}}:next", f"polite:{{{host}}}:booked"]

    def try_acquire(self, host):
        token = uuid.uuid4().hex
        waited = self.acquire_script(keys=self._keys(host)[:2], args=[token, self.max_connections,
                                                                  int(self.min_delay * 1000), int(LEASE * 1000)])
        if waited == 0:
            return token, 0.0
        return None, POLL if waited < 0 else waited / 1000

    def release(self, host, token):
        self.redis.zrem(self._keys(host)[0], token)

    def book(self, host):
        if not host or host in self.exempt:
            return 0.0
        return self.book_script(keys=self._keys(host)[2:], args=[int(self.min_delay * 1000)]) / 1000


class FileGate(Gate):
    """The same rules with one lock file per host; wall-clock time, since all users share a machine."""

    def __init__(self, folder: Path, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def _state(self, host: str):
        path = self.folder / hashlib.sha1(host.encode()).hexdigest()
        with open(path, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            handle.seek(0)
            try:
                state = json.loads(handle.read() or "{}")
            except ValueError:
                state = {}
            state.setdefault("leases", {})
            yield state
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps(state))

    def try_acquire(self, host):
        with self._state(host) as state:
            now = time.time()
            state["leases"] = {t: exp for t, exp in state["leases"].items() if exp > now}
            if state.get("next", 0) > now:
                return None, state["next"] - now
            if len(state["leases"]) >= self.max_connections:
                return None, POLL
            token = uuid.uuid4().hex
            state["leases"][token] = now + LEASE
            state["next"] = now + self.min_delay
            return token, 0.0

    def release(self, host, token):
        with self._state(host) as state:
            state["leases"].pop(token, None)

    def book(self, host):
        if not host or host in self.exempt:
            return 0.0
        with self._state(host) as state:
            now = time.time()
            slot = max(now, state.get("booked", 0))
            state["booked"] = slot + self.min_delay
            return slot - now


@lru_cache(maxsize=1)
def gate() -> Gate:
    limits = (settings.POLITE_MAX_CONNECTIONS, settings.POLITE_MIN_DELAY, frozenset(settings.POLITE_EXEMPT_HOSTS))
    broker = settings.CELERY_BROKER_URL
    redis_url = settings.REDIS_URL or (broker if broker.startswith(("redis://", "rediss://")) else "")
    if redis_url:
        return RedisGate(redis_url, *limits)
    return FileGate(settings.VAR_DIR / "politeness", *limits)
