"""Readers who agree with you: what they like, per feature, as one more signal for your model.

A reader's ratings pick out the other readers who rated the same stories the same way (weighted
by net agreement). What those readers rated good and bad on *other* stories, summed per feature as
smoothed log-odds, says what a reader with this taste likes, including things the reader has not
rated yet. It works on new stories nobody has rated, through their features.

Privacy: readers are opaque keys and only a weighted sum over at least ``min_raters`` agreeing
readers leaves this module; the reader's own ballots never count, and the neighbours' votes on the
stories that chose them are left out so a reader's own labels do not echo back.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from scipy import sparse

from .features import DIM

# Pseudo-votes pulling thin neighbour counts toward the neighbours' overall good rate.
SMOOTHING = 4.0


class Ballots:
    """Who rated what: ``(reader, story_id, good)`` for stories listed in ``rows`` (story_id -> row
    of ``presence``, a stories x DIM 0/1 matrix of which features each story has)."""

    def __init__(self, ballots: Iterable[tuple[object, object, bool]], rows: dict, presence: sparse.csr_matrix,
                 min_raters: int = 3):
        ballots = [(reader, rows[story_id], bool(good)) for reader, story_id, good in ballots if story_id in rows]
        self.readers = {reader: n for n, reader in enumerate(dict.fromkeys(r for r, _, _ in ballots))}
        self.rows, self.presence, self.min_raters = rows, presence, min_raters
        who = np.array([self.readers[r] for r, _, _ in ballots], np.int64)
        what = np.array([s for _, s, _ in ballots], np.int64)
        sign = np.array([1.0 if g else -1.0 for _, _, g in ballots])
        self.votes = sparse.csr_matrix((sign, (who, what)), shape=(len(self.readers), presence.shape[0]))
        self.votes.sum_duplicates()
        self.votes.data = np.sign(self.votes.data)  # a reader counts once per story

    def log_odds(self, ratings: list[tuple[object, bool]], reader=None) -> np.ndarray | None:
        """Per-feature log-odds of the agreeing readers' other votes, or None when fewer than
        ``min_raters`` readers agree with ``ratings`` (story_id, good) on balance."""
        mine = [(self.rows[story_id], good) for story_id, good in ratings if story_id in self.rows]
        if not mine or not self.readers:
            return None
        columns = np.array([row for row, _ in mine])
        signs = np.array([1.0 if good else -1.0 for _, good in mine])
        agreement = self.votes[:, columns] @ signs
        if reader in self.readers:
            agreement[self.readers[reader]] = 0.0  # one's own ballots never count
        weights = np.maximum(agreement, 0.0)
        if np.count_nonzero(weights) < self.min_raters:
            return None
        good = self.votes.maximum(0).T @ weights
        bad = (-self.votes).maximum(0).T @ weights
        good[columns] = bad[columns] = 0.0  # the votes that chose the neighbours would echo the reader's labels
        if not good.sum() or not bad.sum():
            return None
        base = good.sum() / (good.sum() + bad.sum())
        good_f, bad_f = self.presence.T @ good, self.presence.T @ bad
        odds = np.log((good_f + SMOOTHING * base) / (bad_f + SMOOTHING * (1 - base))) - np.log(base / (1 - base))
        return odds.astype(np.float32)
