"""Stories prepared once for scoring by many users: the feature matrix and the crowd's view of them."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from .community import CommunityPrior
from .features import StoryFeatures, as_features, matrix

# Dense per-story signals beside the hashed features, in this order. "crowd_topic_voted" is the crowd's view
# of the subject again on stories with other readers' votes (0 on new ones): with it, crowd_topic's weight
# is the subject's for a new story and the two weights' sum is the subject's once a story has votes.
EXTRAS = ("crowd_story", "crowd_topic", "crowd_topic_voted", "subscribed")


@dataclass(frozen=True)
class Batch:
    features: list[StoryFeatures]
    X: sparse.csr_matrix
    crowd: np.ndarray  # (stories, 2): EXTRAS crowd_story and crowd_topic, zero without a community
    feeds: np.ndarray  # feed id per story, as str
    votes: np.ndarray | None = None  # other readers' votes behind crowd_story per story (None: none)

    def __len__(self):
        return len(self.features)

    def voted(self) -> np.ndarray:
        """1 for a story with other readers' votes behind crowd_story, else 0."""
        return np.zeros(len(self)) if self.votes is None else (self.votes > 0).astype(np.float64)

    def extras(self, subscribed: frozenset[str], new: bool = False) -> np.ndarray:
        """The EXTRAS columns for one user; ``new``: as the stories were before anyone voted on them."""
        flags = np.isin(self.feeds, list(subscribed)) if subscribed else np.zeros(len(self))
        story, topic = self.crowd[:, 0], self.crowd[:, 1]
        if new:
            return np.column_stack([np.zeros(len(self)), topic, np.zeros(len(self)), flags.astype(np.float64)])
        return np.column_stack([story, topic, topic * self.voted(), flags.astype(np.float64)])


def prepare(stories, community: CommunityPrior | None = None) -> Batch:
    """Stories (Story or StoryFeatures) ready to be scored by any number of users' models."""
    if isinstance(stories, Batch):
        return stories
    features = as_features(stories)
    X = matrix(features)
    crowd = np.zeros((len(features), 2))
    votes = None
    if community is not None and features:
        crowd[:, 0], votes = community.story_votes(features)
        crowd[:, 1] = community.topic_log_odds(features, X)
    feeds = np.array([f.feed for f in features], dtype=object)
    return Batch(features, X, crowd, feeds, votes)
