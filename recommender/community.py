"""Community priors: what other readers rated good, per story and per feature.

Built from aggregate vote counts only (never who voted), and a count is used only once at least
``min_raters`` votes stand behind it, so no single reader's ratings show through in another's view.
``fit`` removes the user's own votes (``excluding``) so a model never learns its own labels back
from the crowd.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from scipy import sparse

from .features import DIM, StoryFeatures, as_features

# Pseudo-votes pulling thin counts toward the global rate.
SMOOTHING = 4.0


def _log_odds(good, bad, base: float, min_votes: int):
    good, bad = np.asarray(good, np.float64), np.asarray(bad, np.float64)
    odds = np.log((good + SMOOTHING * base) / (bad + SMOOTHING * (1 - base))) - np.log(base / (1 - base))
    return np.where(good + bad >= min_votes, odds, 0.0)


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
        if (good < 0).any() or (bad < 0).any():
            raise ValueError("community vote counts must be non-negative")
        self._story = {f.story_id: (g, b) for f, g, b in zip(features, good, bad)}
        self._features = {f.story_id: f for f in features}
        # each story adds its votes to every feature it has, in one pass over all stories
        indices = np.concatenate([f.indices for f in features]) if features else np.zeros(0, np.int64)
        lengths = [len(f.indices) for f in features]
        self._good = np.bincount(indices, np.repeat(good, lengths), minlength=DIM)
        self._bad = np.bincount(indices, np.repeat(bad, lengths), minlength=DIM)
        self._refresh()

    def _refresh(self):
        total_good = sum(g for g, _ in self._story.values())
        total = total_good + sum(b for _, b in self._story.values())
        self.base_rate = float(np.clip((total_good + 1) / (total + 2), 0.02, 0.98))
        self._topic = _log_odds(self._good, self._bad, self.base_rate, self.min_raters).astype(np.float32)

    def excluding(self, ratings: Iterable[tuple[object, bool]]) -> "CommunityPrior":
        """A copy without one user's ratings (stories unknown to the community are ignored).

        The global good rate is kept: one reader barely moves it, and only the touched features
        need recomputing, which keeps this cheap enough to run on every fit.
        """
        twin = object.__new__(CommunityPrior)
        twin.min_raters, twin.base_rate, twin._features = self.min_raters, self.base_rate, self._features
        twin._story = dict(self._story)
        twin._good, twin._bad, twin._topic = self._good.copy(), self._bad.copy(), self._topic.copy()
        known = [(story.story_id if isinstance(story, StoryFeatures) else story.id, bool(good))
                 for story, good in ratings]
        known = [(story_id, good) for story_id, good in known if story_id in twin._story]
        for good in (True, False):
            ids = [story_id for story_id, g in known if g == good]
            if not ids:
                continue
            for story_id in ids:
                g, b = twin._story[story_id]
                twin._story[story_id] = (max(g - 1, 0), b) if good else (g, max(b - 1, 0))
            # one vectorised update: a feature shared by n of the ratings loses n votes
            idx, counts = np.unique(np.concatenate([twin._features[i].indices for i in ids]), return_counts=True)
            target = twin._good if good else twin._bad
            target[idx] = np.maximum(target[idx] - counts, 0)
        if known:
            idx = np.unique(np.concatenate([twin._features[story_id].indices for story_id, _ in known]))
            twin._topic[idx] = _log_odds(twin._good[idx], twin._bad[idx], twin.base_rate, twin.min_raters)
        return twin

    def story_log_odds(self, stories) -> np.ndarray:
        """How much more (or less) than usual other readers liked each very story; 0 if too few votes."""
        features = as_features(stories)
        counts = np.array([self._story.get(f.story_id, (0, 0)) for f in features], np.float64).reshape(-1, 2)
        return _log_odds(counts[:, 0], counts[:, 1], self.base_rate, self.min_raters)

    def topic_log_odds(self, X: sparse.csr_matrix) -> np.ndarray:
        """How much other readers like what each story is about (its words, tags, feed...)."""
        return np.asarray(X @ self._topic, dtype=np.float64).ravel()

    def feature_log_odds(self, indices: np.ndarray) -> np.ndarray:
        return self._topic[indices]
