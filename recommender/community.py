"""Community priors: what other readers rated good, per story and per feature.

Built from aggregate vote counts only (never who voted), and a count is used only once at least
``min_raters`` votes stand behind it, so no single reader's ratings show through in another's view.
``fit`` removes the user's own votes (``excluding``) so a model never learns its own labels back
from the crowd. ``with_crowd_model`` replaces the per-feature view of what a story is about by a
model fitted on the votes (``crowd.py``).
"""
from __future__ import annotations

import copy
from collections.abc import Iterable

import numpy as np
from scipy import sparse

from .crowd import CrowdModel
from .features import DIM, KINDS, StoryFeatures, as_features, matrix

# Pseudo-votes pulling thin counts toward the global rate.
SMOOTHING = 4.0


def _log_odds(good, bad, base: float, min_votes: int):
    good, bad = np.asarray(good, np.float64), np.asarray(bad, np.float64)
    odds = np.log((good + SMOOTHING * base) / (bad + SMOOTHING * (1 - base))) - np.log(base / (1 - base))
    return np.where(good + bad >= min_votes, odds, 0.0)


def _document_frequency(features: list[StoryFeatures]) -> tuple[np.ndarray, np.ndarray]:
    """Each feature's inverse document frequency over the stories, log((1 + stories) / (1 + stories with
    it)) + 1, and per kind of feature (KINDS) its root mean square over the stories' values of that kind
    (weighted by their squares: a story's typical word, not a typical column of the hashed space)."""
    indices = np.concatenate([f.indices for f in features]) if features else np.zeros(0, np.int64)
    idf = (np.log((1 + len(features)) / (1 + np.bincount(indices, minlength=DIM))) + 1).astype(np.float32)
    typical = np.ones(len(KINDS))
    if features:
        codes = np.concatenate([f.kind_codes for f in features])
        mass = np.concatenate([f.values for f in features]).astype(np.float64) ** 2
        spread = np.bincount(codes, mass * idf[indices].astype(np.float64) ** 2, minlength=len(KINDS))
        total = np.bincount(codes, mass, minlength=len(KINDS))
        typical[total > 0] = np.sqrt(spread[total > 0] / total[total > 0])
    return idf, typical


def _check_counts(good, bad) -> None:
    """ValueError unless every count is finite and non-negative: one NaN or infinite count would make every
    score NaN."""
    if not (np.all(np.isfinite(good)) and np.all(np.isfinite(bad))) or np.any(good < 0) or np.any(bad < 0):
        raise ValueError("community vote counts must be finite and non-negative")


class CommunityPrior:
    """Aggregated good/bad counts across readers.

    ``votes``: iterable of ``(story, good_count, bad_count)`` where story is a Story or StoryFeatures;
    counts may include the user being fitted (``fit`` subtracts that user's own ratings).
    """

    def __init__(self, votes: Iterable[tuple[object, int, int]] = (), min_raters: int = 3):
        votes = list(votes)
        self.min_raters = min_raters
        features = as_features([story for story, _, _ in votes])
        good = np.array([g for _, g, _ in votes], dtype=np.float64)
        bad = np.array([b for _, _, b in votes], dtype=np.float64)
        _check_counts(good, bad)
        self._story = {f.story_id: (g, b) for f, g, b in zip(features, good, bad)}
        self._features = {f.story_id: f for f in features}
        # each story adds its votes to every feature it has, in one pass over all stories
        indices = np.concatenate([f.indices for f in features]) if features else np.zeros(0, np.int64)
        lengths = [len(f.indices) for f in features]
        self._good = np.bincount(indices, np.repeat(good, lengths), minlength=DIM)
        self._bad = np.bincount(indices, np.repeat(bad, lengths), minlength=DIM)
        self._idf, self._typical_idf = _document_frequency(features)
        self._refresh()

    def __setstate__(self, state):
        # a prior pickled before it counted document frequencies (a crowd snapshot stored by an earlier
        # version): every feature reads as typical, which fits as before, until the next snapshot
        state.setdefault("_idf", np.ones(DIM, np.float32))
        state.setdefault("_typical_idf", np.ones(len(KINDS)))
        self.__dict__.update(state)

    def _refresh(self):
        total_good = sum(g for g, _ in self._story.values())
        total = total_good + sum(b for _, b in self._story.values())
        self.base_rate = float(np.clip((total_good + 1) / (total + 2), 0.02, 0.98))
        self._topic = _log_odds(self._good, self._bad, self.base_rate, self.min_raters).astype(np.float32)
        # one user's own votes taken out (see excluding): per story, and per feature they touch
        self._own_story: dict = {}
        self._own_idx = np.zeros(0, np.int64)
        self._own_good = self._own_bad = np.zeros(0)
        self._own_topic = np.zeros(0, np.float32)
        self._model: CrowdModel | None = None

    def with_crowd_model(self, model: CrowdModel | None = None, start: CrowdModel | None = None) -> "CommunityPrior":
        """This prior with the crowd's view of what a story is about taken from a fitted CrowdModel.

        By default one is fitted here on this prior's votes (seconds for 20,000 stories; ``start``:
        the model of an earlier snapshot, to fit in a fraction of that). ``model``: one fitted on an
        earlier snapshot, used as it is. The user's own votes already taken out of this prior are
        taken out of the model too.
        """
        if model is None:
            ids = list(self._story)
            counts = np.array([self._story[i] for i in ids]).reshape(-1, 2)
            model = CrowdModel.fit([self._features[i] for i in ids], counts[:, 0], counts[:, 1], self.min_raters,
                                   start=start)
        twin = copy.copy(self)
        own = [(story_id, good) for story_id, (g, b) in self._own_story.items()
               for good in [True] * int(g) + [False] * int(b)]
        twin._model = model.excluding(own)
        return twin

    @property
    def crowd_model(self) -> CrowdModel | None:
        return self._model

    def with_story_votes(self, votes: Iterable[tuple[object, int, int]]) -> "CommunityPrior":
        """This prior with the current counts ``(story_id, good, bad)`` of these very stories, e.g. votes cast
        since it was built: what other readers think of each story (``story_log_odds``) stays live between
        snapshots. The per-feature counts and the crowd model stay as built."""
        twin = copy.copy(self)
        twin._story = dict(self._story)
        for story_id, good, bad in votes:
            good, bad = np.float64(good), np.float64(bad)  # None becomes NaN, which the check refuses
            _check_counts(good, bad)
            twin._story[story_id] = (float(good), float(bad))
        return twin

    def excluding(self, ratings: Iterable[tuple[object, bool]]) -> "CommunityPrior":
        """A view without one user's ratings (stories unknown to the community are ignored).

        The community must hold those ratings among its counts; ValueError if a story has fewer votes of a
        kind than the user's own (a community of other readers only: pass it to ``fit`` with
        ``own_votes_included=False`` instead). Copy-on-write: the feature-sized arrays (megabytes) stay
        shared with this prior; the view keeps only the user's own counts on the features their rated
        stories use, and is built on every fit. The global good rate is kept: one reader barely moves it.
        """
        known = [(story.story_id if isinstance(story, StoryFeatures) else story.id, bool(good))
                 for story, good in ratings]
        known = [(story_id, good) for story_id, good in known if story_id in self._story]
        if not known:
            return self
        twin = copy.copy(self)
        twin._own_story = dict(self._own_story)
        for story_id, good in known:
            g, b = twin._own_story.get(story_id, (0, 0))
            twin._own_story[story_id] = (g + 1, b) if good else (g, b + 1)
            if twin._own_story[story_id][not good] > self._story[story_id][not good]:
                raise ValueError(f"story {story_id!r} has fewer {'good' if good else 'bad'} votes than the "
                                 f"user's own: the community does not hold their votes")
        # a feature shared by n of the ratings loses n votes (stories added by with_story_votes never
        # entered the feature counts)
        known = [(story_id, good) for story_id, good in known if story_id in self._features]
        if not known:
            return twin
        rows = [self._features[story_id].indices for story_id, _ in known]
        good = np.repeat([g for _, g in known], [len(r) for r in rows])
        idx, inverse = np.unique(np.concatenate([self._own_idx, *rows]), return_inverse=True)
        twin._own_idx = idx
        twin._own_good = np.bincount(inverse, np.r_[self._own_good, good], minlength=len(idx))
        twin._own_bad = np.bincount(inverse, np.r_[self._own_bad, ~good], minlength=len(idx))
        twin._own_topic = _log_odds(*twin._counts(idx), self.base_rate, self.min_raters).astype(np.float32)
        if self._model is not None:
            twin._model = self._model.excluding(known)
        return twin

    def _counts(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Good and bad votes on the features ``idx`` (sorted), the user's own taken out."""
        good, bad = self._good[idx], self._bad[idx]
        hit, where = self._own_positions(idx)
        good[hit] = np.maximum(good[hit] - self._own_good[where], 0)
        bad[hit] = np.maximum(bad[hit] - self._own_bad[where], 0)
        return good, bad

    def _own_positions(self, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which of ``indices`` carry the user's own votes, and where they are in the _own arrays."""
        where = np.minimum(np.searchsorted(self._own_idx, indices), max(len(self._own_idx) - 1, 0))
        hit = self._own_idx[where] == indices if len(self._own_idx) else np.zeros(len(indices), bool)
        return hit, where[hit]

    def rarity(self, indices: np.ndarray, kind_codes: np.ndarray) -> np.ndarray:
        """How rare each feature (hashed index, of kind ``kind_codes``: indices into features.KINDS) is
        among the community's stories, relative to a typical feature of that kind: its inverse document
        frequency over the kind's root mean square one. About 1 on average over a story's features of a
        kind; above it for a word few stories use, below for one most use."""
        return self._idf[indices] / self._typical_idf[kind_codes]

    def story_log_odds(self, stories) -> np.ndarray:
        """How much more (or less) than usual other readers liked each very story; 0 if too few votes."""
        return self.story_votes(stories)[0]

    def story_votes(self, stories) -> tuple[np.ndarray, np.ndarray]:
        """Each story's ``story_log_odds`` and how many other readers' votes stand behind it (0 where it is 0
        for too few votes)."""
        features = as_features(stories)
        counts = np.array([self._story.get(f.story_id, (0, 0)) for f in features], np.float64).reshape(-1, 2)
        own = np.array([self._own_story.get(f.story_id, (0, 0)) for f in features], np.float64).reshape(-1, 2)
        counts = np.maximum(counts - own, 0)
        votes = counts.sum(axis=1)
        return (_log_odds(counts[:, 0], counts[:, 1], self.base_rate, self.min_raters),
                np.where(votes >= self.min_raters, votes, 0.0))

    def topic_log_odds(self, stories, X: sparse.csr_matrix | None = None) -> np.ndarray:
        """How much other readers like what each story is about (its words, tags, feed...).

        ``X``: the stories' feature matrix, if already built."""
        features = as_features(stories)
        X = matrix(features) if X is None else X
        if self._model is not None:
            return self._model.scores(features, X)
        z = np.asarray(X @ self._topic, dtype=np.float64).ravel()
        if len(self._own_idx):  # the user's own votes: a correction on the features they touched
            delta = np.zeros(DIM, np.float32)
            delta[self._own_idx] = self._own_topic - self._topic[self._own_idx]
            z += X @ delta
        return z

    def feature_log_odds(self, indices: np.ndarray) -> np.ndarray:
        topic = self._topic[indices]
        hit, where = self._own_positions(np.asarray(indices))
        topic[hit] = self._own_topic[where]
        return topic
