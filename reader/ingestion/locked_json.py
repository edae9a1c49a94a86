"""A JSON file read and written back under an exclusive lock: the embedded default's shared state (the hosts'
calendars, the page batches) when there is no Redis, for every process on the machine."""
from __future__ import annotations

import fcntl
import json
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def locked_json(path: Path, create: bool = True):
    """The object stored in `path`, held under the lock for the block and written back after it: {} for a new or
    unreadable file (a crash mid-write leaves one), or None without writing when the file is missing and not
    `create`."""
    try:
        handle = open(path, "a+" if create else "r+")
    except FileNotFoundError:
        yield None
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        try:
            state = json.loads(handle.read() or "{}")
        except ValueError:
            state = {}
        yield state
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(state))
