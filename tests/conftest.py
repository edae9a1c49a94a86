"""Shared fixtures: a loopback HTTP fixture server and a real Celery worker process."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))


class Route:
    """What the fixture server answers on one path: status, headers, body (bytes or a callable)."""

    def __init__(self, body=b"", status=200, headers=None):
        self.body, self.status, self.headers = body, status, headers or {}


class FixtureServer:
    def __init__(self):
        self.routes: dict[str, Route] = {}
        self.requests: list[tuple[str, dict]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                server.requests.append((self.path, dict(self.headers)))
                route = server.routes.get(self.path)
                if route is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if callable(route.body):
                    route.body(self)
                    return
                self.send_response(route.status)
                for name, value in route.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                self.wfile.write(route.body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def add(self, path: str, body=b"", status=200, headers=None) -> str:
        if isinstance(body, str):
            body = body.encode()
        self.routes[path] = Route(body, status, headers)
        return self.url(path)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    srv = FixtureServer()
    yield srv
    srv.close()


@pytest.fixture
def allow_loopback(settings):
    """Tests allow 127.0.0.1 explicitly; the default setting refuses it."""
    from reader.ingestion import fetching

    settings.FETCH_ALLOWED_NETWORKS = "127.0.0.1/32"
    fetching.policy.cache_clear()
    yield
    fetching.policy.cache_clear()


def _database_url(settings_dict) -> str:
    name = settings_dict["NAME"]
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{name}"
    user = settings_dict.get("USER") or ""
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return f"postgres://{auth}{settings_dict.get('HOST') or '127.0.0.1'}:{settings_dict.get('PORT') or 5432}/{name}"


@pytest.fixture
def celery_worker_process(transactional_db, settings, allow_loopback):
    """A real `celery worker` process on the test database and the same broker as this process:
    Redis when REDIS_URL is set, else the disk transport in VAR_DIR."""
    from celery import current_app
    from django.db import connection

    _purge_queues(current_app, settings)
    env = {**os.environ, "DATABASE_URL": _database_url(connection.settings_dict), "VAR_DIR": str(settings.VAR_DIR),
           "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32", "SECRET_KEY": settings.SECRET_KEY}
    env.pop("TEST_DATABASE_NAME", None)
    log = open(Path(settings.VAR_DIR) / "test-worker.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "reader", "worker", "-Q", "feeds,pages,ranking",
         "-c", "2", "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    yield proc
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    log.close()


def _purge_queues(app, settings):
    """Nothing left over from an earlier run may reach this test's worker."""
    if settings.CELERY_BROKER_URL == "filesystem://":
        for message in Path(settings.BROKER_DIR).glob("*"):
            if message.is_file():  # the transport keeps its remote-control files in a subfolder
                message.unlink(missing_ok=True)
        return
    with app.connection_for_write() as conn:
        for queue in ("feeds", "pages", "ranking"):
            conn.default_channel.queue_purge(queue)


def wait_for(predicate, timeout=60.0, interval=0.25, message="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}")


def follow_feed(user, url: str, folder: str = ""):
    """The user's subscription to the feed at url, made without fetching it (subscribe() stores a new feed's body
    at once), for tests of what the crawl's fetch does; the feed's first fetch is queued on commit."""
    from reader.ingestion.subscribe import follow
    from reader.models import Feed

    return Feed.objects.get(id=follow(user, {url: (folder, "")}).feed_ids[url])
