"""The fitted crowd model: cross-fitted (a story's score never uses its own votes), private (no feature
with fewer than min_raters readers behind it), and a user's own votes can be taken out of it."""
import numpy as np
import pytest

from recommender import CommunityPrior, Story, featurize
from recommender.crowd import KIND_PENALTY, CrowdModel, folds_of
from recommender.features import feature_index

TOPICS = ["oil", "gas", "grain", "gold", "coffee", "sugar"]


def community(seed=0, n=120, votes=(3, 12)):
    """Stories on a few topics; the crowd likes some topics, with noise."""
    rng = np.random.default_rng(seed)
    appeal = dict(zip(TOPICS, rng.normal(0, 1.5, len(TOPICS))))
    stories, good, bad = [], [], []
    for i in range(n):
        tags = list(rng.choice(TOPICS, size=2, replace=False))
        stories.append(featurize(Story(id=i, title=f"{tags[0]} prices", text=f"{tags[0]} and {tags[1]} markets",
                                       feed="markets", tags=tags)))
        count = int(rng.integers(votes[0], votes[1] + 1))
        g = rng.binomial(count, 1 / (1 + np.exp(-sum(appeal[t] for t in tags))))
        good.append(g)
        bad.append(count - g)
    return stories, np.array(good), np.array(bad)


def test_a_story_s_score_never_uses_its_own_votes():
    stories, good, bad = community()
    folds = folds_of([s.story_id for s in stories], 5)
    a, b = np.flatnonzero(folds == 0)[:2]
    good[a], bad[a], good[b], bad[b] = 8, 2, 2, 8
    # a and b swap verdicts: the vote totals, the crowd's rate and the features' rater counts stay
    swapped_good, swapped_bad = good.copy(), bad.copy()
    swapped_good[[a, b]], swapped_bad[[a, b]] = good[[b, a]], bad[[b, a]]
    before = CrowdModel.fit(stories, good, bad).scores(stories)
    after = CrowdModel.fit(stories, swapped_good, swapped_bad).scores(stories)
    assert np.allclose(before[folds == 0], after[folds == 0], atol=1e-6)  # a and b among them
    assert not np.allclose(before[folds != 0], after[folds != 0], atol=1e-3)  # the others' models saw it


def test_a_new_story_is_scored_by_the_mean_of_the_fold_models():
    stories, good, bad = community()
    model = CrowdModel.fit(stories, good, bad)
    new = featurize(Story(id="new", title="oil prices", text="oil and gas markets", feed="markets", tags=["oil", "gas"]))
    expected = new.values @ model.weights[new.indices] + model.intercepts - model.base
    assert np.isclose(model.scores([new])[0], expected.mean(), atol=1e-5)
    assert np.ptp(expected) > 0.01  # the fold models differ: one of them alone would score it otherwise


def test_features_with_fewer_than_min_raters_readers_get_no_weight():
    stories, good, bad = community()
    rare = [featurize(Story(id=f"rare{i}", title="tea", text="tea markets", feed="markets", tags=[tag]))
            for i, tag in enumerate(["secret", "open"])]
    # "secret" is on one story with 2 votes (2 readers at most), "open" on one with 3
    model = CrowdModel.fit(stories + rare, np.r_[good, 2, 3], np.r_[bad, 0, 0], min_raters=3)
    secret, opened = feature_index("tag", "secret"), feature_index("tag", "open")
    assert not model.weights[secret].any()
    trained_on_open = np.arange(5) != folds_of(["rare1"], 5)[0]
    assert (model.weights[opened, trained_on_open] > 0).all()


def test_taking_a_user_s_votes_out_comes_close_to_refitting_without_them():
    # here the user cast 5 % of the votes, all in one direction but on "gold"
    stories, good, bad = community(1)
    rng = np.random.default_rng(2)
    # the user likes every "gold" story and dislikes the rest of what they rated
    mine = [i for i in range(len(stories)) if rng.random() < 0.4]
    liked = [int(feature_index("tag", "gold") in stories[i].indices) for i in mine]
    own_good, own_bad = good.copy(), bad.copy()
    own_good[mine] += liked
    own_bad[mine] += 1 - np.array(liked)
    with_user = CrowdModel.fit(stories, own_good, own_bad)
    without_user = CrowdModel.fit(stories, good, bad)
    view = with_user.excluding([(stories[i].story_id, bool(g)) for i, g in zip(mine, liked)])
    # compared as logits: the view keeps the crowd's rate, as CommunityPrior.excluding does
    exact = without_user.scores(stories) + without_user.base
    leaked = np.abs(with_user.scores(stories) + with_user.base - exact)
    left = np.abs(view.scores(stories) + view.base - exact)
    assert leaked.max() > 0.05  # the user's votes did move the crowd's scores
    assert left.max() < 0.1 * leaked.max()  # about 4 % left (crowd.NEWTON_STEPS)
    assert with_user.excluding([("unknown", True)]) is with_user


def test_the_community_prior_takes_the_user_s_votes_out_of_its_crowd_model():
    stories, good, bad = community()
    good[0], bad[1] = max(good[0], 1), max(bad[1], 1)  # the community holds the user's two votes
    prior = CommunityPrior(zip(stories, good, bad)).with_crowd_model()
    view = prior.excluding([(stories[0], True), (stories[1], False)])
    assert np.allclose(prior.topic_log_odds(stories[2:]), prior._model.scores(stories[2:]))
    assert not np.allclose(view.topic_log_odds(stories), prior.topic_log_odds(stories), atol=1e-4)
    # the same view whether the crowd model is attached before or after the user's votes come out
    later = CommunityPrior(zip(stories, good, bad)).excluding([(stories[0], True), (stories[1], False)])
    assert np.allclose(later.with_crowd_model(prior._model).topic_log_odds(stories), view.topic_log_odds(stories))


def test_a_warm_start_from_another_snapshot_reaches_the_same_model():
    stories, good, bad = community()
    earlier = CrowdModel.fit(stories[:80], good[:80], bad[:80])
    cold, warm = CrowdModel.fit(stories, good, bad), CrowdModel.fit(stories, good, bad, start=earlier)
    assert np.allclose(cold.scores(stories), warm.scores(stories), atol=1e-3)


def test_a_community_without_votes_has_no_opinion():
    stories, _, _ = community()
    for prior in (CommunityPrior([]), CommunityPrior([(s, 0, 0) for s in stories])):
        assert not prior.with_crowd_model().topic_log_odds(stories).any()
    assert not CommunityPrior([]).with_crowd_model().excluding([(stories[0], True)]).topic_log_odds(stories).any()
    with pytest.raises(ValueError, match="does not hold their votes"):
        CommunityPrior([(s, 0, 0) for s in stories]).with_crowd_model().excluding([(stories[0], True)])


def test_words_are_held_tighter_than_subjects():
    # the word "oil" is in a story's text exactly when its tags hold "oil", with the same values on
    # every story: at the optimum each weight is (its value x the residuals) / its ridge, so the
    # word's weight over the tag's shows the ridge each kind was given
    stories, good, bad = community()
    model = CrowdModel.fit(stories, good, bad)
    word, tag = feature_index("word", "oil"), feature_index("tag", "oil")
    story = next(s for s in stories if tag in s.indices)
    value = dict(zip(story.indices, story.values))
    trained = model.weights[tag] != 0
    share = model.weights[word, trained] / model.weights[tag, trained]
    assert KIND_PENALTY["word"] > 1 and trained.any()
    assert np.allclose(share, (value[word] / KIND_PENALTY["word"]) / value[tag], rtol=0.01)
