"""A second family of simulated readers, unlike recommender_simulation's in kind, held out: no setting of
the model was ever chosen on it. Its design was fixed before it was first run:

- Taste lives in the words of a story, not in its desk, tags or named entities: a story's words are its
  distinct lower-case tokens of three or more letters (title and text, English stop words out) that
  0.2-5 % of the stories use.
- Readers fall into a few taste groups of unequal size (sizes drawn from a Dirichlet). Each group likes and
  dislikes its own sparse set of words, drawn independently of the other groups', so readers agree within
  a group and not across: no taste is common to every reader, and the crowd is a mixture of groups.
- Each reader holds their group's taste at a strength of their own, adds a few private likes and dislikes
  over words frequent in their stream, and prefers long or short stories (a weight on the story's log
  length). A share of readers are contrarians: they hold the opposite of the whole community's taste
  (the groups' tastes weighted by group size) instead of a group's.
- Desks only decide what a reader sees (subscriptions drawn as in the first family); no desk affinity.
- A rating is a coin with P(good) = sigmoid(slope × (utility − bar)), the utility in the reader's own
  standard deviations and the bar where 20-50 % of their stream lies above it: near the bar a toss-up,
  far from it sure (no uniform flips, no Gaussian noise).
- Readers rate mostly what appeals to them: a seen story is rated with probability proportional to
  exp(bias × utility), 15-60 % of the stream on average (at most 0.95 a story), so the crowd's votes
  and a reader's own ratings lean good. Ranked stories are scored against the rating the reader would
  give each, rated or not (as in the first family).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

from recommender_simulation import Reader, subscribe


@dataclass(frozen=True)
class ClusterPopulation:
    """Ranges the readers' parameters are drawn from (uniform unless noted)."""

    desks: tuple[int, int] = (2, 5)
    min_stream: int = 600
    word_share: tuple[float, float] = (0.002, 0.05)  # share of stories a taste word appears in
    groups: int = 4
    group_size: float = 2.0  # Dirichlet concentration of the group sizes
    group_words: int = 60  # likes, and as many dislikes, per group
    group_strength: tuple[float, float] = (0.5, 1.5)  # |weight| of a group's like or dislike
    group_weight: tuple[float, float] = (0.5, 1.0)  # how strongly a reader holds their group's taste
    likes: tuple[int, int] = (4, 12)  # private ones
    dislikes: tuple[int, int] = (3, 10)
    strength: tuple[float, float] = (0.8, 2.0)
    length: float = 0.4  # sd of the weight on the story's standardised log length
    contrarian: float = 0.1  # share of readers who hold the opposite of the community's taste
    slope: tuple[float, float] = (1.5, 4.0)
    good_share: tuple[float, float] = (0.2, 0.5)
    rate_share: tuple[float, float] = (0.15, 0.6)
    bias: tuple[float, float] = (0.0, 1.2)  # how much likelier a reader rates a story that appeals
    start: tuple[float, float] = (0.0, 0.5)


def story_words(items, population: ClusterPopulation):
    """Binary story x word matrix (CSR) of the taste words, and the words."""
    vectorizer = CountVectorizer(binary=True, stop_words="english", token_pattern=r"(?u)\b[^\W\d_]{3,}\b",
                                 min_df=population.word_share[0], max_df=population.word_share[1])
    matrix = vectorizer.fit_transform(f"{item.title}\n{item.body}" for item in items)
    return matrix.tocsr().astype(np.float64), vectorizer.get_feature_names_out()


def sparse_taste(n_words, count_likes, count_dislikes, strength, p, rng) -> np.ndarray:
    """A weight per word: that many likes and dislikes, picked with probability p, |weight| in strength."""
    taste = np.zeros(n_words)
    picked = rng.choice(n_words, size=min(int((p > 0).sum()), count_likes + count_dislikes), replace=False, p=p)
    signs = np.r_[np.ones(count_likes), -np.ones(count_dislikes)][:len(picked)]
    taste[picked] = signs * rng.uniform(*strength, len(picked))
    return taste


def log_length(items) -> np.ndarray:
    length = np.log1p([len(item.body.split()) for item in items])
    return (length - length.mean()) / (length.std() or 1.0)


def make_reader(reader_id, items, words, length, community, group, population: ClusterPopulation, rng) -> Reader:
    desks, stream = subscribe(items, population, rng)
    contrarian = bool(rng.random() < population.contrarian)
    held = rng.uniform(*population.group_weight) * (-community if contrarian else group)
    seen = np.asarray(words[stream].sum(axis=0)).ravel()
    private = sparse_taste(words.shape[1], rng.integers(*population.likes, endpoint=True),
                           rng.integers(*population.dislikes, endpoint=True), population.strength,
                           seen / seen.sum(), rng)
    taste = held + private
    length_weight = rng.normal(0, population.length)
    truth = words[stream] @ taste + length_weight * length[stream]
    utility = (truth - truth.mean()) / (truth.std() or 1.0)
    good_share = rng.uniform(*population.good_share)
    bar = float(np.quantile(utility, 1 - good_share))
    slope = rng.uniform(*population.slope)
    labels = rng.random(len(stream)) < 1 / (1 + np.exp(-slope * (utility - bar)))
    bias = rng.uniform(*population.bias)
    appeal = np.exp(bias * utility)
    chance = np.minimum(0.95, appeal / appeal.mean() * rng.uniform(*population.rate_share))
    start = int(rng.uniform(*population.start) * len(stream))
    rated = np.flatnonzero(rng.random(len(stream)) < chance)
    rated = rated[rated >= start]
    parameters = {"contrarian": contrarian, "length_weight": length_weight, "slope": slope, "bar": bar,
                  "bias": bias, "good_share": good_share}
    return Reader(reader_id, desks, stream, truth, labels, rated, {"words": taste}, parameters)


def simulate_groups(items, readers: int, seed: int, population: ClusterPopulation = ClusterPopulation()):
    """(each reader's group, -1 for a contrarian; the readers)."""
    rng = np.random.default_rng(seed)
    words, _ = story_words(items, population)
    share = np.asarray(words.sum(axis=0)).ravel()
    groups = [sparse_taste(words.shape[1], population.group_words, population.group_words,
                           population.group_strength, share / share.sum(), rng) for _ in range(population.groups)]
    sizes = rng.dirichlet(np.full(population.groups, population.group_size))
    community = sum(size * group for size, group in zip(sizes, groups))
    member = rng.choice(population.groups, size=readers, p=sizes)
    length = log_length(items)
    simulated = [make_reader(r, items, words, length, community, groups[member[r]], population, rng)
                 for r in range(readers)]
    return [-1 if reader.parameters["contrarian"] else int(g) for reader, g in zip(simulated, member)], simulated


def simulate(items, readers: int, seed: int, population: ClusterPopulation = ClusterPopulation()):
    return simulate_groups(items, readers, seed, population)[1]
