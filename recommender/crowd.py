"""The crowd's taste as a fitted model: a logistic regression on every reader's votes, cross-fitted.

Per-feature log-odds (``community.py``) add up the crowd's opinion of each word, tag and feed of a
story as if they were independent, so a story's many correlated features count one opinion many
times. A logistic regression fitted on the votes (each story's good share, weighted by its number
of votes) weighs them jointly. It is fitted once per community snapshot (seconds), not per user,
and kept honest three ways:

- **Cross-fitted**: stories are split into ``folds`` by a hash of their id, and a story with votes
  is scored by the model fitted without its fold, so a story's crowd score never comes from its
  own votes (scores on a user's training stories are not in-sample). A story without votes (a new
  one) is scored by the mean of the fold models.
- **Private**: a feature enters the model only if a story carrying it has at least ``min_raters``
  votes. A reader votes once per story, so that many distinct readers stand behind every weight.
- **Without the user**: ``excluding`` takes a user's own votes out of every fold model by one
  Newton step on the features their rated stories use (the votes' influence), so their own labels
  do not come back to them as "other readers like stories on this subject".
"""
from __future__ import annotations

import itertools
import zlib

import numpy as np
from scipy import sparse
from scipy.special import expit

from . import logistic
from .features import DIM, StoryFeatures, matrix

FOLDS = 5
PENALTY = 1.0  # ridge on every weight; the data term is a sum over hundreds of thousands of votes
# Times PENALTY for the weights of these kinds. What readers in general like is a matter of subjects,
# people and desks; the many words of a text mostly add noise to that view (see docs/recommender.md).
KIND_PENALTY = {"word": 4.0, "title": 4.0}
INTERCEPT_PENALTY = 1e-4
GTOL_PER_VOTE = 1e-6  # the gradient is a sum over votes: stop relative to how many there are
# Taking a user's votes out: in the tests (a user with 5 % of the votes) 18 % of their effect on the
# scores is left after one Newton step, 1.5 % after two, each solved to RTOL of its gradient.
NEWTON_STEPS = 2
RTOL = 0.1
# Features on which the user cast less of the votes keep their weights: the user barely moves them,
# and they make the step expensive (a 500-rating user of a thin community: 9 ms at 0.02, 16 at 0.01).
MIN_SHARE = 0.02


def folds_of(story_ids, folds: int) -> np.ndarray:
    """A story's fold, stable across snapshots and processes (a hash of its id)."""
    return np.fromiter((zlib.crc32(str(i).encode()) % folds for i in story_ids), np.int64, len(story_ids))


def _penalties(features: list[StoryFeatures]) -> np.ndarray:
    """The ridge on each feature index, by the kind of feature the stories hash there."""
    indices = np.concatenate([f.indices for f in features]) if features else np.zeros(0, np.int64)
    kinds = itertools.chain.from_iterable(f.kinds for f in features)
    factors = np.fromiter((KIND_PENALTY.get(kind, 1.0) for kind in kinds), np.float64, len(indices))
    scale = np.ones(DIM)
    scale[indices] = factors
    return PENALTY * scale


def _private_features_dropped(X: sparse.csr_matrix, votes: np.ndarray, min_raters: int) -> sparse.csr_matrix:
    """X without the features no story with at least ``min_raters`` votes carries.

    Only aggregate counts are known, so the distinct readers behind a feature are bounded from
    below by its most-voted story (one vote per reader and story).
    """
    per_entry = np.repeat(votes, np.diff(X.indptr))
    raters = np.zeros(X.shape[1])
    np.maximum.at(raters, X.indices, per_entry)
    X = X.copy()
    X.data[raters[X.indices] < min_raters] = 0
    X.eliminate_zeros()
    return X


class CrowdModel:
    """Fold models of the crowd's taste over the hashed story features (see the module's doc)."""

    def __init__(self, weights, intercepts, base, ids, X, good, votes, logits, penalty):
        self.weights = weights  # (DIM, folds) float32: column k is fitted without fold k's stories
        self._penalty = penalty  # (DIM,) the ridge each weight was fitted with
        self.intercepts = intercepts
        self.base = base  # the crowd's log-odds of a good vote: scores read "more or less than usual"
        self._X, self._by_column = X, X.tocsc()  # (voted stories, DIM), private features dropped
        self._good, self._votes, self._logits = good, votes, logits  # per story; logits per fold and story
        self._feature_votes = np.bincount(X.indices, np.repeat(votes, np.diff(X.indptr)), minlength=DIM)
        self._rows = {story_id: row for row, story_id in enumerate(ids)}
        self._folds = folds_of(ids, weights.shape[1])
        self._own_rows, self._own_labels = np.zeros(0, np.int64), np.zeros(0)  # a user's votes taken out
        self._delta = None  # (features touched, their weight changes (features, folds), intercepts')

    @classmethod
    def fit(cls, features: list[StoryFeatures], good, bad, min_raters: int = 3, folds: int = FOLDS,
            start: "CrowdModel | None" = None) -> "CrowdModel":
        """Fit on per-story vote counts. ``start``: a model of an earlier snapshot with the same
        number of folds; the optimum is the same, only fewer Newton steps are needed."""
        good, bad = np.asarray(good, np.float64), np.asarray(bad, np.float64)
        voted = np.flatnonzero(good + bad > 0)
        features = [features[i] for i in voted]
        good, bad = good[voted], bad[voted]
        votes = good + bad
        X = _private_features_dropped(matrix(features), votes, min_raters)
        rate = np.clip((good.sum() + 1) / (votes.sum() + 2), 0.02, 0.98)
        base = float(np.log(rate / (1 - rate)))
        y = good / np.maximum(votes, 1)
        ids = [f.story_id for f in features]
        story_folds = folds_of(ids, folds)
        columns, inverse = np.unique(X.indices, return_inverse=True)
        penalty = _penalties(features)
        Xc = sparse.csr_matrix((X.data, inverse.astype(np.int32), X.indptr), shape=(len(ids), len(columns)))
        weights = np.zeros((DIM, folds), np.float32)
        intercepts = np.full(folds, base)
        logits = np.zeros((folds, len(ids)))
        for k in range(folds):
            train = story_folds != k
            warm = None if start is None else (start.weights[columns, k].astype(np.float64), start.intercepts[k])
            w, b = logistic.fit(Xc[train], y[train], penalty[columns], np.zeros(len(columns)),
                                base, INTERCEPT_PENALTY, warm, votes[train], GTOL_PER_VOTE * max(votes.sum(), 1))
            weights[columns, k], intercepts[k] = w, b
            logits[k] = Xc @ w + b
        return cls(weights, intercepts, base, ids, X, good, votes, logits, penalty)

    def scores(self, features: list[StoryFeatures], X: sparse.csr_matrix | None = None) -> np.ndarray:
        """Each story's crowd log-odds relative to the crowd's usual rate.

        A story with votes in the snapshot is scored by the fold model fitted without it; a story
        without (a new one) by the mean of the fold models: none of them saw votes on it, and
        together they saw all the votes (in screening runs on seeds 1 and 2 this ranked 0.003-0.011
        better than using one fold's model).
        """
        if not features:
            return np.zeros(0)
        if not self._X.nnz:
            # No feature has min_raters readers behind it, so the fold models are intercepts alone, each fitted
            # without its own fold's votes: a story's score leant against its votes (a bad vote raised it), and a
            # new reader's feed put the one other reader's bad-rated stories first. Such a crowd has no view.
            return np.zeros(len(features))
        X = matrix(features) if X is None else X
        z = np.asarray(X @ self.weights) + self.intercepts  # (stories, folds)
        if self._delta is not None:
            touched, change, intercepts = self._delta
            z += np.asarray(X[:, touched] @ change) + intercepts
        rows = np.array([self._rows.get(f.story_id, -1) for f in features])
        voted = rows >= 0
        out = z.mean(axis=1)
        out[voted] = z[voted, self._folds[rows[voted]]]
        return out - self.base

    def excluding(self, ratings: list[tuple[object, bool]]) -> "CrowdModel":
        """A view with one user's votes taken out of every fold model (ids unknown to it are ignored).

        Approximate (see _influence): it leaves the weights of features on which the user cast
        under MIN_SHARE of the votes as they are, so their echo through those stays.
        """
        known = [(self._rows[story_id], float(good)) for story_id, good in ratings if story_id in self._rows]
        if not known:
            return self
        twin = object.__new__(CrowdModel)
        twin.__dict__.update(self.__dict__)
        twin._own_rows = np.r_[self._own_rows, [row for row, _ in known]].astype(np.int64)
        twin._own_labels = np.r_[self._own_labels, [label for _, label in known]]
        twin._delta = twin._influence()
        return twin

    def _influence(self):
        """Per fold, the fold model refitted without the user's votes: NEWTON_STEPS Newton steps from
        the fitted optimum on the features of their rated stories that carry at least MIN_SHARE of
        their votes from the user (the other weights held: the user barely moves them, and they
        are what makes a step expensive), then one for the intercept given them."""
        rows, labels = self._own_rows, self._own_labels
        own = np.bincount(self._X[rows].indices, minlength=DIM)
        touched = np.flatnonzero(own >= MIN_SHARE * np.maximum(self._feature_votes, 1))
        near = np.unique(self._by_column[:, touched].indices)  # the stories carrying them
        X = self._X[near][:, touched]
        # every story's votes without the user's
        all_good = self._good - np.bincount(rows, labels, minlength=len(self._votes))
        all_votes = self._votes - np.bincount(rows, minlength=len(self._votes))
        good, votes = all_good[near], all_votes[near]
        folds = [k for k in range(self.weights.shape[1]) if (self._folds[rows] != k).any()]
        train = [self._folds[near] != k for k in folds]
        w = [self.weights[touched, k].astype(np.float64) for k in folds]
        penalty = self._penalty[touched]
        z = [self._logits[k, near] for k in folds]
        for _ in range(NEWTON_STEPS if len(touched) else 0):
            p = [expit(zk) for zk in z]
            residual = [(votes * pk - good) * tk for pk, tk in zip(p, train)]
            grads = [np.r_[X.T @ r + penalty * wk, 0.0] for r, wk in zip(residual, w)]
            curvatures = [votes * pk * (1 - pk) * tk for pk, tk in zip(p, train)]
            # the intercept is held here (an immovable penalty): the stories near the user's are
            # not all stories, so they cannot say how it moves
            steps = logistic.newton_steps(X, curvatures, grads, penalty, 1e12, RTOL)
            w = [wk + step[:-1] for wk, step in zip(w, steps)]
            z = [zk + X @ step[:-1] for zk, step in zip(z, steps)]
        change = np.zeros((len(touched), self.weights.shape[1]), np.float32)
        intercepts = np.zeros(self.weights.shape[1])
        for i, k in enumerate(folds):
            change[:, k] = w[i] - self.weights[touched, k]
            logits = self._logits[k].copy()
            logits[near] = z[i]
            intercepts[k] = self._intercept_step(k, logits, all_good, all_votes)
        return touched, change, intercepts

    def _intercept_step(self, k: int, logits: np.ndarray, good: np.ndarray, votes: np.ndarray) -> float:
        """Fold k's intercept change given the stories' new ``logits`` and their votes without the
        user's (``good``, ``votes``): a Newton step over all the fold's stories."""
        p = expit(logits)
        train = self._folds != k
        grad = np.sum((votes * p - good)[train]) + INTERCEPT_PENALTY * (self.intercepts[k] - self.base)
        return -grad / (np.sum((votes * p * (1 - p))[train]) + INTERCEPT_PENALTY)
