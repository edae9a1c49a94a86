"""A feed fetch's new stories, scored together the moment the last of their pages is done.

Scoring used to poll: a task looked at the batch every 5-30 s until no page was pending, so the last stories
of a run waited up to 30 s and every look cost a task. Now each page task ticks its story off its batch, and
the one that leaves the batch empty queues the scoring. The ids stay until the scoring is queued and the batch
closed: a worker killed in between leaves its message to be redelivered, and the redelivered task, finding
the batch empty but still open, queues the scoring again (scoring is idempotent).

Two implementations behind one interface, as for politeness: Redis (one atomic script per page), and lock
files on the local disk for the embedded default without Redis.
"""
from __future__ import annotations

import json
import uuid
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from .locked_json import locked_json
from .politeness import shared_redis_url

KEEP = 2 * 24 * 3600  # an open batch is forgotten after two days (pages wait at most the visibility timeout)


class Batches:
    def open(self, story_ids: list[int]) -> str:
        """Start tracking the stories' pages; returns the batch's name, for the page tasks to carry."""
        raise NotImplementedError

    def finish(self, batch: str, story_id: int) -> list[int] | None:
        """Tick the story off; the batch's ids when no page is left and it is still open, else None."""
        raise NotImplementedError

    def close(self, batch: str) -> None:
        """The scoring is queued: later ticks (redelivered tasks) find nothing to do."""
        raise NotImplementedError


_FINISH = """
redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('SCARD', KEYS[1]) > 0 then return false end
return redis.call('GET', KEYS[2])
"""


class RedisBatches(Batches):
    def __init__(self, url: str):
        import redis

        self.redis = redis.Redis.from_url(url)
        self.finish_script = self.redis.register_script(_FINISH)

    @staticmethod
    def _keys(batch: str) -> list[str]:
        return [f"batch:{{{batch}}}:pending", f"batch:{{{batch}}}:ids"]  # one Redis Cluster slot per batch

    def open(self, story_ids):
        batch = uuid.uuid4().hex
        pending, ids = self._keys(batch)
        with self.redis.pipeline() as pipe:
            pipe.sadd(pending, *story_ids).expire(pending, KEEP)
            pipe.set(ids, json.dumps(story_ids), ex=KEEP)
            pipe.execute()
        return batch

    def finish(self, batch, story_id):
        found = self.finish_script(keys=self._keys(batch), args=[story_id])
        return json.loads(found) if found else None

    def close(self, batch):
        self.redis.delete(*self._keys(batch))


class FileBatches(Batches):
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def open(self, story_ids):
        batch = uuid.uuid4().hex
        (self.folder / f"{batch}.json").write_text(json.dumps({"pending": story_ids, "ids": story_ids}))
        return batch

    def finish(self, batch, story_id):
        with locked_json(self.folder / f"{batch}.json", create=False) as state:
            if not state:  # closed, never opened here, or never written
                return None
            state["pending"] = [i for i in state["pending"] if i != story_id]
            return None if state["pending"] else state["ids"]

    def close(self, batch):
        (self.folder / f"{batch}.json").unlink(missing_ok=True)


@lru_cache(maxsize=1)
def batches() -> Batches:
    url = shared_redis_url()
    return RedisBatches(url) if url else FileBatches(settings.VAR_DIR / "batches")
