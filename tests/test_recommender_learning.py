"""The model learns a planted taste from ratings, including from thousands of them."""
import random

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from recommender import Story, featurize, fit

TOPICS = {
    "oil": "opec crude barrel refinery pipeline",
    "football": "goal striker league coach stadium",
    "banks": "lender deposit credit mortgage bond",
    "space": "rocket orbit astronaut launch satellite",
    "farming": "harvest wheat tractor drought cattle",
    "music": "album concert guitar singer chart",
}
FILLER = "the report on monday added that officials expect more news later this week".split()
LIKED, DISLIKED = {"oil", "space"}, {"football"}


def make_stories(n, seed):
    rng = random.Random(seed)
    stories = []
    for i in range(n):
        topics = rng.sample(sorted(TOPICS), 2)
        body = " ".join(rng.choice(TOPICS[t].split()) for t in topics for _ in range(4))
        body += " " + " ".join(rng.sample(FILLER, 6))
        stories.append(Story(id=i, title=f"{topics[0]} update", text=body, feed=f"feed{rng.randrange(3)}",
                             tags=topics))
    return stories


def taste(story):
    return len(LIKED & set(story.tags)) - 1.5 * len(DISLIKED & set(story.tags))


def test_learns_a_planted_taste_from_sixty_ratings():
    stories = make_stories(300, seed=1)
    train, test = stories[:60], stories[60:]
    model = fit([(s, taste(s) > 0) for s in train])
    scores = model.predict(test)
    assert roc_auc_score([taste(s) > 0 for s in test], scores) > 0.9


def test_recommended_cut_off_keeps_most_good_stories():
    stories = make_stories(400, seed=2)
    model = fit([(s, taste(s) > 0) for s in stories[:100]])
    scored = model.score(stories[100:])
    good = [r for r, s in zip(scored, stories[100:]) if taste(s) > 0]
    bad = [r for r, s in zip(scored, stories[100:]) if taste(s) <= 0]
    assert np.mean([r.recommended for r in good]) >= 0.7
    assert np.mean([r.recommended for r in bad]) < 0.5


@pytest.mark.parametrize("noise", [0.0, 0.15])
def test_thousands_of_ratings_fit_and_stay_accurate(noise):
    rng = random.Random(3)
    stories = make_stories(3200, seed=3)
    features = [featurize(s) for s in stories]
    ratings = [(f, (taste(s) > 0) ^ (rng.random() < noise)) for f, s in zip(features[:3000], stories)]
    model = fit(ratings)
    assert model.good_ratings + model.bad_ratings == 3000
    test = stories[3000:]
    assert roc_auc_score([taste(s) > 0 for s in test], model.predict(features[3000:])) > 0.9
