"""For the database benchmarks (feed_paging, search): a database of their own, never the one the tests or the
site use, dropped at the end; and the median time of a few calls."""
from __future__ import annotations

import os
import statistics
import time
from contextlib import contextmanager

from django.conf import settings
from django.db import connection


@contextmanager
def throwaway_database(name: str):
    """bench_<name>_<pid> on PostgreSQL, a file in VAR_DIR on SQLite; migrated, and dropped afterwards."""
    test = connection.settings_dict["TEST"]
    test["NAME"] = (str(settings.VAR_DIR / f"bench-{name}-{os.getpid()}.sqlite3") if connection.vendor == "sqlite"
                    else f"bench_{name}_{os.getpid()}")
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)


def timed(fetch, repeat: int = 5) -> float:
    """Median milliseconds of `repeat` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fetch()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)
