"""A fixed split of every dataset into a tuning half and a check half.

A page's half follows from a hash of its id alone, so it never changes between runs,
machines or dataset versions, and nobody can move a page by hand. Changes are tuned on
the tuning halves; the check halves say whether the gain holds on pages they were not
tuned on.
"""
from __future__ import annotations

import hashlib

TUNE = "tune"
CHECK = "check"
HALVES = (TUNE, CHECK)


def half_of(page_id: str) -> str:
    """``TUNE`` or ``CHECK``, by the parity of the SHA-1 of the page id."""
    return CHECK if hashlib.sha1(page_id.encode("utf-8")).digest()[-1] & 1 else TUNE
