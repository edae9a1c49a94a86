"""Which kinds of features speak loudest in a reader's fit is chosen per reader, on held-out ratings: a reader
whose taste is in the words of the text is not fitted through the tags and desk first."""
import random

import numpy as np
from sklearn.metrics import roc_auc_score

from recommender import Story, fit, prepare
from recommender import training
from recommender.features import KINDS

TAGS = ["oil", "football", "banks", "space", "farming", "music"]
LIKED = [f"lik{c}word" for c in "abcde"]
DISLIKED = [f"dis{c}word" for c in "abcde"]
OTHER = [f"oth{c}word" for c in "abcdefghij"]


def make_stories(n, seed):
    """Stories with two tags and a desk drawn independently of their words."""
    rng = random.Random(seed)
    return [Story(id=i, title="", text=" ".join(rng.sample(LIKED + DISLIKED + OTHER, 4)),
                  feed=f"desk{rng.randrange(3)}", tags=rng.sample(TAGS, 2)) for i in range(n)]


def word_taste(story):
    words = set(story.text.split())
    return len(words & set(LIKED)) - len(words & set(DISLIKED))


def tag_taste(story):
    return ("oil" in story.tags) - ("football" in story.tags) + 0.5 * ("space" in story.tags)


def chosen_voices(ratings):
    """The factor the fit put on a tag's column (1: the features' own voices), via the fit's own steps."""
    features = [s for s, _ in ratings]
    y = np.array([good for _, good in ratings], float)
    columns, kinds, Xc, extra, _ = training._design(prepare(features), frozenset())
    scale = training._rarity(columns, kinds, None)
    chosen = training._choose_voices(Xc, kinds, scale, extra, y, np.ones(len(y)), len(y), 0.0)[0]
    return chosen[kinds == KINDS.index("tag")]


def test_a_reader_whose_taste_is_in_words_gets_even_voices_and_one_whose_taste_is_in_tags_keeps_them():
    stories = make_stories(40, seed=1)
    assert np.allclose(chosen_voices([(s, word_taste(s) > 0) for s in stories]), training.EVEN_VOICES[KINDS.index("tag")])
    assert np.allclose(chosen_voices([(s, tag_taste(s) > 0) for s in stories]), 1.0)


def test_even_voices_rank_a_word_readers_stories_better_than_the_features_own(monkeypatch):
    stories = make_stories(400, seed=2)
    train, test = stories[:40], stories[40:]
    ratings = [(s, word_taste(s) > 0) for s in train]
    truth = [word_taste(s) > 0 for s in test]
    chosen = roc_auc_score(truth, fit(ratings).predict(test))
    monkeypatch.setattr(training, "VOICES", ())  # nothing to choose but the features' own voices
    own = roc_auc_score(truth, fit(ratings).predict(test))
    assert chosen > own + 0.02


def test_more_ratings_than_the_cross_validated_keep_the_features_own_voices(monkeypatch):
    monkeypatch.setattr(training, "CROSS_VALIDATE_UP_TO", 30)
    stories = make_stories(40, seed=1)
    assert np.allclose(chosen_voices([(s, word_taste(s) > 0) for s in stories]), 1.0)
