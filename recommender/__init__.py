"""Per-user story recommender: plain Python (numpy/scipy/scikit-learn), no Django.

    >>> from recommender import Story, fit, CommunityPrior, Rule
    >>> model = fit([(story, True), (other, False)], subscribed_feeds=["energy"])
    >>> model.score([new_story])[0].reasons

See docs/recommender.md for the full API.
"""
from .batch import Batch, prepare
from .community import CommunityPrior
from .crowd import CrowdModel
from .implicit import OPENED, READ, SAVED, SKIPPED
from .features import FEATURE_VERSION, FeatureError, StoryFeatures, featurize
from .model import AgreementPoint, ScoredStory, TasteSummary, UserModel
from .rules import HIDE, SHOW, Rule
from .storage import ModelError
from .story import Story
from .training import fit

__all__ = [
    "AgreementPoint", "Batch", "CommunityPrior", "CrowdModel", "FEATURE_VERSION", "FeatureError", "HIDE", "ModelError", "OPENED", "READ", "Rule",
    "SAVED", "SHOW", "SKIPPED", "ScoredStory", "Story", "StoryFeatures", "TasteSummary", "UserModel", "featurize", "fit", "prepare",
]
