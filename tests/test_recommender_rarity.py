"""A feature few of the community's stories use is cheaper for a reader's model to lean on than a common one."""
import pickle

import numpy as np

from recommender import CommunityPrior, Story, fit
from recommender.features import KINDS, feature_index

WORD, FEED = KINDS.index("word"), KINDS.index("feed")


def _story(i, text, feed="desk"):
    return Story(id=i, title="", text=text, feed=feed)


def _weights(model):
    return dict(zip(model.indices.tolist(), model.weights.tolist()))


def _community(extra_common=60):
    """Stories that mostly say "harbour"; "glacier" is in two of them."""
    stories = [_story(1000 + i, f"harbour report number{i}") for i in range(extra_common)]
    stories += [_story(2000, "glacier melt"), _story(2001, "glacier survey")]
    return CommunityPrior([(s, 2, 2) for s in stories])


def test_rarity_is_above_one_for_rare_features_and_below_for_common_ones():
    community = _community()
    rare, common, everywhere = (feature_index("word", "glacier"), feature_index("word", "harbour"),
                                feature_index("feed", "desk"))
    r = community.rarity(np.array([rare, common, everywhere]), np.array([WORD, WORD, FEED]))
    assert r[0] > 1 > r[1]
    assert r[0] > 2 * r[1]
    assert r[2] == 1  # the only feed value: as typical of its kind as can be


def test_same_evidence_weighs_more_on_a_rare_word_than_on_a_common_one():
    """(Tags, feed, author and site are not scaled: training.RARITY_KINDS.)"""
    community = _community()
    # symmetric ratings: one liked story per word, one disliked story with neither
    ratings = [(_story(1, "glacier"), True), (_story(2, "harbour"), True),
               (_story(3, "tariff"), False), (_story(4, "quota"), False)]
    weights = _weights(fit(ratings, community=community, own_votes_included=False))
    assert weights[feature_index("word", "glacier")] > 1.5 * weights[feature_index("word", "harbour")] > 0
    # without a community there is no corpus to count: the two words weigh the same
    weights = _weights(fit(ratings))
    assert np.isclose(weights[feature_index("word", "glacier")], weights[feature_index("word", "harbour")])


def test_a_prior_pickled_before_document_frequencies_reads_every_feature_as_typical():
    community = _community()
    state = dict(community.__dict__)
    del state["_idf"], state["_typical_idf"]
    old = CommunityPrior.__new__(CommunityPrior)
    old.__setstate__(state)
    glacier = np.array([feature_index("word", "glacier")])
    assert np.allclose(old.rarity(glacier, np.array([WORD])), 1.0)
    assert pickle.loads(pickle.dumps(community)).rarity(glacier, np.array([WORD])) == community.rarity(
        glacier, np.array([WORD])) > 1
    fit([(_story(1, "glacier"), True), (_story(3, "tariff"), False)], community=old, own_votes_included=False)


def test_tags_are_not_scaled_by_rarity():
    stories = [Story(id=1000 + i, title="", text=f"filler{i}", feed="desk", tags=["common"]) for i in range(60)]
    stories.append(Story(id=2000, title="", text="filler", feed="desk", tags=["rare"]))
    community = CommunityPrior([(s, 2, 2) for s in stories])
    ratings = [(Story(id=1, feed="desk", tags=["rare"]), True), (Story(id=2, feed="desk", tags=["common"]), True),
               (Story(id=3, feed="desk", tags=["other"]), False), (Story(id=4, feed="desk", tags=["more"]), False)]
    weights = _weights(fit(ratings, community=community, own_votes_included=False))
    assert np.isclose(weights[feature_index("tag", "rare")], weights[feature_index("tag", "common")])
