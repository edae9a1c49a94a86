"""Fitting a reader's model from their ratings, with priors for when ratings are few."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from scipy import sparse
from scipy.special import expit

from . import explain, implicit, logistic
from .batch import prepare
from .community import CommunityPrior
from .features import KINDS, StoryFeatures, as_features
from .model import AgreementPoint, UserModel
from .rules import Rule
from .story import as_utc, clean_text

# Ridge strength on feature weights: with a handful of ratings no single word may dominate.
FEATURE_PENALTY = 1.0
# Priors on the dense signals (batch.EXTRAS): follow the crowd and one's own feed choices unless ratings
# disagree. crowd_topic_voted is not fitted with them: its column is zero in the fit (see _new_story_topic).
EXTRA_PRIOR = np.array([0.7, 0.7, 0.0, 1.0])
EXTRA_PENALTY = np.array([3.0, 3.0, 3.0, 3.0])
TOPIC, VOTED = 1, 2  # positions of crowd_topic and crowd_topic_voted in EXTRAS
INTERCEPT_PENALTY = 0.1
# Share of good stories the "recommended" cut-off aims to keep.
TARGET_RECALL = 0.8
# Above this many ratings the cut-off comes from in-sample scores (optimism is small by then,
# and cross-validation would cost the retrain budget).
CROSS_VALIDATE_UP_TO = 200
FOLDS = 5
MAX_WEIGHTS = 4000
NAMES_KEPT = 30
AGREEMENT_POINTS = 10
# Kinds of features scaled by their rarity among the community's stories (see _rarity_scaled): those with
# many values of unequal specificity. Tags, feed, author and site name a story's subject or source outright.
RARITY_KINDS = ("word", "title", "name")


def _design(batch, subscribed):
    """Ratings' features with columns renumbered to those in use, each column's kind (as an index into
    features.KINDS; one entry's where a hash collision mixes kinds), plus the EXTRAS columns twice: the stories
    as rated (crowd_topic_voted zeroed, fitted apart: see _new_story_topic), and as they were before any votes."""
    X = batch.X
    columns, inverse = np.unique(X.indices, return_inverse=True)
    Xc = sparse.csr_matrix((X.data, inverse.astype(np.int32), X.indptr), shape=(X.shape[0], len(columns)))
    kinds = np.zeros(len(columns), np.int8)
    if len(batch):
        kinds[inverse] = np.concatenate([f.kind_codes for f in batch.features])
    extra = batch.extras(subscribed)
    extra[:, VOTED] = 0
    return columns, kinds, Xc, extra, batch.extras(subscribed, new=True)


def _rarity_scaled(Xc, columns, kinds, community):
    """Xc with each column scaled by how rare its feature is among the community's stories, and the scales.

    A word used by few stories says more about what a story is about than one used by most (as in TF-IDF):
    fitted on scaled columns, a rare feature costs less ridge for the same effect, so with many ratings
    the weights follow the specific words and names that set the liked stories apart. The scales average
    about 1 over a typical story's features, so the ridge's overall strength, set for few ratings, stays.
    They fold back into the weights (w·scale), so the model scores the stories' own features.
    """
    scale = np.ones(len(columns))
    if community is None:
        return Xc, scale
    scaled_kinds = np.isin(kinds, [KINDS.index(kind) for kind in RARITY_KINDS])
    scale[scaled_kinds] = community.rarity(columns[scaled_kinds], kinds[scaled_kinds])
    return sparse.csr_matrix((Xc.data * scale[Xc.indices], Xc.indices, Xc.indptr), shape=Xc.shape), scale


def _solve(Xc, extra, y, intercept_prior, start=None, weight=None):
    """Weights (per Xc column), extras' weights and intercept; ``start`` as returned by an earlier call;
    ``weight``: per row, 1 for a rating (None: all ratings)."""
    merged, expand, compress = _merge_private_columns(Xc)
    penalty = np.concatenate([np.full(merged.shape[1], FEATURE_PENALTY), EXTRA_PENALTY])
    prior = np.concatenate([np.zeros(merged.shape[1]), EXTRA_PRIOR])
    if start is not None:
        start = (np.concatenate([compress(start[0]), start[1]]), start[2])
    design = sparse.hstack([merged, sparse.csr_matrix(extra)], format="csr")
    w, b = logistic.fit(design, y, penalty, prior, intercept_prior, INTERCEPT_PENALTY, start, weight)
    return expand(w[:merged.shape[1]]), w[merged.shape[1]:], b


def _new_story_topic(Xc, new, y, weight, fitted):
    """The extras' weights with crowd_topic's weight for new stories and crowd_topic_voted's for the rest.

    The joint fit sees the rated stories as rated, with other readers' votes, so its crowd_topic weight is
    the subject's given the votes. A new story has none: its crowd_topic weight is fitted here on the rated
    stories as they were before any votes (``new``: crowd_story 0), the rest of the model held as fitted,
    with crowd_topic's prior; crowd_topic_voted takes the difference, so stories with votes score as before.
    """
    w, e, b = fitted
    topic = new[:, TOPIC]
    offset = Xc @ w + np.delete(new, TOPIC, axis=1) @ np.delete(e, TOPIC) + b
    beta, prior, penalty = EXTRA_PRIOR[TOPIC], EXTRA_PRIOR[TOPIC], EXTRA_PENALTY[TOPIC]
    for _ in range(20):  # Newton on one weight (convex): a handful of steps
        p = expit(offset + beta * topic)
        grad = np.dot(weight * (p - y), topic) + penalty * (beta - prior)
        step = grad / (np.dot(weight * p * (1 - p), topic ** 2) + penalty)
        beta -= step
        if abs(step) < 1e-8:
            break
    e = e.copy()
    e[TOPIC], e[VOTED] = beta, e[TOPIC] - beta
    return e


def _merge_private_columns(Xc):
    """Columns that only one rated story uses, merged into one column per story: an exact shortcut.

    Such columns share a zero prior and one ridge strength, so at the optimum a story's private
    weights are proportional to its values there (w_j = u·x_j/s, s the values' norm): one column of
    value s per story, with weight u, fits the same model. At 500 ratings about 60 % of the columns
    (words, names) are private, so the solver's vectors shrink about 2.4 times and its products by
    a fifth. Returns the merged matrix and the maps from its weights to Xc's columns and back.
    """
    n, m = Xc.shape
    rows = np.repeat(np.arange(n), np.diff(Xc.indptr))
    private = np.bincount(Xc.indices, minlength=m)[Xc.indices] == 1
    shared = ~private
    shared_columns = np.flatnonzero(np.bincount(Xc.indices[shared], minlength=m))
    renumber = np.zeros(m, np.int32)
    renumber[shared_columns] = np.arange(len(shared_columns), dtype=np.int32)
    norms = np.sqrt(np.bincount(rows[private], Xc.data[private].astype(np.float64) ** 2, minlength=n))
    # CSR built in place: each row keeps its shared entries in order, then its merged column
    indptr = np.r_[0, np.cumsum(np.bincount(rows[shared], minlength=n) + 1)]
    at = np.cumsum(shared)[shared] - 1 + rows[shared]
    data, indices = np.empty(indptr[-1]), np.empty(indptr[-1], np.int32)
    data[at], indices[at] = Xc.data[shared], renumber[Xc.indices[shared]]
    data[indptr[1:] - 1], indices[indptr[1:] - 1] = norms, len(shared_columns) + np.arange(n)
    merged = sparse.csr_matrix((data, indices, indptr), shape=(n, len(shared_columns) + n))

    def expand(u):
        w = np.zeros(m)
        w[shared_columns] = u[:len(shared_columns)]
        story = rows[private]
        w[Xc.indices[private]] = u[len(shared_columns) + story] * Xc.data[private] / norms[story]
        return w

    def compress(w):  # expand's inverse for weights of that form (an optimum, e.g. on more rows)
        along = np.bincount(rows[private], Xc.data[private] * w[Xc.indices[private]], minlength=n)
        return np.r_[w[shared_columns], along / np.where(norms > 0, norms, 1)]
    return merged, expand, compress


def _recall_cutoff(Xc, extra, y, weight, rated, logits, intercept_prior, fitted) -> float:
    """Log-odds cut-off that keeps TARGET_RECALL of good stories, judged on held-out scores.

    In-sample scores of a handful of ratings are far too sure of themselves: a cut-off set on them
    hides most good stories. Up to CROSS_VALIDATE_UP_TO ratings each rating is scored by a model
    that did not see it (leave-one-out for very few, else FOLDS folds), each started from the
    ``fitted`` model on all ratings, which is close to it (about a third fewer Hessian products).
    The first ``rated`` rows are the ratings; the rest are implicit signals, which every fold trains
    on and none is judged on (they are not what the reader would rate).
    """
    if not y[:rated].any():
        # No liked story to set a recall on: recommend only what some evidence beyond the feed choice (the
        # crowd, or features the user rated bad) pushes above a subscribed story's neutral score by at
        # least a reason's worth, so a new reader's feed is not "recommended" wholesale.
        w, e, b = fitted
        return float(b + e[-1] + explain.MIN_CONTRIBUTION)
    if rated <= CROSS_VALIDATE_UP_TO:
        folds = np.r_[np.arange(rated) % min(rated, FOLDS), np.full(len(y) - rated, -1)]
        held_out = np.empty(rated)
        for k in np.unique(folds[:rated]):
            train, test = folds != k, folds == k
            w, e, b = _solve(Xc[train], extra[train], y[train], intercept_prior, fitted, weight[train])
            held_out[test[:rated]] = Xc[test] @ w + extra[test] @ e + b
        logits = held_out
    return float(np.quantile(logits[:rated][y[:rated] == 1], 1 - TARGET_RECALL))


def _agreement(features, y, logits, threshold) -> tuple[AgreementPoint, ...]:
    if not len(y):
        return ()
    agree = (logits >= threshold) == (y == 1)
    points = []
    for chunk in np.array_split(np.arange(len(y)), min(AGREEMENT_POINTS, len(y))):
        dates = [features[i].published for i in chunk if getattr(features[i], "published", None)]
        points.append(AgreementPoint(int(chunk[0]), len(chunk), float(agree[chunk].mean()),
                                     max(dates, key=as_utc) if dates else None))
    return tuple(points)


def fit(ratings: Iterable[tuple[object, bool]], subscribed_feeds: Iterable = (),
        community: CommunityPrior | None = None, rules: Iterable[Rule] = (),
        own_votes_included: bool = True, signals: Iterable[tuple[object, str]] = ()) -> UserModel:
    """Fit a user's model.

    ``ratings``: (Story or StoryFeatures, good) pairs, oldest first; any number, including none or
    only one class. ``subscribed_feeds``: feed ids the user subscribes to. ``community``: aggregate
    votes of all readers; the user's own votes in it are removed here, or, with ``own_votes_included=False``,
    it holds other readers' votes only and is used as it is. ``signals``: (story, kind) implicit signals
    (``implicit.OPENED``, ``READ``, ``SAVED``, ``SKIPPED``), each a weak label weighed well below a
    rating (``implicit.WEIGHTS``); signals on rated stories are ignored. They are no votes: the
    community never holds them.
    """
    ratings = [(story, bool(good)) for story, good in ratings]
    weak = implicit.weak_labels(signals, {implicit.story_id(story) for story, _ in ratings})
    stories = [story for story, _ in ratings] + [story for story, _, _ in weak]
    features = as_features(stories)
    subscribed = frozenset(clean_text(str(f)) for f in subscribed_feeds)  # as featurize reads a story's feed
    if community is not None and own_votes_included:
        community = community.excluding(ratings)
    rated = len(ratings)
    y = np.array([good for _, good in ratings] + [good for _, good, _ in weak], dtype=np.float64)
    weight = np.r_[np.ones(rated), [w for _, _, w in weak]]
    base = community.base_rate if community is not None else 0.5
    intercept_prior = float(np.log(base / (1 - base)))
    batch = prepare(features, community)
    columns, kinds, Xc, extra, new = _design(batch, subscribed)
    Xc, scale = _rarity_scaled(Xc, columns, kinds, community)
    w, e, b = _solve(Xc, extra, y, intercept_prior, weight=weight if weak else None)
    logits = Xc @ w + extra @ e + b
    threshold = _recall_cutoff(Xc, extra, y, weight, rated, logits, intercept_prior, (w, e, b))
    e = _new_story_topic(Xc, new, y, weight, (w, e, b))
    w = w * scale  # weights of the stories' own feature values
    keep = np.sort(_strongest(np.abs(w), MAX_WEIGHTS))
    keep = keep[w[keep] != 0]
    names = _names(features, batch.X, columns, w)
    y, logits = y[:rated], logits[:rated]
    return UserModel(
        indices=columns[keep].astype(np.int32), weights=w[keep].astype(np.float32), extras=e,
        intercept=b, threshold=threshold, subscribed=subscribed, rules=tuple(rules), names=names,
        agreement=_agreement(stories, y, logits, threshold),
        good_ratings=int(y.sum()), bad_ratings=int(len(y) - y.sum()),
    )


def _strongest(values: np.ndarray, n: int) -> np.ndarray:
    """Positions of the n largest values, in no particular order."""
    return np.arange(len(values)) if len(values) <= n else np.argpartition(-values, n)[:n]


def _names(features: list[StoryFeatures], X, columns: np.ndarray, w: np.ndarray) -> dict[int, tuple[str, str]]:
    """Names of the strongest features both ways, for the taste summary."""
    positive, negative = _strongest(w, NAMES_KEPT), _strongest(-w, NAMES_KEPT)
    wanted = columns[np.r_[positive[w[positive] > 0], negative[w[negative] < 0]]]
    # first occurrence of each wanted index in the stacked features -> (story row, position in story)
    hits = np.flatnonzero(np.isin(X.indices, wanted))
    names = {}
    for hit in hits:
        index = int(X.indices[hit])
        if index not in names:
            row = int(np.searchsorted(X.indptr, hit, side="right") - 1)
            names[index] = (features[row].kinds[hit - X.indptr[row]], features[row].label(hit - X.indptr[row]))
    return names
