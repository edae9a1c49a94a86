"""Load: the personal feed page under wrk, served by gunicorn on loopback from PostgreSQL.

Builds a private database (default reader_load, dropped afterwards) with 1,000 users and 100,000 stories
in 100 feeds; every user follows 2 feeds, so each feed page ranks 2,000 entries (2,000,000 in all). Then
wrk drives 50 connections, each logged in as a different user, at the feed page, and the latency
percentiles and requests/s are printed (and written as JSON with --json), with the CPU time each party used during
the run (gunicorn, PostgreSQL, wrk, and every other process on the machine), so a run on a busy machine shows as one.

    python benchmarks/load.py [--connections 50] [--seconds 20] [--json out.json]

Needs PostgreSQL (LOAD_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/reader_load), wrk and gunicorn.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reliability.services import free_port  # noqa: E402

USERS, FEEDS, STORIES, FEEDS_PER_USER = (int(n) for n in os.environ.get("LOAD_SIZE", "1000,100,100000,2").split(","))
PATH = "/?filter=all"


def admin_url(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


def recreate(url: str, drop_only: bool = False) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    assert re.fullmatch(r"\w+", name), name
    with psycopg.connect(admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def insert_series(cursor, model, count: int, expressions: dict) -> None:
    """count rows of model from generate_series(1, count) as i; columns not given take the field's default."""
    columns, values, params = [], [], []
    for field in model._meta.concrete_fields:
        if field.primary_key and field.column not in expressions:
            continue
        columns.append(field.column)
        if field.column in expressions:
            values.append(expressions[field.column])
        else:
            values.append("%s")
            params.append(field.get_db_prep_save(field.get_default(), cursor.db))
    cursor.execute(f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
                   f"SELECT {', '.join(values)} FROM generate_series(1, {count}) AS i", params)


def populate() -> None:
    from django.db import connection

    from reader.models import Entry, Feed, Story, Subscription
    from django.contrib.auth.models import User

    with connection.cursor() as cur:
        insert_series(cur, User, USERS, {"username": "'reader' || i", "password": "'!'", "is_active": "true",
                                         "date_joined": "now()"})
        insert_series(cur, Feed, FEEDS, {"id": "i", "url": "'https://site' || i || '.example/feed.xml'",
                                         "title": "'Site ' || i", "next_fetch_at": "now()", "created_at": "now()"})
        insert_series(cur, Story, STORIES, {
            "id": "i", "feed_id": f"(i %% {FEEDS}) + 1", "guid": "'g' || i",
            "url": f"'https://site' || ((i %% {FEEDS}) + 1) || '.example/story/' || i",
            "title": "'Story ' || i || ': a headline of ordinary length about the news of the day'",
            "published": "now() - i * interval '1 minute'", "extraction_status": "'done'",
            "summary_html": "'<p>The summary of story ' || i || ', a paragraph of two or three sentences that "
                            "tells the reader what happened, where, and why it matters to them.</p>'",
            "summary_length": "120", "snippet": "'The summary of story ' || i || ', a paragraph of two or three "
                                                 "sentences that tells the reader what happened, where, and why it "
                                                 "matters to them.'",
            "created_at": "now()", "updated_at": "now()"})
        cur.execute("SELECT setval(pg_get_serial_sequence('reader_story', 'id'), %s)", [STORIES])
        cur.execute("SELECT setval(pg_get_serial_sequence('reader_feed', 'id'), %s)", [FEEDS])
        cur.execute(f"INSERT INTO reader_subscription (user_id, feed_id, folder, title, created_at) "
                    f"SELECT u.id, ((u.id * 7 + k * 37) % {FEEDS}) + 1, '', '', now() "
                    f"FROM auth_user u, generate_series(0, {FEEDS_PER_USER - 1}) AS k")
        # Two million rows go in faster without their indexes, which are then built once, sorted.
        cur.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'reader_entry' "
                    "AND indexname NOT LIKE '%%pkey'")
        indexes = cur.fetchall()
        cur.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                    "WHERE conrelid = 'reader_entry'::regclass AND contype IN ('u', 'f')")
        constraints = cur.fetchall()
        for name, _ in constraints:
            cur.execute(f'ALTER TABLE reader_entry DROP CONSTRAINT "{name}"')
        for name, _ in indexes:
            cur.execute(f'DROP INDEX IF EXISTS "{name}"')
        cur.execute("INSERT INTO reader_entry (user_id, story_id, feed_id, score, recommended, reasons, read, saved, "
                    "created_at) SELECT s.user_id, st.id, st.feed_id, random(), random() < 0.7, '[]'::jsonb, "
                    "random() < 0.3, random() < 0.02, now() "
                    "FROM reader_subscription s JOIN reader_story st ON st.feed_id = s.feed_id")
        cur.execute("SET maintenance_work_mem = '256MB'")
        for name, definition in constraints:
            cur.execute(f'ALTER TABLE reader_entry ADD CONSTRAINT "{name}" {definition}')
        cur.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'reader_entry'")
        present = {row[0] for row in cur.fetchall()}
        for name, definition in indexes:
            if name not in present:
                cur.execute(definition)
    # Measure the steady state, not the aftermath of a bulk load: without this, autovacuum's first pass over two
    # million new rows and the checkpoint of the build's writes may land inside the measured seconds.
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
        cur.execute("CHECKPOINT")
    assert Entry.objects.count() == STORIES // FEEDS * FEEDS_PER_USER * USERS
    assert Subscription.objects.count() == USERS * FEEDS_PER_USER


def sessions(count: int) -> list[str]:
    from django.contrib.auth.models import User
    from django.test import Client

    cookies = []
    for user in User.objects.order_by("id")[:count]:
        client = Client()
        client.force_login(user)
        cookies.append(client.cookies["sessionid"].value)
    return cookies


LUA = """
local cookies = {%s}
local counter = 0
function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
end
function init(args)
  count = 0
end
function request()
  count = count + 1
  local cookie = cookies[((offset * 7919 + count) %% #cookies) + 1]
  return wrk.format("GET", nil, {["Cookie"] = "sessionid=" .. cookie})
end
"""


def parse_wrk(output: str) -> dict:
    def ms(text: str) -> float:
        value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
        return round(float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit], 1)

    latency = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", output, re.M))
    requests = re.search(r"(\d+) requests in", output)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {"p50 ms": ms(latency["50"]), "p90 ms": ms(latency["90"]), "p99 ms": ms(latency["99"]),
            "requests/s": round(float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)), 1),
            "requests": int(requests.group(1)), "non-2xx": int(errors.group(1)) if errors else 0,
            "socket errors": sum(map(int, socket_errors.groups())) if socket_errors else 0}


def cpu_ticks() -> dict[int, tuple[str, int]]:
    """CPU time (clock ticks, user + system) of every process now running, with the program it runs."""
    ticks = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        fields = text.rsplit(")", 1)[1].split()
        program = text[text.index("(") + 1:text.rindex(")")]
        if b"gunicorn" in cmdline:
            program = "gunicorn"
        ticks[int(stat.parent.name)] = (program, int(fields[11]) + int(fields[12]))
    return ticks


def cpu_shares(before: dict, after: dict, seconds: float, wrk_seconds: float) -> dict:
    """Core-seconds each party used during the run: web server, database, wrk, and everything else on the machine
    (a lower bound: processes that ended during the run are not seen)."""
    used = {"gunicorn": 0, "postgres": 0, "other": 0}
    others = {}
    for pid, (program, ticks) in after.items():
        then = before.get(pid)
        delta = ticks - (then[1] if then and then[0] == program else 0)
        used[program if program in used else "other"] += delta
        if program not in used:
            others[program] = others.get(program, 0) + delta
    hertz = os.sysconf("SC_CLK_TCK")
    shares = {f"cpu s {name}": round(value / hertz, 1) for name, value in used.items()}
    shares["cpu s wrk"] = round(wrk_seconds, 1)
    busiest = sorted(others.items(), key=lambda item: -item[1])[:3]
    shares["other programs"] = ", ".join(f"{name} {ticks / hertz:.1f}" for name, ticks in busiest if ticks) or "none"
    shares["cpu s available"] = round(seconds * (os.cpu_count() or 1), 1)
    return shares


def serve(env: dict, port: int, workers: int):
    """gunicorn with the app loaded once before forking; returns when a worker answers."""
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "reader.wsgi", "--preload", "-w", str(workers), "-b",
                             f"127.0.0.1:{port}", "--log-level", "warning"], cwd=ROOT, env=env)
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), 1) as sock:
                sock.sendall(b"GET /accounts/login/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                if sock.recv(12)[8:12] == b" 200":
                    return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("gunicorn did not start")


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep the database for another run")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    url = os.environ.get("LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/reader_load")
    var = Path(tempfile.mkdtemp(prefix="reader-load-"))
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "0", "SECRET_KEY": "load-test-" + "k" * 50,
           "ALLOWED_HOSTS": "127.0.0.1", "SECURE_COOKIES": "0", "VAR_DIR": str(var), "REDIS_URL": "",
           "LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "reader.settings"}
    env.pop("TEST_DATABASE_NAME", None)
    os.environ.update(env)
    import django

    started = time.monotonic()
    recreate(url)
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        django.setup()
        populate()
        print(f"built in {time.monotonic() - started:.0f} s", file=sys.stderr)
        cookies = sessions(args.connections)
        build_seconds = time.monotonic() - started
        from django.db import connections
        connections.close_all()
        script = var / "sessions.lua"
        script.write_text(LUA % ", ".join(f'"{c}"' for c in cookies))
        port = free_port()
        server = serve(env, port, args.workers)
        try:
            target = f"http://127.0.0.1:{port}{PATH}"
            subprocess.run(["wrk", "-t2", "-c", str(args.connections), "-d3s", "--timeout", "10s", "-s", str(script), target],
                           capture_output=True, check=True)  # warm-up: connections, caches
            before, started_run, children = cpu_ticks(), time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
            run = subprocess.run(["wrk", "-t2", "-c", str(args.connections), f"-d{args.seconds}s", "--timeout", "10s", "--latency",
                                  "-s", str(script), target], capture_output=True, text=True, check=True)
            wrk_usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # wrk has ended: its time is in here
            shares = cpu_shares(before, cpu_ticks(), time.monotonic() - started_run,
                                wrk_usage.ru_utime + wrk_usage.ru_stime - children.ru_utime - children.ru_stime)
        finally:
            server.terminate()
            server.wait(20)
        result = {"users": USERS, "stories": STORIES, "entries": STORIES // FEEDS * FEEDS_PER_USER * USERS,
                  "connections": args.connections, "gunicorn workers": args.workers,
                  "build s": round(build_seconds, 1), **parse_wrk(run.stdout), **shares}
    finally:
        if not args.keep:
            from django.db import connections
            connections.close_all()
            recreate(url, drop_only=True)
        shutil.rmtree(var, ignore_errors=True)
    print(run.stdout)
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
