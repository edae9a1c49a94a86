"""A reader's model: a linear model over shared story features, with community and feed priors."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np
from scipy.special import expit

from . import explain, storage
from .batch import EXTRAS, Batch, prepare
from .community import CommunityPrior
from .features import DIM
from .rules import Rule, first_match


@dataclass(frozen=True)
class ScoredStory:
    story_id: object
    score: float  # probability that the user rates the story good (before rules)
    recommended: bool  # after rules
    reasons: list[str]  # in words, strongest first; a rule's reason comes first
    rule: Rule | None = None


@dataclass(frozen=True)
class AgreementPoint:
    """How well the model agrees with one stretch of the user's past ratings (oldest first)."""

    first_rating: int  # index into the ratings given to fit()
    ratings: int
    agreement: float  # share of those ratings the model's recommended/not call agrees with
    until: datetime | None  # latest published date in the stretch, when known


@dataclass(frozen=True)
class TasteSummary:
    likes: list[tuple[str, str, float]]  # (kind, label, weight), strongest first
    dislikes: list[tuple[str, str, float]]
    agreement: list[AgreementPoint]
    good_ratings: int
    bad_ratings: int


@dataclass(frozen=True)
class UserModel:
    indices: np.ndarray  # sorted hashed feature indices with a weight
    weights: np.ndarray
    extras: np.ndarray  # weights of EXTRAS
    intercept: float
    threshold: float  # log-odds cut-off for "recommended", chosen for recall
    subscribed: frozenset[str] = frozenset()
    rules: tuple[Rule, ...] = ()
    names: dict[int, tuple[str, str]] = field(default_factory=dict)  # strongest features' names
    agreement: tuple[AgreementPoint, ...] = ()
    good_ratings: int = 0
    bad_ratings: int = 0
    _dense: list = field(default_factory=list, repr=False, compare=False)

    def __getstate__(self):
        """Pickled without the dense weight cache (1 MB, rebuilt on first use)."""
        return {**self.__dict__, "_dense": []}

    # -- scoring -----------------------------------------------------------------------------
    def _weight_vector(self) -> np.ndarray:
        if not self._dense:  # built on first use: scoring is a gather, not a search
            dense = np.zeros(DIM, np.float32)
            dense[self.indices] = self.weights
            self._dense.append(dense)
        return self._dense[0]

    def _logits(self, batch: Batch):
        extra = batch.extras(self.subscribed)
        return batch.X @ self._weight_vector() + extra @ self.extras + self.intercept, extra

    def predict(self, stories, community: CommunityPrior | None = None) -> np.ndarray:
        """Probabilities of a good rating, without rules or reasons: the fast path for ranking.

        ``stories``: Story/StoryFeatures objects, or a ``prepare()``d Batch (which carries its own
        community) when many users score the same stories.
        """
        batch = prepare(stories, community)
        return expit(self._logits(batch)[0]) if len(batch) else np.zeros(0)

    def score(self, stories, community: CommunityPrior | None = None,
              explain_reasons: bool = True) -> list[ScoredStory]:
        """Score, recommend and explain each story, rules applied (``stories`` as for ``predict``).

        Reasons for a batch cost about 1.3 times the scores alone; ``predict`` is the path for scores only.
        """
        batch = prepare(stories, community)
        if not len(batch):
            return []
        z, extra = self._logits(batch)
        probability = expit(z)
        if not self.rules and not explain_reasons:  # the bulk path: no per-story work beyond the object
            return [ScoredStory(f.story_id, float(p), bool(r), [])
                    for f, p, r in zip(batch.features, probability, z >= self.threshold)]
        reasons = self._reasons(batch, extra) if explain_reasons else [[] for _ in batch.features]
        out = []
        for row, f in enumerate(batch.features):
            rule = first_match(self.rules, f) if self.rules else None
            recommended = bool(z[row] >= self.threshold) if rule is None else rule.action == "show"
            why = reasons[row] if rule is None else [rule.explain()] + reasons[row]
            out.append(ScoredStory(f.story_id, float(probability[row]), recommended, why, rule))
        return out

    def _reasons(self, batch: Batch, extra: np.ndarray) -> list[list[str]]:
        """Each story's reasons. Contributions too small to be a reason (most of a story's hundred-odd
        features) are dropped for the whole batch at once: per-story work is what costs here."""
        X = batch.X
        contributions = X.data * self._weight_vector()[X.indices]
        strong = np.flatnonzero(np.abs(contributions) >= explain.MIN_CONTRIBUTION)
        bounds = np.searchsorted(strong, X.indptr)  # row r's are strong[bounds[r]:bounds[r + 1]]
        # each strong entry's position within its story's features (kinds and labels are per story)
        local = (strong - np.repeat(X.indptr[:-1], np.diff(bounds))).tolist()
        values, bounds = contributions[strong].tolist(), bounds.tolist()
        # "from a feed you chose" would be true of nearly every story shown: no reason; the subject's
        # weight once a story has votes is part of one reason, the crowd's view of its subject
        shown = [EXTRAS.index("crowd_story"), EXTRAS.index("crowd_topic")]
        parts = extra * self.extras
        parts[:, shown[1]] += parts[:, EXTRAS.index("crowd_topic_voted")]
        crowd = parts[:, shown].tolist()
        out = []
        for row, f in enumerate(batch.features):
            listed = [(values[i], f.kinds[local[i]], f.label(local[i])) for i in range(bounds[row], bounds[row + 1])]
            listed += [(value, EXTRAS[j], "") for j, value in zip(shown, crowd[row])]
            out.append(explain.reasons(listed))
        return out

    # -- teaching ----------------------------------------------------------------------------
    def teach_me(self, stories, k: int = 5, community: CommunityPrior | None = None) -> list:
        """Ids of up to ``k`` unrated stories whose rating would teach the model most.

        Uncertain stories (probability near ½) about things the model has not learnt yet come first;
        near-duplicates of an already chosen story are skipped so each answer teaches something new.
        """
        batch = prepare(stories, community)
        if not len(batch):
            return []
        X = batch.X
        p = expit(self._logits(batch)[0])
        known = X.copy()
        known.data = known.data ** 2
        mass = np.asarray(known.sum(axis=1)).ravel()
        known.data = known.data * (self._weight_vector()[known.indices] != 0)
        novelty = 1 - np.asarray(known.sum(axis=1)).ravel() / np.maximum(mass, 1e-9)
        gain = p * (1 - p) * (1 + novelty)
        norms = np.sqrt(np.maximum(mass, 1e-12))
        chosen: list[int] = []
        for row in np.argsort(-gain, kind="stable"):
            if len(chosen) == k:
                break
            if chosen:
                sims = (X[chosen] @ X[row].T).toarray().ravel() / (norms[chosen] * norms[row])
                if sims.max() > 0.6:
                    continue
            chosen.append(int(row))
        return [batch.features[row].story_id for row in chosen]

    # -- summary -----------------------------------------------------------------------------
    def taste(self, limit: int = 10) -> TasteSummary:
        """Strongest features both ways, and agreement with past ratings over time."""
        named = [(kind, label, float(self.weights[np.searchsorted(self.indices, i)]))
                 for i, (kind, label) in self.names.items()]
        likes = sorted((n for n in named if n[2] > 0), key=lambda n: -n[2])[:limit]
        dislikes = sorted((n for n in named if n[2] < 0), key=lambda n: n[2])[:limit]
        return TasteSummary(likes, dislikes, list(self.agreement), self.good_ratings, self.bad_ratings)

    def with_rules(self, rules) -> "UserModel":
        """The same model under another set of rules (no refit needed)."""
        return replace(self, rules=tuple(rules), _dense=list(self._dense))

    def to_bytes(self) -> bytes:
        """Compact, versioned and checksummed; at most storage.MAX_BYTES (50 KB)."""
        return storage.dump({
            "indices": self.indices, "weights": self.weights, "extras": self.extras,
            "intercept": self.intercept, "threshold": self.threshold,
            "subscribed": sorted(self.subscribed),
            "rules": [[r.kind, r.value, r.action] for r in self.rules],
            "names": [[int(i), kind, label] for i, (kind, label) in self.names.items()],
            "agreement": [[a.first_rating, a.ratings, a.agreement, a.until.isoformat() if a.until else None]
                          for a in self.agreement],
            "good": self.good_ratings, "bad": self.bad_ratings,
        })

    @classmethod
    def from_bytes(cls, data: bytes) -> "UserModel":
        """Raises ``storage.ModelError`` (a ValueError) on corrupt data or another format version;
        the caller then refits from the user's ratings, which stay the source of truth."""
        doc = storage.load(data)
        if doc["extras"].shape != (len(EXTRAS),):
            raise storage.ModelError(f"stored model is corrupt: {doc['extras'].shape[0]} extra weights")
        try:
            return cls(
                indices=doc["indices"], weights=doc["weights"], extras=doc["extras"],
                intercept=float(doc["intercept"]), threshold=float(doc["threshold"]),
                subscribed=frozenset(doc["subscribed"]),
                rules=tuple(Rule(*r) for r in doc["rules"]),
                names={int(i): (kind, label) for i, kind, label in doc["names"]},
                agreement=tuple(AgreementPoint(f, n, a, datetime.fromisoformat(u) if u else None)
                                for f, n, a, u in doc["agreement"]),
                good_ratings=int(doc["good"]), bad_ratings=int(doc["bad"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise storage.ModelError(f"stored model is corrupt: {exc}") from exc
