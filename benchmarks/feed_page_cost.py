"""The personal feed page's cost per request in one process: SQL queries, and CPU as instructions (callgrind).

A load run's latency on a shared 2-core machine says as much about the machine as about the code; this counts what
one page costs the web process, which does not move with the machine. It builds the load test's database
(benchmarks/load.py's populate: 1,000 users, 100 feeds, 100,000 stories, 2,000,000 entries; LOAD_SIZE as there) in
a database of its own, then serves `/?filter=all` through reader.wsgi's application, as gunicorn does, for 50 users
in turn (load.py's 50 connections), after one warm-up page each (caches filled, statements prepared):

    python benchmarks/feed_page_cost.py [--pages 100] [--instructions] [--profile] [--save DIR] [--keep] [--reuse]

--instructions serves them again in a process under valgrind's callgrind and prints its instructions a page
(PostgreSQL's own work is in its processes, not counted). --profile prints cProfile's top
functions. --save writes each user's page with the CSRF token and the relative dates masked, so the pages of two
revisions can be compared. Needs PostgreSQL (PAGE_COST_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/reader_page_cost, dropped afterwards unless --keep).
"""
from __future__ import annotations

import argparse
import cProfile
import ctypes
import json
import os
import pstats
import re
import subprocess
import sys
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402

USERS = 50
_MASKS = [(re.compile(rb'(name="csrfmiddlewaretoken" value="|name="csrf-token" content=")[^"]+'), rb"\1TOKEN"),
          (re.compile(rb">(\d+ \w+ ago|just now)</time>"), rb">AGO</time>")]


def environment(url: str) -> dict:
    return {**os.environ, "DATABASE_URL": url, "DEBUG": "0", "SECRET_KEY": "page-cost-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_COOKIES": "0", "REDIS_URL": "", "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "reader.settings", "PYTHONHASHSEED": "0",
            "VAR_DIR": os.environ.get("VAR_DIR") or tempfile.mkdtemp(prefix="reader-page-cost-")}


def build(url: str, env: dict) -> None:
    load.recreate(url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    load.populate()


def long_caches() -> None:
    """The load run's 20 s fall inside one lifetime of the per-user caches (60 s), so its steady state is cached;
    under callgrind the same pages take minutes, and expiries would land among the measured ones."""
    from reader import unread_cache
    from reader.ranking import implicit

    unread_cache.TTL = implicit.SHOWN_TTL = 24 * 3600


def serve(application, cookie: str) -> bytes:
    """One GET of the feed page, through the WSGI application as gunicorn calls it."""
    path, _, query = load.PATH.partition("?")
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SCRIPT_NAME": "",
               "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1",
               "HTTP_COOKIE": f"sessionid={cookie}", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.input": BytesIO(),
               "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr, "wsgi.multithread": False,
               "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0)}
    statuses = []
    result = application(environ, lambda status, headers, exc_info=None: statuses.append(status))
    try:
        body = b"".join(result)
    finally:
        result.close()  # request_finished: what gunicorn's worker does after each response
    assert statuses == ["200 OK"], statuses
    return body


def warm(cookies: list[str]):
    """The application, loaded as gunicorn --preload loads it, and a first page for every user (their bodies)."""
    from reader.wsgi import application

    long_caches()
    return application, [serve(application, cookie) for cookie in cookies]


def measure(application, cookies: list[str], count: int) -> None:
    for number in range(count):
        serve(application, cookies[number % len(cookies)])


def queries(application, cookies: list[str], count: int) -> list[list[str]]:
    """The SQL of each of `count` pages."""
    from django.db import connection

    statements = []

    def counted(execute, sql, params, many, context):
        statements[-1].append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        for number in range(count):
            statements.append([])
            serve(application, cookies[number % len(cookies)])
    return statements


def profiled(application, cookies: list[str], count: int) -> None:
    profile = cProfile.Profile()
    profile.runcall(measure, application, cookies, count)
    stats = pstats.Stats(profile).strip_dirs()
    stats.sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(60)


def instructions(env: dict, cookies_file: Path, count: int) -> float:
    """Instructions a page: callgrind counts only inside ctypes' foreign call, which runs the measured pages
    (counted()); loading Python, Django and the views, and the warm-up, are left out."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
                          "--toggle-collect=_ctypes_callproc", sys.executable, __file__, "--child", str(cookies_file),
                          "--pages", str(count)], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1)) / count


def counted(function) -> None:
    """function() called through ctypes, so that callgrind's --toggle-collect can find it (nothing on the page's
    path uses ctypes). An exception in a foreign callback is printed and dropped: it is carried out here."""
    failures = []

    def call():
        try:
            function()
        except BaseException as error:  # noqa: BLE001 - re-raised below
            failures.append(error)

    ctypes.CFUNCTYPE(None)(call)()
    if failures:
        raise failures[0]


def save(bodies: list[bytes], folder: Path) -> None:
    """Each user's page, its CSRF token and relative dates masked: they change from one drawing to the next."""
    folder.mkdir(parents=True, exist_ok=True)
    for number, body in enumerate(bodies):
        for pattern, replacement in _MASKS:
            body = pattern.sub(replacement, body)
        (folder / f"user{number + 1}.html").write_bytes(body)


def child(cookies_file: Path, count: int) -> None:
    """The process callgrind counts: load, warm up, then `count` pages."""
    import django

    django.setup()
    cookies = json.loads(cookies_file.read_text())
    application, _ = warm(cookies)
    counted(lambda: measure(application, cookies, count))


def report(application, cookies: list[str], bodies: list[bytes], args, env: dict) -> dict:
    sql = queries(application, cookies, args.pages)
    result = {"pages": args.pages, "queries a page": sum(map(len, sql)) / args.pages,
              "bytes a page": sum(map(len, bodies)) // len(bodies)}
    print("one page's SQL:", *sql[-1], sep="\n  ", file=sys.stderr)
    if args.profile:
        profiled(application, cookies, args.pages)
    if args.instructions:
        from django.db import connections

        connections.close_all()
        cookies_file = Path(env["VAR_DIR"]) / "cookies.json"
        cookies_file.write_text(json.dumps(cookies))
        result["instructions a page"] = round(instructions(env, cookies_file, args.pages))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--instructions", action="store_true", help="count them under callgrind (minutes)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--save", type=Path, help="write each user's page here")
    parser.add_argument("--keep", action="store_true", help="keep the database for another run")
    parser.add_argument("--reuse", action="store_true", help="use the database a --keep run left")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.pages)
    url = os.environ.get("PAGE_COST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/reader_page_cost")
    env = environment(url)
    env.pop("TEST_DATABASE_NAME", None)
    os.environ.update(env)
    try:
        if args.reuse:
            import django

            django.setup()
        else:
            build(url, env)
        cookies = load.sessions(USERS)
        application, bodies = warm(cookies)
        if args.save:
            save(bodies, args.save)
        print(json.dumps(report(application, cookies, bodies, args, env), indent=2))
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            load.recreate(url, drop_only=True)


if __name__ == "__main__":
    main()
