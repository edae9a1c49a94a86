"""Stories prepared once for scoring by many users: the feature matrix and the crowd's view of them."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from .community import CommunityPrior
from .features import StoryFeatures, as_features, matrix

# Dense per-story signals beside the hashed features, in this order.
EXTRAS = ("crowd_story", "crowd_topic", "subscribed")


@dataclass(frozen=True)
class Batch:
    features: list[StoryFeatures]
    X: sparse.csr_matrix
    crowd: np.ndarray  # (stories, 2): EXTRAS crowd_story and crowd_topic, zero without a community
    feeds: np.ndarray  # feed id per story, as str

    def __len__(self):
        return len(self.features)

    def extras(self, subscribed: frozenset[str]) -> np.ndarray:
        """The EXTRAS columns for one user."""
        flags = np.isin(self.feeds, list(subscribed)) if subscribed else np.zeros(len(self))
        return np.column_stack([self.crowd, flags.astype(np.float64)])


def prepare(stories, community: CommunityPrior | None = None) -> Batch:
    """Stories (Story or StoryFeatures) ready to be scored by any number of users' models."""
    if isinstance(stories, Batch):
        return stories
    features = as_features(stories)
    X = matrix(features)
    crowd = np.zeros((len(features), 2))
    if community is not None and features:
        crowd[:, 0] = community.story_log_odds(features)
        crowd[:, 1] = community.topic_log_odds(features, X)
    feeds = np.array([f.feed for f in features], dtype=object)
    return Batch(features, X, crowd, feeds)
