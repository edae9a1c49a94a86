"""Search over a user's stories (title, extracted article, feed content): the SQL condition for the feed query.

PostgreSQL matches the generated `search` tsvector column (GIN index); SQLite matches the FTS5 table
reader_story_fts (migration 0006). A query is reduced to its words, each required, the last one also as a
prefix (so results follow typing); no operators reach the database's query syntax.
"""
from __future__ import annotations

import re

from django.db import connection

MAX_TERMS = 8
MAX_TERM_LENGTH = 64
_WORD = re.compile(r"[^\W_]+")  # letters and digits: an underscore is a separator to both engines


def terms(text: str) -> list[str]:
    """The words of a query, lower-cased, at most MAX_TERMS of them."""
    return [w[:MAX_TERM_LENGTH] for w in _WORD.findall(text.casefold())][:MAX_TERMS]


def condition(words: list[str]) -> tuple[str, list]:
    """`AND ...` keeping the stories `s` that contain every word (the last as a prefix)."""
    if connection.vendor == "postgresql":
        query = " & ".join(words[:-1] + [f"{words[-1]}:*"])
        return "AND s.search @@ to_tsquery('simple', %s)", [query]
    query = " ".join(f'"{w}"' for w in words) + "*"
    return "AND s.id IN (SELECT rowid FROM reader_story_fts WHERE reader_story_fts MATCH %s)", [query]
