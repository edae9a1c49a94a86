"""Stories prepared once for scoring by many users: the feature matrix and the crowd's view of them."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from .community import CommunityPrior
from .community import SMOOTHING
from .features import StoryFeatures, as_features, matrix

# Dense per-story signals beside the hashed features, in this order. "crowd_topic_voted" is the crowd's view
# of the subject again, times the share n/(n + SMOOTHING) the story's own n votes have in its crowd_story
# log-odds: its weight is how much more or less the subject counts once the story carries votes.
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

    def voted_share(self) -> np.ndarray:
        """n/(n + SMOOTHING) per story, n its votes: how far crowd_story rests on the story's own votes."""
        votes = np.zeros(len(self)) if self.votes is None else self.votes
        return votes / (votes + SMOOTHING)

    def extras(self, subscribed: frozenset[str], new: bool = False) -> np.ndarray:
        """The EXTRAS columns for one user; ``new``: as the stories were before anyone voted on them."""
        flags = np.isin(self.feeds, list(subscribed)) if subscribed else np.zeros(len(self))
        story, topic = self.crowd[:, 0], self.crowd[:, 1]
        if new:
            return np.column_stack([np.zeros(len(self)), topic, np.zeros(len(self)), flags.astype(np.float64)])
        return np.column_stack([story, topic, topic * self.voted_share(), flags.astype(np.float64)])


def prepare(stories, community: CommunityPrior | None = None) -> Batch:
    """Stories (Story or StoryFeatures) ready to be scored by any number of users' models."""
    if isinstance(stories, Batch):
        return stories
    features = as_features(stories)
    X = matrix(features)
    crowd = np.zeros((len(features), 2))
    votes = None
    if community is not None and features:
        crowd[:, 0] = community.story_log_odds(features)
        crowd[:, 1] = community.topic_log_odds(features, X)
        votes = community.story_votes(features)
    feeds = np.array([f.feed for f in features], dtype=object)
    return Batch(features, X, crowd, feeds, votes)
