"""Search over a user's stories (title, extracted article, feed content): the SQL condition for the feed query.

PostgreSQL matches the generated `search` tsvector column (GIN index); SQLite matches the FTS5 table
reader_story_fts (migration 0006). A query is reduced to its words, each required as written (no stemming, no
prefixes: a short prefix expands to thousands of words and took 100+ ms); no operators reach either engine.
"""
from __future__ import annotations

import math
import re

from django.db import connection

MAX_TERMS = 8
MAX_TERM_LENGTH = 64
# SQLite plans (_sqlite_plan), measured with benchmarks/search.py at 100,000 stories: below FEW matches start
# from them; costs in microseconds of a match put in a list and of asking the index about one row and word.
FEW, LIST_US, ASK_US = 300, 0.5, 75
FEW_PG = 2000
_WORD = re.compile(r"[^\W_]+")  # letters and digits: an underscore is a separator to both engines


def terms(text: str) -> list[str]:
    """The words of a query, lower-cased, at most MAX_TERMS of them."""
    return [w[:MAX_TERM_LENGTH] for w in _WORD.findall(text.casefold())][:MAX_TERMS]


def condition(words: list[str], page_size: int) -> tuple[str, list]:
    """`AND ...` keeping the stories `s` that contain every word, for pages of ``page_size`` stories."""
    if connection.vendor == "postgresql":
        return _postgresql(" & ".join(words))
    query = " ".join(f'"{w}"' for w in words)
    matches = f"SELECT rowid FROM reader_story_fts WHERE reader_story_fts MATCH %s"
    plan = _sqlite_plan(query, len(words), page_size)
    if plan == "start from the matches":
        return f"AND s.id IN ({matches})", [query]
    if plan == "walk, checking a list":  # the unary + keeps SQLite from starting at the matches
        return f"AND +e.story_id IN ({matches})", [query]
    return f"AND EXISTS ({matches} AND rowid = e.story_id)", [query]


def _postgresql(query: str) -> tuple[str, list]:
    """PostgreSQL guesses a word's frequency from a sample and took 1.4-2.8 s walking the whole feed for a rare
    word or none. Few matches (counted on the GIN index, up to FEW_PG): fetch them first, once, and look them up;
    more: walk the feed in its order and test each row's stored tsvector."""
    match = "SELECT id FROM reader_story WHERE search @@ to_tsquery('simple', %s)"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM ({match} LIMIT %s) m", [query, FEW_PG])
        if cursor.fetchone()[0] < FEW_PG:
            return f"AND s.id = ANY(ARRAY({match}))", [query]
    return "AND s.search @@ to_tsquery('simple', %s)", [query]


def _sqlite_plan(query: str, terms: int, page_size: int) -> str:
    """How to find the first page of matches on SQLite, whose planner cannot tell a rare word from a common one.

    Few matches: start from them and sort them (each costs a join). More: walk the feed in its own order and
    keep the rows in the list of matches, which costs LIST_US a match to build. Very many: walk and ask the
    index about each row, ASK_US a row and word, but with M of N stories matching a page is found within about
    page_size * N / M rows; that wins from M = sqrt(page_size * N * ASK_US * terms / LIST_US), 24,000 of 100,000
    (pages of 40).
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT MAX(rowid) FROM reader_story_fts")
        stories = cursor.fetchone()[0] or 0
        enough = math.isqrt(int(page_size * stories * ASK_US * terms / LIST_US))
        cursor.execute("SELECT COUNT(*) FROM (SELECT rowid FROM reader_story_fts WHERE reader_story_fts MATCH %s "
                       "LIMIT %s)", [query, max(enough, FEW)])
        count = cursor.fetchone()[0]
    if count < FEW:
        return "start from the matches"
    return "walk, checking a list" if count < enough else "walk, asking the index"
