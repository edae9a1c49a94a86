"""Removing a reader's own votes from the crowd: every vote counts once, in any order or grouping."""
import numpy as np

from recommender import CommunityPrior, Story, featurize


def story(i, tags):
    return Story(id=i, title=f"story {i}", text="crude oil output quotas", feed="energy", tags=list(tags))


STORIES = [story(i, tags) for i, tags in enumerate([("oil",), ("oil", "opec"), ("gas",), ("oil", "gas")])]
VOTES = CommunityPrior([(s, 6, 4) for s in STORIES])
MINE = [(STORIES[0], True), (STORIES[1], True), (STORIES[2], False), (STORIES[3], True), (STORIES[3], False)]
X_INDICES = np.unique(np.concatenate([featurize(s).indices for s in STORIES]))


def test_excluding_at_once_equals_excluding_one_by_one():
    at_once = VOTES.excluding(MINE)
    one_by_one = VOTES
    for rating in MINE:
        one_by_one = one_by_one.excluding([rating])
    assert np.allclose(at_once.feature_log_odds(X_INDICES), one_by_one.feature_log_odds(X_INDICES))
    assert np.allclose(at_once.story_log_odds(STORIES), one_by_one.story_log_odds(STORIES))


def test_a_feature_shared_by_several_ratings_loses_one_vote_per_rating():
    # the tag "oil" is on three of my good ratings: 18 good votes become 15, the bad ones stay 12
    f = featurize(STORIES[0])
    oil = next(i for i, kind, key in zip(f.indices, f.kinds, f.keys) if (kind, key) == ("tag", "oil"))
    without = VOTES.excluding(MINE[:2] + [(STORIES[3], True)])
    assert [c[0] for c in without._counts(np.array([oil]))] == [18 - 3, 12]
    assert [c[0] for c in VOTES._counts(np.array([oil]))] == [18, 12]  # the shared prior is untouched


def test_unknown_stories_are_ignored():
    stranger = story(99, ("coffee",))
    assert np.array_equal(VOTES.excluding([(stranger, True)]).feature_log_odds(X_INDICES),
                          VOTES.feature_log_odds(X_INDICES))


def test_a_view_scores_stories_as_the_sum_of_its_feature_log_odds():
    from recommender.features import DIM, matrix
    view = VOTES.excluding(MINE[:3])
    X = matrix([featurize(s) for s in STORIES])
    every = view.feature_log_odds(np.arange(DIM))
    assert np.allclose(view.topic_log_odds(STORIES, X), X @ every, atol=1e-5)
    assert not np.allclose(view.topic_log_odds(STORIES), VOTES.topic_log_odds(STORIES))  # the view differs
