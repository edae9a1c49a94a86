"""Ingestion at scale on this machine: PostgreSQL + Redis + real Celery workers + a local fixture site.

    .venv/bin/python benchmarks/ingest.py                 # 1,000 feeds x 20 stories over 300 host names
    .venv/bin/python benchmarks/ingest.py --feeds 200     # a quicker run

A fixture server (one asyncio process) answers for host names site-N.bench.test, which the fetcher's
static-hosts hook maps to 127.0.0.1, so per-host politeness (2 connections, 1 s apart) holds as with
real sites. Measures (b) new stories per second end to end (feed fetch, page fetch, extraction, store,
score) and (a) unchanged-feed refreshes per minute (the 304 path), then where the time went: CPU seconds
and CPU ms per story (per refresh) of each process group, PostgreSQL split into the backends serving the
workers and the rest of the server, and the cost of each step measured in this process. The yardstick in the same run is
a naive loop (fetch, feedparser, extraction, one process, no database or queue).
Needs PostgreSQL and Redis (DATABASE_URL's server, a scratch database it creates and drops; REDIS_URL's
database is flushed).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DOMAIN = "bench.test"
WORDS = ("council budget harbour river school market energy vote transport housing storm festival court "
         "minister hospital bridge research orchestra museum farmers rail wind solar port tariff league "
         "season match coach island village mayor police inquiry report survey climate water forest").split()


# --- the fixture site -------------------------------------------------------------------------------

def paragraphs(rng: random.Random, count: int) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 90))).capitalize() + "." for _ in range(count)]


class Site:
    def __init__(self, feeds: int, stories: int, hosts: int, port: int):
        self.feeds, self.stories, self.hosts, self.port = feeds, stories, hosts, port
        rng = random.Random(5)
        self.pool = paragraphs(rng, 300)
        self.clutter = ("<nav>" + " ".join(f'<a href="/section/{w}">{w.title()}</a>' for w in WORDS[:14]) + "</nav>",
                        "<aside><h3>Most read</h3><ul>" + "".join(f'<li><a href="/x/{i}">{" ".join(WORDS[i:i + 6])}</a></li>'
                                                                for i in range(10)) + "</ul></aside>",
                        "<section class='comments'><h3>Comments</h3>" + "".join(f"<p>{p[:140]}</p>" for p in self.pool[:5])
                        + "</section><footer>© Bench Daily · <a href='/about'>About</a> · <a href='/privacy'>Privacy</a></footer>")
        self.feed_cache: dict[int, bytes] = {}

    def host(self, feed: int) -> str:
        return f"site-{feed % self.hosts}.{DOMAIN}:{self.port}"

    def title(self, feed: int, story: int) -> str:
        return f"Story {story} of desk {feed}: {WORDS[(feed + story) % len(WORDS)]} {WORDS[(feed * 7 + story) % len(WORDS)]}"

    def feed(self, feed: int) -> bytes:
        if feed not in self.feed_cache:
            now = datetime(2026, 11, 30, tzinfo=timezone.utc)
            items = "".join(
                f"<item><title>{self.title(feed, s)}</title><link>http://{self.host(feed)}/story/{feed}/{s}.html</link>"
                f"<guid isPermaLink='false'>bench-{feed}-{s}</guid><pubDate>{format_datetime(now - timedelta(hours=s))}</pubDate>"
                f"<description>{self.pool[(feed + s) % 300][:160]}…</description></item>" for s in range(self.stories))
            self.feed_cache[feed] = (f"<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel>"
                                     f"<title>Desk {feed}</title><link>http://{self.host(feed)}/</link>{items}"
                                     "</channel></rss>").encode()
        return self.feed_cache[feed]

    def page(self, feed: int, story: int) -> bytes:
        body = "".join(f"<p>{self.pool[(feed * 31 + story * 7 + k) % 300]}</p>" for k in range(10))
        nav, aside, tail = self.clutter
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{self.title(feed, story)}</title></head><body>"
                f"{nav}<main><article><h1>{self.title(feed, story)}</h1><p class='byline'>By A. Writer</p>{body}"
                f"</article>{aside}</main>{tail}</body></html>").encode()

    def answer(self, path: str, if_none_match: str) -> tuple[int, bytes, str]:
        parts = path.strip("/").split("/")
        try:
            if parts[0] == "feeds":
                feed = int(parts[1].removesuffix(".xml"))
                etag = f'"f{feed}-v1"'
                return (304, b"", etag) if if_none_match == etag else (200, self.feed(feed), etag)
            if parts[0] == "story":
                return 200, self.page(int(parts[1]), int(parts[2].removesuffix(".html"))), ""
        except (IndexError, ValueError):
            pass
        return 404, b"not found", ""


def serve(site: Site, ready_fd: int) -> None:
    async def handle(reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        status, body, etag = site.answer(path, headers.get("if-none-match", ""))
        reason = {200: "OK", 304: "Not Modified", 404: "Not Found"}[status]
        extra = f"ETag: {etag}\r\n" if etag else ""
        writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Length: {len(body)}\r\n{extra}"
                     f"Content-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n".encode() + body)
        try:
            await writer.drain()
        except ConnectionError:
            pass
        writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", site.port, backlog=1024)
        os.write(ready_fd, b"ready\n")
        async with server:
            await server.serve_forever()

    asyncio.run(main())


# --- measuring -----------------------------------------------------------------------------------------

def cpu_seconds(pids) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            # Own time, plus the time of children that have exited (recycled pool processes, old backends).
            total += sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError):
            pass
    return total


def descendants(pid: int) -> list[int]:
    found, frontier = [pid], [pid]
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                children = [int(c) for c in task.read_text().split()]
            except OSError:
                continue
            found += children
            frontier += children
    return found


def own_cpu_seconds(pid: int) -> tuple[str, float] | None:
    """(the process's start time, to tell a reused pid apart; its own CPU seconds so far)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return fields[19], sum(int(v) for v in fields[11:13]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError):
        return None


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


class Backends:
    """CPU of the PostgreSQL backends serving the workers (the benchmark's database, minus this driver's own
    connection), so that other databases on a shared server do not count. A backend that exits takes its CPU
    time with it, so each one is sampled while it lives (sample() runs every poll) and its last figure kept."""

    def __init__(self, database: str):
        self.database, self.seen, self.driver, self.postmaster = database, {}, None, None

    def sample(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.driver = cursor.fetchone()[0]
            self.postmaster = parent_of(self.driver)
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database])
            pids = [row[0] for row in cursor.fetchall()]
        for pid in pids:
            figure = own_cpu_seconds(pid)
            if pid != self.driver and figure is not None:
                self.seen[(pid, figure[0])] = figure[1]

    def total(self) -> float:
        self.sample()
        return sum(self.seen.values())


class CpuMeter:
    def __init__(self, groups: dict, backends: Backends):
        self.groups = groups  # name -> callable returning pids
        self.backends = backends

    def snapshot(self) -> dict[str, float]:
        figures = {name: cpu_seconds(pids()) for name, pids in self.groups.items()}
        # "postgres (all)" counts the server's every process, exited backends included (its postmaster's children
        # time), and so other databases' work on a shared server too.
        figures["postgres: workers' queries"] = self.backends.total()
        figures["postgres: the rest"] = figures.pop("postgres (all)") - figures["postgres: workers' queries"]
        return figures

    @staticmethod
    def delta(before: dict, after: dict) -> dict[str, float]:
        return {name: after[name] - before.get(name, 0.0) for name in after}


def table(title: str, header: tuple, rows: list[tuple]) -> str:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]
    line = lambda cells: "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([f"\n{title}", line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


# --- the run ----------------------------------------------------------------------------------------------

def setup_environment(args, var_dir: str) -> None:
    os.environ.update({
        "DATABASE_URL": f"{args.database_server.rstrip('/')}/{args.database}", "REDIS_URL": args.redis_url,
        "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32", "FETCH_STATIC_HOSTS": f"*.{DOMAIN}=127.0.0.1",
        "SECRET_KEY": "benchmark-only", "VAR_DIR": var_dir, "LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "reader.settings",
    })


def recreate_database(args) -> None:
    import psycopg

    with psycopg.connect(f"{args.database_server.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.database}"')
        conn.execute(f'CREATE DATABASE "{args.database}"')


def drop_database(args) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{args.database_server.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')


def start_site(args) -> tuple[subprocess.Popen, int]:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--feeds", str(args.feeds),
                             "--stories", str(args.stories), "--hosts", str(args.hosts), "--ready-fd", str(write_fd)],
                            pass_fds=(write_fd,))
    os.close(write_fd)
    assert os.read(read_fd, 16).startswith(b"ready"), "the fixture site did not start"
    os.close(read_fd)
    return proc, port


def start_workers(args, log_path: Path) -> subprocess.Popen:
    log = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "reader", "worker", "-Q", "feeds,pages,ranking",
                             "-c", str(args.concurrency), "--pool", "prefork", "--without-gossip", "--without-mingle",
                             "-l", os.environ.get("BENCH_WORKER_LOG_LEVEL", "WARNING")], cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    from reader.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=1.0):
        assert time.monotonic() < deadline and proc.poll() is None, f"workers did not start; see {log_path}"
    return proc


def stop_workers(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def populate(args, port: int) -> None:
    from django.contrib.auth.models import User
    from reader.models import Feed, Subscription

    site = Site(args.feeds, args.stories, args.hosts, port)
    Feed.objects.bulk_create([Feed(url=f"http://{site.host(i)}/feeds/{i}.xml") for i in range(args.feeds)])
    users = [User.objects.create_user(f"reader{u}") for u in range(args.users)]
    feeds = list(Feed.objects.order_by("id"))
    Subscription.objects.bulk_create([Subscription(user=users[i % len(users)], feed=f) for i, f in enumerate(feeds)])


def queues_idle(redis_client) -> bool:
    waiting = sum(redis_client.llen(q) for q in ("feeds", "pages", "ranking"))
    return waiting == 0 and redis_client.hlen("unacked") == 0


def run_new_stories(args, meter, redis_client) -> dict:
    from django.db.models import Count, Q
    from reader.models import Feed, Story
    from reader.tasks import fetch_feed

    expected = args.feeds * args.stories
    ids = list(Feed.objects.order_by("id").values_list("id", flat=True))
    before, started = meter.snapshot(), time.monotonic()
    for feed_id in ids:
        fetch_feed.delay(feed_id)
    stored_at = extracted_at = None
    while True:
        time.sleep(0.5)
        meter.backends.sample()
        counts = Story.objects.aggregate(stored=Count("id"), done=Count("id", filter=~Q(extraction_status=Story.Extraction.PENDING)))
        stored, done = counts["stored"], counts["done"]
        if stored_at is None and stored >= expected:
            stored_at = time.monotonic() - started
        if extracted_at is None and done >= expected:
            extracted_at = time.monotonic() - started
        if extracted_at is not None and queues_idle(redis_client):
            break
        if time.monotonic() - started > args.max_seconds:
            print(f"stopped after {args.max_seconds} s: {stored} stored, {done} extracted", file=sys.stderr)
            break
    elapsed = time.monotonic() - started
    failed = Story.objects.filter(extraction_status=Story.Extraction.FAILED).count()
    return {"elapsed": elapsed, "stored_at": stored_at, "extracted_at": extracted_at, "stories": done,
            "failed": failed, "cpu": meter.delta(before, meter.snapshot())}


def run_unchanged(args, meter) -> dict:
    from django.utils import timezone as dj_tz
    from reader.models import Feed
    from reader.tasks import fetch_feed

    ids = list(Feed.objects.values_list("id", flat=True))
    rounds, total, before = args.rounds, 0.0, meter.snapshot()
    for _ in range(rounds):
        mark = dj_tz.now()
        started = time.monotonic()
        for feed_id in ids:
            fetch_feed.delay(feed_id)
        while Feed.objects.filter(last_fetched_at__gte=mark).count() < len(ids):
            time.sleep(0.2)
            meter.backends.sample()
            if time.monotonic() - started > args.max_seconds:
                break
        total += time.monotonic() - started
    errors = Feed.objects.filter(error_count__gt=0).count()
    return {"refreshes": rounds * len(ids), "elapsed": total, "errors": errors, "cpu": meter.delta(before, meter.snapshot())}


def step_costs(args, port: int, samples: int = 60) -> tuple[list[tuple], float]:
    """Each step of one story, timed in this process (ms, mean over samples); and a naive loop's rate."""
    import feedparser
    from io import BytesIO

    import extraction
    from reader.ingestion import fetching, feeds, parsing
    from reader.models import Feed

    site = Site(args.feeds, args.stories, args.hosts, port)
    policy = fetching.policy()
    from extraction.fetch import fetch
    pages = [(f, s) for f in range(samples) for s in range(1)]

    def timed(fn, items):
        started = time.perf_counter()
        for item in items:
            fn(item)
        return (time.perf_counter() - started) * 1000 / len(items)

    page_urls = [f"http://{site.host(f)}/story/{f}/{s}.html" for f, s in pages]
    bodies = [site.page(f, s) for f, s in pages]
    feed_body = site.feed(0)
    feed = Feed.objects.create(url=f"http://{site.host(0)}/feeds/x.xml")
    rows = [
        ("fetch a page (loopback, fetcher)", timed(lambda u: fetch(u, policy), page_urls)),
        ("extract a page (clump)", timed(lambda b: extraction.extract(b, url="http://x.test/"), bodies)),
        ("parse a feed, per story", timed(lambda _: parsing.parse(feed_body, "http://x.test/f"), range(20)) / args.stories),
    ]
    parsed = parsing.parse(feed_body, "http://x.test/f")
    started = time.perf_counter()
    feeds.store(feed, parsed)
    rows.append(("store new stories, per story", (time.perf_counter() - started) * 1000 / args.stories))
    # The yardstick: the plainest pipeline, sequential in one process, nothing stored or queued.
    started = time.perf_counter()
    count = 0
    for f in range(min(10, args.feeds)):
        raw = fetch(f"http://{site.host(f)}/feeds/{f}.xml", policy).content
        for entry in feedparser.parse(BytesIO(raw)).entries:
            extraction.extract(fetch(entry.link, policy).content, url=entry.link)
            count += 1
    naive_rate = count / (time.perf_counter() - started)
    return rows, naive_rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--feeds", type=int, default=1000)
    parser.add_argument("--stories", type=int, default=20)
    parser.add_argument("--hosts", type=int, default=300)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=4, help="worker processes (prefork)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of unchanged refreshes")
    parser.add_argument("--max-seconds", type=float, default=900)
    parser.add_argument("--database-server", default=os.environ.get("BENCH_DATABASE_SERVER", "postgres://postgres@127.0.0.1:5432"))
    parser.add_argument("--database", default="bench_ingest")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1"))
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ready-fd", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(Site(args.feeds, args.stories, args.hosts, args.serve), args.ready_fd)
        return 0

    var_dir = tempfile.mkdtemp(prefix="bench-ingest-")
    setup_environment(args, var_dir)
    recreate_database(args)
    import django
    import redis

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    redis_client = redis.Redis.from_url(args.redis_url)
    redis_client.flushdb()
    site, port = start_site(args)
    workers = None
    try:
        populate(args, port)
        workers = start_workers(args, Path(var_dir) / "workers.log")
        redis_pid = redis_client.info("server")["process_id"]  # this server, not other instances on the machine
        backends = Backends(args.database)
        backends.sample()  # finds the server's postmaster: other PostgreSQL instances on the machine do not count
        meter = CpuMeter({"workers": lambda: descendants(workers.pid), "fixture site": lambda: [site.pid],
                          "postgres (all)": lambda: descendants(backends.postmaster), "redis": lambda: [redis_pid],
                          "driver": lambda: [os.getpid()]}, backends)
        print(f"{args.feeds} feeds x {args.stories} stories over {args.hosts} host names; {args.concurrency} worker "
              f"processes; {os.cpu_count()} cores; politeness 2 connections and 1 s per host; "
              f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
        new = run_new_stories(args, meter, redis_client)
        score_errors = (Path(var_dir) / "workers.log").read_text().count("score_stories")
        # Phase (a) starts clean: no pages left over from (b) when it was cut short.
        stop_workers(workers)
        redis_client.flushdb()
        workers = start_workers(args, Path(var_dir) / "workers-a.log")
        unchanged = run_unchanged(args, meter)
        load_after = os.getloadavg()[0]
        costs, naive_rate = step_costs(args, port)
    finally:
        if workers is not None:
            stop_workers(workers)
        site.terminate()
        site.wait(10)
        drop_database(args)

    rate_new = new["stories"] / new["elapsed"]
    rate_304 = unchanged["refreshes"] / unchanged["elapsed"] * 60
    print(table("Throughput", ("measure", "figure", "target", "ratio"), [
        ("(b) new stories end to end, per s", f"{rate_new:.1f}", "100", f"{rate_new / 100:.2f}"),
        ("(a) unchanged-feed refreshes, per min", f"{rate_304:.0f}", "2000", f"{rate_304 / 2000:.2f}"),
        ("naive loop (1 process, no DB/queue), stories per s", f"{naive_rate:.1f}", "", f"ours/naive {rate_new / naive_rate:.2f}"),
    ]))
    print(table("Run (b) details", ("what", "value"), [
        ("stories extracted", new["stories"]), ("of which failed", new["failed"]),
        ("all stored after, s", f"{new['stored_at']:.1f}" if new["stored_at"] else "not reached"),
        ("all extracted after, s", f"{new['extracted_at']:.1f}" if new["extracted_at"] else "not reached"),
        ("queues drained after, s", f"{new['elapsed']:.1f}"),
        ("score_stories errors in worker log", score_errors),
        ("(a) refreshes / feed errors", f"{unchanged['refreshes']} / {unchanged['errors']}"),
        ("load average after (other work on this machine counts)", f"{load_after:.1f}"),
    ]))
    for name, run, wall, unit, units in (("(b) new stories", new, new["elapsed"], "story", new["stories"]),
                                         ("(a) unchanged refreshes", unchanged, unchanged["elapsed"], "refresh",
                                          unchanged["refreshes"])):
        total = 2 * wall
        rows = [(g, f"{s:.1f}", f"{100 * s / total:.0f}", f"{1000 * s / max(units, 1):.2f}")
                for g, s in sorted(run["cpu"].items(), key=lambda x: -x[1])]
        # What one unit costs the pipeline: the workers, PostgreSQL and the broker. All of PostgreSQL, as backends
        # that exit between samples escape the split; on a shared server, other databases' work counts here too.
        own = sum(run["cpu"][g] for g in ("workers", "postgres: workers' queries", "postgres: the rest", "redis"))
        rows.append(("pipeline: workers + postgres + redis", f"{own:.1f}", f"{100 * own / total:.0f}",
                     f"{1000 * own / max(units, 1):.2f}"))
        print(table(f"Where the time goes, {name}: CPU seconds over {wall:.1f} s wall x 2 cores",
                    ("process group", "CPU s", "% of machine", f"CPU ms per {unit}"), rows))
    print(table("Cost of each step, in this process (mean ms)", ("step", "ms"), [(n, f"{v:.2f}") for n, v in costs]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
