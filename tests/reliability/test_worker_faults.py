"""Worker faults: kill -9 a worker child and the whole worker in the middle of feed and page tasks, on the
Redis broker and on the disk broker; restart Redis, restart PostgreSQL. On private instances only; the shared
services are never touched. A beat runs beside the worker, as in a deployment, with the healing sweep
(reader/ingestion/healing.py) on short bounds. Counted: stories lost (never stored or never extracted), duplicates,
seconds from the fault to all done, pages fetched twice, pages the sweep queued again."""
import subprocess
import sys
import time

import psycopg
import pytest

from conftest import FixtureServer

from .figures import ROOT, record
from .services import Beat, PrivatePostgres, PrivateRedis, Worker, remove, scratch

pytestmark = pytest.mark.reliability

FEEDS, PER_FEED = 6, 5
VISIBILITY_TIMEOUT = 15
# The healing sweep's bounds, short for the drill (defaults: every 60 s, pages past 600 s, feed locks 180 s);
# the drill's tasks take a second or two, far inside them.
HEALING = {"HEAL_EVERY": "5", "HEAL_PAGE_AFTER": "20", "FEED_LOCK_SECONDS": "30", "FEED_REQUEUE_AFTER": "20"}
# The pages live on a host name that is not exempt from politeness (127.0.0.1 is): they are booked turns
# POLITE_MIN_DELAY apart and wait in the worker as ETA tasks, as a real site's pages do, and a worker killed
# whole takes those messages with it.
PAGE_HOST, POLITE_MIN_DELAY = "news.drill", "0.3"
BROKERS = {"redis": f"Redis broker, visibility timeout {VISIBILITY_TIMEOUT} s", "disk": "disk broker"}
SEED = """
import sys, django
django.setup()
from django.contrib.auth.models import User
from reader.models import Feed, Subscription
from reader.tasks import fetch_feed
prefix, base, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
user, _ = User.objects.get_or_create(username="fault-reader")
for i in range(count):
    feed = Feed.objects.create(url=f"{base}/{prefix}/feed{i}.xml")
    Subscription.objects.create(user=user, feed=feed)
    fetch_feed.delay(feed.id)
"""


def slow(body: bytes, delay: float, content_type: str):
    def respond(handler):
        time.sleep(delay)
        handler.send_response(200)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
    return respond


def article(title: str) -> bytes:
    text = "".join(f"<p>{title}: paragraph {i} with enough words to read like an article body, names, places and "
                   f"a quote or two from somebody who was there.</p>" for i in range(6))
    return f"<html><head><title>{title}</title></head><body><article><h1>{title}</h1>{text}</article></body></html>".encode()


def publish(server: FixtureServer, prefix: str) -> None:
    for i in range(FEEDS):
        items = ""
        for j in range(PER_FEED):
            path = f"/{prefix}/f{i}/s{j}.html"
            server.add(path, slow(article(f"{prefix} {i}.{j}"), 0.4, "text/html"))
            link = f"http://{PAGE_HOST}:{server.port}{path}"
            items += f"<item><title>{prefix} {i}.{j}</title><link>{link}</link><guid>{i}-{j}</guid></item>"
        feed = f'<rss version="2.0"><channel><title>{prefix} {i}</title>{items}</channel></rss>'.encode()
        server.add(f"/{prefix}/feed{i}.xml", slow(feed, 0.8, "application/rss+xml"))


@pytest.fixture(scope="module")
def rig(request):
    """Private PostgreSQL, a worker and a beat; on a private Redis broker, or on the disk broker (no Redis)."""
    broker, folder = request.param, scratch()
    redis, postgres = PrivateRedis(folder), PrivatePostgres(folder)
    postgres.start()
    subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-h", "127.0.0.1", "-p", str(postgres.port), "-c",
                    "CREATE DATABASE reader_faults"], check=True, capture_output=True)
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": postgres.url, "SECRET_KEY": "faults",
           "VAR_DIR": str(folder), "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32",
           "FETCH_STATIC_HOSTS": f"{PAGE_HOST}=127.0.0.1", "POLITE_MIN_DELAY": POLITE_MIN_DELAY,
           "LOG_LEVEL": "INFO", "DJANGO_SETTINGS_MODULE": "reader.settings", **HEALING}
    if broker == "redis":
        redis.start()
        # A whole-worker crash is redelivered when this runs out (1,800 s by default): short here, for the drill.
        env.update(REDIS_URL=redis.url, BROKER_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT))
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    server = FixtureServer()
    worker, beat = Worker(env, folder / "worker.log"), Beat(env, folder / "beat.log")
    worker.start()
    beat.start()
    yield {"broker": broker, "redis": redis, "postgres": postgres, "server": server, "worker": worker, "beat": beat,
           "env": env}
    beat.stop()
    worker.stop()
    server.close()
    redis.stop()
    postgres.stop()
    remove(folder)


def counts(rig, prefix: str) -> dict:
    url = rig["postgres"].url
    for _ in range(50):  # PostgreSQL may be restarting
        try:
            with psycopg.connect(url, connect_timeout=2) as conn:
                stored, done, distinct, requeued = conn.execute(
                    "SELECT count(*), count(*) FILTER (WHERE s.extraction_status = 'done'), "
                    "count(DISTINCT (s.feed_id, s.guid)), coalesce(sum(s.page_requeues), 0) "
                    "FROM reader_story s JOIN reader_feed f ON f.id = s.feed_id "
                    "WHERE f.url LIKE %s", [f"%/{prefix}/%"]).fetchone()
                entries = conn.execute("SELECT count(*), count(DISTINCT (e.user_id, e.story_id)) FROM reader_entry e "
                                       "JOIN reader_story s ON s.id = e.story_id JOIN reader_feed f ON f.id = s.feed_id "
                                       "WHERE f.url LIKE %s", [f"%/{prefix}/%"]).fetchone()
            return {"stored": stored, "done": done, "duplicates": stored - distinct + entries[0] - entries[1],
                    "requeued": requeued}
        except psycopg.OperationalError:
            time.sleep(0.2)
    raise AssertionError("the private PostgreSQL did not come back")


def drill(rig, prefix: str, when, fault) -> dict:
    """Queue the feeds, wait until `when(requests so far)`, inject the fault, and wait for all work to be done."""
    server, expected = rig["server"], FEEDS * PER_FEED
    publish(server, prefix)
    subprocess.run([sys.executable, "-c", SEED, prefix, f"http://127.0.0.1:{server.port}", str(FEEDS)], cwd=ROOT,
                   env=rig["env"], check=True)
    deadline = time.monotonic() + 60
    while not when([path for path, _ in server.requests if path.startswith(f"/{prefix}/")]):
        assert time.monotonic() < deadline, "the work never started"
        time.sleep(0.05)
    fault()
    faulted = time.monotonic()
    state = counts(rig, prefix)
    while state["done"] < expected and time.monotonic() < faulted + 150:
        time.sleep(0.5)
        state = counts(rig, prefix)
    pages = [path for path, _ in server.requests if path.startswith(f"/{prefix}/f") and path.endswith(".html")]
    feeds = [path for path, _ in server.requests if path.startswith(f"/{prefix}/") and path.endswith(".xml")]
    return {"lost": expected - state["done"], "duplicates": state["duplicates"],
            "recovered in s": round(time.monotonic() - faulted, 1) if state["done"] == expected else None,
            "pages fetched twice": len(pages) - len(set(pages)), "pages queued again by the sweep": state["requeued"],
            "feeds fetched again": len(feeds) - len(set(feeds))}


def feeds_started(paths):
    return any(p.endswith(".xml") for p in paths)


def pages_started(paths):
    return sum(p.endswith(".html") for p in paths) >= 3


def restart_worker(rig):
    rig["worker"].kill_all()
    time.sleep(1)
    rig["worker"].start()


SCENARIOS = {
    "kill -9 a worker child mid feed task": (feeds_started, lambda rig: rig["worker"].kill_child()),
    "kill -9 a worker child mid page task": (pages_started, lambda rig: rig["worker"].kill_child()),
    "kill -9 the whole worker mid feed task": (feeds_started, restart_worker),
    "kill -9 the whole worker mid page task": (pages_started, restart_worker),
    "restart Redis mid page tasks": (pages_started, lambda rig: rig["redis"].restart()),
    "restart PostgreSQL mid page tasks": (pages_started, lambda rig: rig["postgres"].restart()),
}


# The disk broker has no server to restart; PostgreSQL restarts are drilled once, on the Redis rig.
CASES = [pytest.param(broker, name, id=f"{broker}: {name}") for broker in BROKERS for name in SCENARIOS
         if broker == "redis" or name.startswith("kill")]


@pytest.mark.timeout(400)
@pytest.mark.parametrize("rig, name", CASES, indirect=["rig"])
def test_no_work_is_lost_or_duplicated_through_a_fault(rig, name):
    when, fault = SCENARIOS[name]
    broker = rig["broker"]
    result = drill(rig, f"{broker[0]}{list(SCENARIOS).index(name)}", when, lambda: fault(rig))
    record(f"worker_faults: {broker}: {name}",
           f"Worker fault, {BROKERS[broker]}: {name} ({FEEDS} feeds x {PER_FEED} pages on one host, "
           f"{POLITE_MIN_DELAY} s apart; prefork worker, 2 children; "
           f"healing sweep every {HEALING['HEAL_EVERY']} s, pages past {HEALING['HEAL_PAGE_AFTER']} s, "
           f"feed locks {HEALING['FEED_LOCK_SECONDS']} s)",
           result, "0 lost, 0 duplicates", database="private PostgreSQL" + (" + Redis" if broker == "redis" else ""))
    if result["lost"] or result["duplicates"]:
        print(log_tails(rig))  # shown whole with the failure; an assertion message would be cut
    assert result["lost"] == 0 and result["duplicates"] == 0, result


def log_tails(rig) -> str:
    """The end of the worker's and the beat's logs: the rig's folder is removed at teardown, and a drill that
    fails once in many runs must say why the first time."""
    return "\n".join(f"--- {name} log, last 20,000 characters:\n{rig[name].log.read_text(errors='replace')[-20000:]}"
                     for name in ("worker", "beat"))
