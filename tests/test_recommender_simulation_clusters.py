"""The held-out reader family (benchmarks/recommender_clusters.py) is reproducible for a seed, and its
readers' ratings follow the taste it means them to have: words of the text, shared within a group."""
import string
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from recommender_clusters import ClusterPopulation, simulate, simulate_groups, story_words  # noqa: E402

_rng = np.random.default_rng(0)
VOCABULARY = sorted({"".join(_rng.choice(list(string.ascii_lowercase), 6)) for _ in range(400)})
# One desk, so nothing but the words (and length) can tell a reader's stories apart.
ITEMS = [SimpleNamespace(title=" ".join(_rng.choice(VOCABULARY, 3)), desk="all",
                         body=" ".join(_rng.choice(VOCABULARY, _rng.integers(8, 20))))
         for _ in range(1500)]
POPULATION = ClusterPopulation(word_share=(0.005, 0.2))


def test_the_same_seed_draws_the_same_readers_and_another_seed_others():
    first, again, other = (simulate(ITEMS, 30, seed, POPULATION) for seed in (3, 3, 4))
    for a, b in zip(first, again):
        assert np.array_equal(a.labels, b.labels) and np.array_equal(a.rated, b.rated)
        assert np.array_equal(a.truth, b.truth)
    assert any(not np.array_equal(a.labels, b.labels) for a, b in zip(first, other))


def test_ratings_follow_the_readers_taste_in_words():
    words, _ = story_words(ITEMS, POPULATION)
    readers = simulate(ITEMS, 30, 5, POPULATION)
    gaps = []
    for reader in readers:
        score = words[reader.stream] @ reader.taste["words"]  # the taste from the text alone, no length
        top, bottom = score >= np.quantile(score, 0.75), score <= np.quantile(score, 0.25)
        gaps.append(reader.labels[top].mean() - reader.labels[bottom].mean())
    assert np.mean(gaps) > 0.4 and min(gaps) > 0


def test_readers_agree_within_a_taste_group_and_not_across():
    groups, readers = simulate_groups(ITEMS, 40, 6, POPULATION)
    def agreement(a, b):
        return np.corrcoef(readers[a].labels, readers[b].labels)[0, 1]  # one desk: the same stream
    pairs = [(a, b) for a in range(40) for b in range(a + 1, 40) if min(groups[a], groups[b]) >= 0]
    within = np.mean([agreement(a, b) for a, b in pairs if groups[a] == groups[b]])
    across = np.mean([agreement(a, b) for a, b in pairs if groups[a] != groups[b]])
    assert within > 0.3 and abs(across) < 0.1


def test_readers_rate_mostly_what_appeals_to_them():
    readers = simulate(ITEMS, 30, 7, POPULATION)
    rated = np.mean([r.labels[r.rated].mean() for r in readers if len(r.rated)])
    assert rated > np.mean([r.labels.mean() for r in readers]) + 0.05
