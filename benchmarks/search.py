"""How fast a reader's search answers with 100,000 stories: the first page of results, as the feed page asks.

    SECRET_KEY=x python benchmarks/search.py                      # SQLite FTS5
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/x SECRET_KEY=x python benchmarks/search.py

Builds a throw-away database (bench_search_<pid>, or a file in VAR_DIR on SQLite), fills one reader's feed with N
stories of random words (a Zipf-like vocabulary, so some words are in most stories and some in a handful), then
times the first page of 40 results for rare, middling and common words and two words, by score, newest
first and among unread stories. The database is dropped at the end.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reader.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from throwaway_db import throwaway_database, timed  # noqa: E402

from reader.web import search, stream  # noqa: E402
from reader.models import Entry, Feed, Story  # noqa: E402

VOCABULARY = [f"w{i}" for i in range(20_000)]
WEIGHTS = [1 / (rank + 1) for rank in range(len(VOCABULARY))]  # Zipf: w0 is in nearly every story


def fill(n: int, words: int, seed: int) -> User:
    rng = random.Random(seed)
    user = User.objects.create_user("bench")
    feed = Feed.objects.create(url="https://bench.example/feed", title="Bench desk")
    now = timezone.now()
    for start in range(0, n, 2000):
        batch = []
        for i in range(start, min(n, start + 2000)):
            text = rng.choices(VOCABULARY, WEIGHTS, k=words)
            batch.append(Story(feed=feed, guid=str(i), title=" ".join(text[:8]), url=f"https://bench.example/{i}",
                               summary_html=f"<p>{' '.join(text[8:40])}</p>", extracted_text=" ".join(text[8:]),
                               published=now - timezone.timedelta(minutes=rng.randrange(10 ** 6))))
        Story.objects.bulk_create(batch)
    ids = list(Story.objects.values_list("id", flat=True))
    for start in range(0, n, 5000):
        Entry.objects.bulk_create([Entry(user=user, story_id=sid, score=round(rng.random(), 3),
                                         read=rng.random() < 0.5) for sid in ids[start:start + 5000]])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return user


def matches(user, query: str) -> int:
    conditions, params = stream.scope_sql(user.pk, stream.Scope("all", search=tuple(search.terms(query))))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {Entry._meta.db_table} e JOIN {Story._meta.db_table} s "
                       f"ON s.id = e.story_id WHERE e.user_id = %s {' '.join(conditions)}", [user.pk, *params])
        return cursor.fetchone()[0]




QUERIES = [("rare word", "w19990"), ("middling word", "w300"), ("common word", "w3"), ("most common word", "w0"),
           ("two words", "w3 w40"), ("no match", "nothere")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stories", type=int, default=100_000)
    parser.add_argument("--words", type=int, default=150, help="words per story")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with throwaway_database("search"):
        started = time.perf_counter()
        user = fill(args.stories, args.words, args.seed)
        index = "tsvector + GIN" if connection.vendor == "postgresql" else "FTS5"
        print(f"{connection.vendor} ({index}): {args.stories} stories of "
              f"{args.words} words in one reader's feed, filled in {time.perf_counter() - started:.1f} s; "
              f"first page of {stream.PAGE_SIZE}; median of 5, ms\n")
        print(f"{'query':<18} {'words':<12} {'stories':>8} {'by score':>9} {'newest':>8} {'unread':>8}")
        for label, query in QUERIES:
            words = tuple(search.terms(query))
            ms = [timed(lambda: stream.page(user, scope=stream.Scope(f, sort, search=words)))
                  for f, sort in (("all", "score"), ("all", "newest"), ("unread", "score"))]
            print(f"{label:<18} {query:<12} {matches(user, query):>8} {ms[0]:>9.1f} {ms[1]:>8.1f} {ms[2]:>8.1f}")


if __name__ == "__main__":
    main()
