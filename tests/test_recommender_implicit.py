"""Implicit signals (opened, read to the end, saved, skipped) are weak labels: they teach the model,
far less than a rating does, never override a rating, and never count as ratings."""
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from recommender import OPENED, READ, SAVED, SKIPPED, Story, fit
from recommender import implicit

from test_recommender_learning import make_stories, taste


def test_every_signal_and_every_story_weighs_well_below_a_rating():
    assert all(0 < weight <= 0.25 for weight in implicit.WEIGHTS.values())
    story = Story(id=1, text="crude oil")
    [(_, good, weight)] = implicit.weak_labels([(story, OPENED), (story, READ), (story, SAVED), (story, OPENED)])
    assert good and weight == implicit.MAX_WEIGHT <= 0.25


def test_a_rated_story_keeps_only_its_rating_and_an_opened_story_is_not_a_skip():
    rated, opened = Story(id=1, text="crude oil"), Story(id=2, text="striker goal")
    rows = implicit.weak_labels([(rated, SKIPPED), (opened, SKIPPED), (opened, OPENED)], rated_ids={1})
    assert [(s.id, good, weight) for s, good, weight in rows] == [(2, True, implicit.WEIGHTS[OPENED])]
    [(_, good, weight)] = implicit.weak_labels([(rated, SKIPPED)])
    assert not good and weight == implicit.WEIGHTS[SKIPPED]


def test_an_unknown_signal_is_refused():
    with pytest.raises(ValueError, match="unknown implicit signal"):
        implicit.weak_labels([(Story(id=1), "liked")])


def test_signals_teach_the_model_when_ratings_are_few():
    stories = make_stories(400, seed=4)
    ratings = [(s, taste(s) > 0) for s in stories[:4]]
    # a reader opens and reads what they like, and scrolls past the rest
    signals = [(s, OPENED if taste(s) > 0 else SKIPPED) for s in stories[4:200]]
    signals += [(s, READ) for s in stories[4:200] if taste(s) > 0]
    test = stories[200:]
    truth = [taste(s) > 0 for s in test]
    without = roc_auc_score(truth, fit(ratings).predict(test))
    with_signals = roc_auc_score(truth, fit(ratings, signals=signals).predict(test))
    assert with_signals > without + 0.1


def test_one_story_s_signals_move_the_model_far_less_than_its_rating():
    stories = make_stories(60, seed=5)
    base = [(s, taste(s) > 0) for s in stories[1:11]]
    liked = stories[0]

    def logit(model):
        p = model.predict([liked])[0]
        return np.log(p / (1 - p))
    neutral = logit(fit(base))
    rated = logit(fit(base + [(liked, True)]))
    signalled = logit(fit(base, signals=[(liked, OPENED), (liked, READ), (liked, SAVED)]))
    assert neutral < signalled < rated
    assert signalled - neutral < 0.4 * (rated - neutral)  # all three together, capped
    opened = logit(fit(base, signals=[(liked, OPENED)]))
    assert opened - neutral < 0.2 * (rated - neutral)


def test_signals_are_not_counted_as_ratings_nor_charted():
    stories = make_stories(40, seed=6)
    ratings = [(s, taste(s) > 0) for s in stories[:6]]
    model = fit(ratings, signals=[(s, OPENED) for s in stories[6:]])
    assert model.good_ratings + model.bad_ratings == 6
    assert sum(point.ratings for point in model.taste().agreement) == 6
    assert np.isfinite(model.threshold)
