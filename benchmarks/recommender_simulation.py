"""Simulated readers for the recommender benchmark.

A reader subscribes to a few desks, holds a hidden taste (likes and dislikes over tags and named
entities, an affinity per desk, plus a share of the taste every reader has in common), and rates a
share of the stories they see in time order, with noise and some plainly inconsistent ratings.
Every parameter is drawn per reader from a range, so one seed is a population, not one reader type.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Population:
    """Ranges the readers' parameters are drawn from (uniform unless noted)."""

    desks: tuple[int, int] = (2, 5)
    min_stream: int = 600  # stories a reader's desks must carry; more desks are added until they do
    likes: tuple[int, int] = (3, 10)
    dislikes: tuple[int, int] = (2, 8)
    strength: tuple[float, float] = (0.8, 2.5)  # |weight| of a like or dislike
    desk_affinity: float = 0.7  # sd of per-desk affinity
    shared_taste: float = 0.5  # sd of the appeal a tag or entity has for every reader
    noise: tuple[float, float] = (0.3, 1.2)  # sd of per-rating noise on the utility
    flip: tuple[float, float] = (0.02, 0.10)  # share of ratings that contradict the taste
    good_share: tuple[float, float] = (0.2, 0.5)  # share of their stream a reader rates good
    rate_share: tuple[float, float] = (0.15, 0.6)  # share of seen stories a reader rates
    start: tuple[float, float] = (0.0, 0.5)  # where in their stream a reader starts


@dataclass
class Reader:
    id: int
    desks: list[str]
    stream: np.ndarray  # story positions (into the corpus list) the reader sees, in time order
    truth: np.ndarray  # noiseless utility per stream story
    labels: np.ndarray  # the rating (True good) the reader gives or would give each stream story
    rated: np.ndarray  # stream offsets of the stories actually rated, in order
    taste: dict = field(default_factory=dict)
    # the rest of the hidden draws (noise sd, good share, threshold, flip rate, concept pool and its
    # pick weights, desk affinities), for benchmarks/recommender_bound.py's oracle
    parameters: dict = field(default_factory=dict)


def shared_appeal(concepts: list[tuple[str, ...]], sd: float, rng) -> dict[str, float]:
    names = sorted({c for cs in concepts for c in cs})
    return dict(zip(names, rng.normal(0, sd, len(names))))


def subscribe(items, population, rng) -> tuple[list[str], np.ndarray]:
    """The desks a reader subscribes to (bigger desks likelier; more added until they carry
    ``population.min_stream`` stories) and the story positions they carry, in time order."""
    by_desk = Counter(item.desk for item in items)
    names = sorted(by_desk)
    weights = np.sqrt([by_desk[d] for d in names])
    order = rng.choice(len(names), size=len(names), replace=False, p=weights / weights.sum())
    want = rng.integers(population.desks[0], population.desks[1] + 1)
    desks = [names[i] for i in order[:want]]
    for i in order[want:]:
        if sum(by_desk[d] for d in desks) >= population.min_stream:
            break
        desks.append(names[i])
    return desks, np.array([i for i, item in enumerate(items) if item.desk in desks])


def make_reader(reader_id, items, concepts, appeal, population: Population, rng) -> Reader:
    desks, stream = subscribe(items, population, rng)
    seen = Counter(c for i in stream for c in concepts[i])
    pool = sorted(seen)
    p = np.array([seen[c] for c in pool], float)
    n_like = rng.integers(*population.likes, endpoint=True)
    n_dislike = rng.integers(*population.dislikes, endpoint=True)
    picked = rng.choice(len(pool), size=min(len(pool), n_like + n_dislike), replace=False, p=p / p.sum())
    signs = np.r_[np.ones(n_like), -np.ones(n_dislike)][:len(picked)]
    taste = {pool[i]: s * rng.uniform(*population.strength) for i, s in zip(picked, signs)}
    affinity = {d: rng.normal(0, population.desk_affinity) for d in desks}
    truth = np.array([affinity[items[i].desk] + sum(taste.get(c, 0) + appeal.get(c, 0) for c in concepts[i])
                      for i in stream])
    noise = rng.uniform(*population.noise)
    noisy = truth + rng.normal(0, noise, len(stream))
    good_share = rng.uniform(*population.good_share)
    threshold = float(np.quantile(noisy, 1 - good_share))
    draws = rng.random(len(stream))
    flip = rng.uniform(*population.flip)
    labels = (noisy > threshold) ^ (draws < flip)
    start = int(rng.uniform(*population.start) * len(stream))
    rated = np.flatnonzero(rng.random(len(stream)) < rng.uniform(*population.rate_share))
    rated = rated[rated >= start]
    parameters = {"noise": noise, "good_share": good_share, "threshold": threshold, "flip": flip,
                  "pool": pool, "pool_weights": p / p.sum(), "affinity": affinity}
    return Reader(reader_id, desks, stream, truth, labels, rated, taste, parameters)


def simulate_with_appeal(items, concepts, readers: int, seed: int, population: Population = Population()):
    """The shared appeal of every concept and the readers."""
    rng = np.random.default_rng(seed)
    appeal = shared_appeal(concepts, population.shared_taste, rng)
    return appeal, [make_reader(r, items, concepts, appeal, population, rng) for r in range(readers)]


def simulate(items, concepts, readers: int, seed: int, population: Population = Population()):
    return simulate_with_appeal(items, concepts, readers, seed, population)[1]


def community_votes(readers, n_items):
    """Every reader's ratings summed per story: (good, bad) counts by corpus position."""
    good, bad = np.zeros(n_items, int), np.zeros(n_items, int)
    for reader in readers:
        positions = reader.stream[reader.rated]
        labels = reader.labels[reader.rated]
        np.add.at(good, positions[labels], 1)
        np.add.at(bad, positions[~labels], 1)
    return good, bad


def browse(reader: Reader, rng, rate_one_in: int = 10) -> dict[int, list[str]]:
    """A reader who looks through their stream from where they start rating, opens what looks good to
    them (the likelier the better they would rate it), reads the better ones to the end, saves some
    good ones, and rates only one opened story in ``rate_one_in``: ``reader.rated`` becomes those
    ratings, and the return value is every other viewed story's signals by stream offset
    (recommender.OPENED, READ, SAVED, or SKIPPED for a viewed story left unopened)."""
    p = reader.parameters
    start = int(reader.rated[0]) if len(reader.rated) else len(reader.stream)
    viewed = np.arange(start, len(reader.stream))
    utility = reader.truth[viewed] + rng.normal(0, p["noise"], len(viewed)) - p["threshold"]
    opened = viewed[rng.random(len(viewed)) < 1 / (1 + np.exp(-1.5 * utility))]
    rated = np.sort(opened[rng.random(len(opened)) < 1 / rate_one_in])
    signals = {int(o): ["skipped"] for o in viewed}
    good = dict(zip(viewed.tolist(), utility > 0))
    for o in opened.tolist():
        signals[o] = ["opened"]
        if rng.random() < (0.8 if good[o] else 0.2):
            signals[o].append("read")
        if reader.labels[o] and rng.random() < 0.2:
            signals[o].append("saved")
    for o in rated.tolist():
        del signals[o]
    reader.rated = rated
    return signals
