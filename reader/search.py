"""Search over a user's stories (title, extracted article, feed content): the SQL condition for the feed query.

PostgreSQL matches the generated `search` tsvector column (GIN index); SQLite matches the FTS5 table
reader_story_fts (migration 0006). A query is reduced to its words, each required as written (no stemming, no
prefixes: a short prefix expands to thousands of words and took 100+ ms); no operators reach either engine.
"""
from __future__ import annotations

import re

from django.db import connection

MAX_TERMS = 8
MAX_TERM_LENGTH = 64
DENSE = 2000  # matches from which the feed's order, not the match list, drives the query (SQLite)
_WORD = re.compile(r"[^\W_]+")  # letters and digits: an underscore is a separator to both engines


def terms(text: str) -> list[str]:
    """The words of a query, lower-cased, at most MAX_TERMS of them."""
    return [w[:MAX_TERM_LENGTH] for w in _WORD.findall(text.casefold())][:MAX_TERMS]


def condition(words: list[str]) -> tuple[str, list]:
    """`AND ...` keeping the stories `s` that contain every word."""
    if connection.vendor == "postgresql":
        return "AND s.search @@ to_tsquery('simple', %s)", [" & ".join(words)]
    query = " ".join(f'"{w}"' for w in words)
    # Few matches: start from them. Many: walk the feed in its own order and keep the matches, so the first
    # page is found after a few dozen rows; starting from 100,000 matches meant joining and sorting them all.
    # (SQLite's planner cannot tell the two apart; the unary + keeps it from starting at the matches.)
    column = "+s.id" if _dense(query) else "s.id"
    return f"AND {column} IN (SELECT rowid FROM reader_story_fts WHERE reader_story_fts MATCH %s)", [query]


def _dense(query: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM (SELECT rowid FROM reader_story_fts WHERE reader_story_fts MATCH %s "
                       "LIMIT %s)", [query, DENSE])
        return cursor.fetchone()[0] >= DENSE
