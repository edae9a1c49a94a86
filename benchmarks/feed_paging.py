"""How fast the personal feed pages with 100,000 stories: keyset cursor (ours) against OFFSET paging.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test SECRET_KEY=x python benchmarks/feed_paging.py

Builds a throw-away database (bench_feed_paging_<pid>, or a file in VAR_DIR on SQLite), fills one reader's feed
with N stories (scores and publication minutes drawn at random, many ties), then times fetching one page of 40
at several depths, both ways, for each filter and both orders (by score, newest first): the rows only, with
their stories and feeds, as the page shows them. The competitor is what Django's Paginator does (LIMIT/OFFSET):
each deeper page rescans all the rows above it. The database is dropped at the end.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reader.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from throwaway_db import throwaway_database, timed  # noqa: E402

from reader.web import stream  # noqa: E402
from reader.models import Entry, Feed, Story  # noqa: E402


def fill(n: int, seed: int) -> User:
    rng = random.Random(seed)
    user = User.objects.create_user("bench")
    feed = Feed.objects.create(url="https://bench.example/feed", title="Bench desk")
    now = timezone.now()
    for start in range(0, n, 5000):
        Story.objects.bulk_create([Story(feed=feed, guid=str(i), title=f"Story {i}", url=f"https://bench.example/{i}",
                                         summary_html="<p>teaser</p>",
                                         published=now - timedelta(minutes=rng.randrange(n)))
                                         for i in range(start, min(n, start + 5000))])
    ids = list(Story.objects.values_list("id", flat=True))
    for start in range(0, n, 5000):
        # Scores rounded to 3 places: plenty of ties, as with a fresh model.
        Entry.objects.bulk_create([Entry(user=user, story_id=sid, score=round(rng.random(), 3),
                                         recommended=rng.random() < 0.4, read=rng.random() < 0.5,
                                         saved=rng.random() < 0.05) for sid in ids[start:start + 5000]])
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE")
    return user


ORDERS = {"score": (("-score", "-story__published", "-id"), ("score", "story__published", "id")),
          "newest": (("-story__published", "-story_id"), ("story__published", "story_id"))}


def entries(user, filter_name: str, sort: str = "score"):
    """The competitor's queryset: the same rows in the same order, for Django's LIMIT/OFFSET paging."""
    return Entry.objects.filter(user=user, **stream.FILTERS[filter_name]).order_by(*ORDERS[sort][0])


def keyset_page(user, filter_name: str, depth: int, sort: str = "score") -> float:
    """Time to fetch page `depth` from the cursor a client holds for it (the same rows as OFFSET)."""
    cursor = None
    if depth:
        key = entries(user, filter_name, sort).values_list(*ORDERS[sort][1])[depth * stream.PAGE_SIZE - 1]
        cursor = stream.encode_cursor(*key)
    return timed(lambda: stream.page(user, cursor=cursor, scope=stream.Scope(filter_name, sort)))


def offset_page(user, filter_name: str, depth: int, sort: str = "score") -> float:
    start = depth * stream.PAGE_SIZE
    rows = entries(user, filter_name, sort).select_related("story__feed")[start:start + stream.PAGE_SIZE]
    return timed(lambda: list(rows.all()))




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stories", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with throwaway_database("feed_paging"):
        started = time.perf_counter()
        user = fill(args.stories, args.seed)
        print(f"{connection.vendor}: {args.stories} stories in one reader's feed, filled in "
              f"{time.perf_counter() - started:.1f} s; page size {stream.PAGE_SIZE}; median of 5, ms\n")
        print(f"{'filter':<12} {'sort':<7} {'page':>6} {'keyset ms':>10} {'OFFSET ms':>10} {'OFFSET/keyset':>14}")
        for sort in stream.SORTS:
            for filter_name in stream.FILTERS:
                total = entries(user, filter_name).count()
                last = max(0, total // stream.PAGE_SIZE - 1)
                for depth in sorted(d for d in {0, 10, 100, last // 2, last} if d <= last):
                    keyset = keyset_page(user, filter_name, depth, sort)
                    offset = offset_page(user, filter_name, depth, sort)
                    print(f"{filter_name:<12} {sort:<7} {depth + 1:>6} {keyset:>10.2f} {offset:>10.2f} "
                          f"{offset / keyset:>13.1f}x")


if __name__ == "__main__":
    main()
