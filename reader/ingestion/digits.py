"""Whole numbers from text that strangers wrote (HTTP headers, feed fields): ASCII digits only, length bounded.

str.isdigit() accepts "²" and other Unicode digits that int() refuses, and int() refuses more than 4,300
digits; both once crashed a fetch after its stories were stored.
"""
from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")
MAX_DIGITS = 9  # a billion seconds is 31 years: longer than any wait this reader honours


def whole_number(text: str | None, max_digits: int = MAX_DIGITS) -> int | None:
    """The number text spells in ASCII digits (surrounding blanks allowed), clamped to max_digits nines."""
    value = (text or "").strip()
    if not _DIGITS.fullmatch(value):
        return None
    value = value.lstrip("0") or "0"
    return int(value) if len(value) <= max_digits else 10 ** max_digits - 1


def row_id(text: str) -> int | None:
    """The row id text spells in ASCII digits, if it could be one (at most 18 digits: a bigint holds 19)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None
