"""Per-story features, computed once and shared by every user.

Features are hashed (no vocabulary to store or keep in sync), so ``featurize`` is a pure function of
the story: the reader may recompute features at will or store ``StoryFeatures.to_json()`` beside the
story. Each feature keeps its kind and unhashed key so that explanations and rules can name it.
"""
from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from .story import Story, clean_text

# Bump whenever featurize() would give different output for the same story: stored features and
# models carry it, and a mismatch means "recompute" rather than silently mixing spaces.
FEATURE_VERSION = 2
DIM = 1 << 18

# Kinds of features and how much each group weighs (every group is L2-normalised first, so these are
# the relative voices of text, title, tags...). Tags, feed and author name what a story is about
# or where it is from, so they speak louder than any single word of text.
GROUP_WEIGHTS = {
    "word": 0.5,
    "title": 0.7,
    "name": 1.5,
    "tag": 2.0,
    "feed": 1.5,
    "author": 1.0,
    "site": 0.5,
}

# Each feature's kind as a small integer (StoryFeatures.kind_codes): an index into KINDS.
KINDS = tuple(GROUP_WEIGHTS)
_KIND_CODE = {kind: code for code, kind in enumerate(KINDS)}

# Only the lead of a long story is read: topics are stated early, and it bounds featurising cost.
MAX_TEXT_WORDS = 400
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*")
# Capitalised words not opening a sentence, runs of them kept whole ("West German"): the people,
# companies and places a story is about, which readers have tastes for. A story's text has its whitespace
# collapsed within paragraphs, so a word after a line break opens a paragraph, and so a sentence.
_CAP = r"(?:[^\W\d_a-z][^\W\d_A-Z]+|[^\W\d_a-z]{2,6}\b)"
# The cheap tests first (a word start, a capital): the look-behinds then run at a few positions, not every one.
_NAME = re.compile(rf"\b(?=[^\W\d_a-z])(?<![.!?:]\s)(?<![.!?:]\s\s)(?<!^)(?<!\n){_CAP}(?:\s{_CAP})*")
_STOP = frozenset(ENGLISH_STOP_WORDS) | {"said", "says", "say", "new", "year", "also", "would"}


class FeatureError(ValueError):
    """Stored features that cannot be read back (corrupt JSON or another FEATURE_VERSION)."""


def words(text: str, limit: int | None = None) -> list[str]:
    """Lower-cased word tokens without stop words (the first limit of them); works for any script that
    separates words. Tokens are read lazily, so a long text costs only as much as its first limit words."""
    tokens = (m.group() for m in _WORD.finditer((text or "").lower()))
    return list(islice((w for w in tokens if len(w) > 1 and w not in _STOP), limit))


def names(text: str) -> list[str]:
    """Proper names in running text (lower-cased), for scripts with letter case."""
    found = []
    for name in _NAME.findall((text or "")[:MAX_TEXT_WORDS * 8]):
        name = name.lower()
        if name not in _STOP:
            found.append(name)
    return found


def feature_index(kind: str, key: str) -> int:
    return zlib.crc32(f"{kind}\x1f{key}".encode()) & (DIM - 1)


@dataclass(frozen=True)
class StoryFeatures:
    """Sparse hashed features of one story, with names kept for explanations and rules.

    ``indices`` are sorted and unique; ``kinds``/``keys`` name the first feature hashed to each index.
    """

    story_id: object
    indices: np.ndarray
    values: np.ndarray
    kinds: tuple[str, ...]
    keys: tuple[str, ...]
    feed: str = ""
    feed_title: str = ""
    # kinds as indices into KINDS, for array work over many stories (derived, never stored)
    kind_codes: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "kind_codes", np.array([_KIND_CODE[k] for k in self.kinds], np.int8))

    def label(self, position: int) -> str:
        if self.kinds[position] == "feed" and self.feed_title:
            return self.feed_title
        return self.keys[position]

    def to_json(self) -> str:
        return json.dumps({
            "v": FEATURE_VERSION, "id": self.story_id, "feed": self.feed, "feed_title": self.feed_title,
            "f": [[k, key, round(float(v), 5)] for k, key, v in zip(self.kinds, self.keys, self.values)],
        }, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: str | bytes) -> "StoryFeatures":
        try:
            doc = json.loads(data)
            if doc.get("v") != FEATURE_VERSION:
                raise FeatureError(f"stored features have version {doc.get('v')!r}, "
                                   f"this code reads {FEATURE_VERSION}; recompute them")
            return _assemble(doc["id"], [(k, key, float(v)) for k, key, v in doc["f"]],
                             doc.get("feed", ""), doc.get("feed_title", ""))
        except FeatureError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise FeatureError(f"stored features are corrupt: {exc}") from exc


def _group(kind: str, counts: Counter) -> list[tuple[str, str, float]]:
    """Sub-linear term frequency, L2-normalised within the group, times the group's weight."""
    if not counts:
        return []
    raw = {key: 1.0 + np.log(n) for key, n in counts.items()}
    norm = np.sqrt(sum(v * v for v in raw.values()))
    return [(kind, key, GROUP_WEIGHTS[kind] * v / norm) for key, v in raw.items()]


def _assemble(story_id, entries, feed: str, feed_title: str) -> StoryFeatures:
    merged: dict[int, list] = {}
    for kind, key, value in entries:
        index = feature_index(kind, key)
        if index in merged:
            merged[index][2] += value  # hash collision: one column, first name kept
        else:
            merged[index] = [kind, key, value]
    order = sorted(merged)
    return StoryFeatures(
        story_id=story_id,
        indices=np.array(order, dtype=np.int32),
        values=np.array([merged[i][2] for i in order], dtype=np.float32),
        kinds=tuple(merged[i][0] for i in order),
        keys=tuple(merged[i][1] for i in order),
        feed=feed, feed_title=feed_title,
    )


def featurize(story: Story) -> StoryFeatures:
    """The story's features; a story with no text at all still gets its feed/site features."""
    feed = "" if story.feed is None else clean_text(str(story.feed))
    entries = []
    entries += _group("title", Counter(words(story.title)))
    entries += _group("word", Counter(words(story.text, MAX_TEXT_WORDS)))
    entries += _group("name", Counter(names(story.text)))
    entries += _group("tag", Counter({t.strip().lower(): 1 for t in story.tags if t.strip()}))
    entries += _group("feed", Counter({feed: 1} if feed else {}))
    entries += _group("author", Counter({story.author.strip().lower(): 1} if story.author.strip() else {}))
    entries += _group("site", Counter({story.domain.lower(): 1} if story.domain else {}))
    return _assemble(story.id, entries, feed, story.feed_title or feed)


def as_features(items) -> list[StoryFeatures]:
    """Accept Story or StoryFeatures objects alike."""
    return [item if isinstance(item, StoryFeatures) else featurize(item) for item in items]


def matrix(features: list[StoryFeatures]) -> sparse.csr_matrix:
    """Stack features into a CSR matrix (stories x DIM)."""
    lengths = np.fromiter((len(f.indices) for f in features), dtype=np.int64, count=len(features))
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    if len(features) and indptr[-1]:
        indices = np.concatenate([f.indices for f in features])
        values = np.concatenate([f.values for f in features])
    else:
        indices, values = np.zeros(0, np.int32), np.zeros(0, np.float32)
    return sparse.csr_matrix((values, indices, indptr), shape=(len(features), DIM))
