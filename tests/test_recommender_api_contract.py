"""The plain-Python API as an outside user meets it (issue 18): a community of other readers only is taken
explicitly or refused, live per-story votes join a prior, and a model pickles without its scoring cache."""
import pickle

import numpy as np
import pytest

from recommender import CommunityPrior, Story, UserModel, fit, prepare


def story(i, subject):
    return Story(id=i, title=f"{subject} report {i}", text=f"The {subject} desk reports on the {subject}.",
                 feed="desk", tags=[subject])


RATED = [(story(i, "ferry"), True) for i in range(3)] + [(story(i, "football"), False) for i in range(3, 6)]
NEW = [story(10, "ferry"), story(11, "football")]


def test_a_community_without_the_users_own_votes_is_refused_unless_said_so():
    others_only = CommunityPrior([(s, 0, 3) if good else (s, 3, 0) for s, good in RATED])  # they disagree
    with pytest.raises(ValueError, match="does not hold their votes"):
        fit(RATED, community=others_only)
    model = fit(RATED, community=others_only, own_votes_included=False)
    with_mine = CommunityPrior([(s, 1, 3) if good else (s, 3, 1) for s, good in RATED])
    assert model.predict(NEW, community=others_only) == pytest.approx(  # the same fit, to the solver's tolerance
        fit(RATED, community=with_mine).predict(NEW, community=others_only), rel=1e-5)


def test_votes_cast_since_a_prior_was_built_count_for_their_stories():
    prior = CommunityPrior([(s, 3, 3) for s, _ in RATED])
    live = prior.with_story_votes([(NEW[0].id, 9, 0), (RATED[0][0].id, 0, 9)])
    assert list(prior.story_log_odds([NEW[0], RATED[0][0]])) == [0, 0]
    assert list(np.sign(live.story_log_odds([NEW[0], RATED[0][0]]))) == [1, -1]
    assert live.excluding([(NEW[0], True)]).story_log_odds([NEW[0]]) < live.story_log_odds([NEW[0]])
    with pytest.raises(ValueError):
        prior.with_story_votes([(NEW[0].id, -1, 0)])


def test_a_pickled_model_leaves_its_dense_cache_behind():
    model = fit(RATED)
    batch = prepare(NEW)
    expected = model.predict(batch)  # builds the 1 MB dense cache
    blob = pickle.dumps(model)
    assert len(blob) < 10 * len(model.to_bytes())
    assert np.allclose(pickle.loads(blob).predict(batch), expected)
    assert isinstance(pickle.loads(blob), UserModel)
