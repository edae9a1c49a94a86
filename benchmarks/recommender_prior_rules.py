"""Screen of the priors on the crowd and feature weights, as a function of the reader's ratings, on the tuning seed.

    python benchmarks/recommender_prior_rules.py [--settings NAME,...] [--seed N] [--evaluate N] [--jobs N]

The question: at 100 ratings with the live crowd, a per-user logistic regression given the crowd's columns as
free weights matches ours (see docs/recommender.md, "Across simulation settings"). Ours holds the crowd's weights
near their prior (training.EXTRA_PRIOR 0.7, EXTRA_PENALTY 3); would a prior that weakens (or strengthens) as
ratings accumulate, or another ridge on the features, do better? Each RULES entry sets training's FEATURE_PENALTY,
EXTRA_PENALTY and EXTRA_PRIOR for a fit on n ratings. Same simulation, protocols and readers as
recommender_quality.py; only ours is refitted per rule (the baselines do not change; their figures are that
script's). Prints ours' mean per-reader ROC-AUC per rule, setting, protocol and k.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import recommender  # noqa: E402
import recommender_quality as quality  # noqa: E402
from recommender import training  # noqa: E402

FEATURE, PENALTY, PRIOR = training.FEATURE_PENALTY, training.EXTRA_PENALTY.copy(), training.EXTRA_PRIOR.copy()
CROWD = slice(0, 2)  # EXTRAS crowd_story, crowd_topic (then crowd_topic_voted, "subscribed")


def crowd_penalty(scale: float) -> np.ndarray:
    return np.r_[PENALTY[CROWD] * scale, PENALTY[2:]]


# name: n ratings -> (FEATURE_PENALTY, EXTRA_PENALTY, EXTRA_PRIOR)
RULES = {
    "today": lambda n: (FEATURE, PENALTY, PRIOR),
    "crowd penalty x min(1, 20/n)": lambda n: (FEATURE, crowd_penalty(min(1, 20 / n)), PRIOR),
    "crowd penalty x min(1, 5/n)": lambda n: (FEATURE, crowd_penalty(min(1, 5 / n)), PRIOR),
    "crowd penalty x 20/(20+n)": lambda n: (FEATURE, crowd_penalty(20 / (20 + n)), PRIOR),
    "all 3 penalties x min(1, 20/n)": lambda n: (FEATURE, PENALTY * min(1, 20 / n), PRIOR),
    "crowd as the baseline's (0, 1)": lambda n: (FEATURE, np.r_[1.0, 1.0, PENALTY[2:]], np.r_[0.0, 0.0, PRIOR[2:]]),
    "crowd penalty x max(1, n/20)": lambda n: (FEATURE, crowd_penalty(max(1, n / 20)), PRIOR),
    "crowd penalty 10": lambda n: (FEATURE, crowd_penalty(10 / PENALTY[0]), PRIOR),
    "crowd_story prior 1.0": lambda n: (FEATURE, PENALTY, np.r_[1.0, PRIOR[1:]]),
    "both crowd priors 1.0": lambda n: (FEATURE, PENALTY, np.r_[1.0, 1.0, PRIOR[2:]]),
    "feature ridge 0.5": lambda n: (0.5, PENALTY, PRIOR),
    "feature ridge 2": lambda n: (2.0, PENALTY, PRIOR),
}


@contextmanager
def priors(feature, penalty, prior):
    """training's prior constants set for the fits inside (read at each fit, so this is all a rule needs)."""
    saved = training.FEATURE_PENALTY, training.EXTRA_PENALTY, training.EXTRA_PRIOR
    training.FEATURE_PENALTY, training.EXTRA_PENALTY, training.EXTRA_PRIOR = feature, penalty, prior
    try:
        yield
    finally:
        training.FEATURE_PENALTY, training.EXTRA_PENALTY, training.EXTRA_PRIOR = saved


class RuleScreen(quality.Evaluation):
    """recommender_quality's evaluation with one "method" per rule, all ours."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.auc = {p: {rule: {k: [] for k in quality.KS} for rule in RULES} for p in quality.PROTOCOLS}

    def rank(self, reader, k, rated, window):
        community = self.community_before(reader.stream[window[0]])
        crowd = community.with_crowd_model(self.crowd_model_before(reader.stream[window[0]]))
        train = [(self.features[reader.stream[o]], bool(reader.labels[o])) for o in rated]
        others = crowd.excluding(train)
        protocols = {"time-honest": others, "live": self.live(others, reader, window)}
        candidates = [self.features[p] for p in reader.stream[window]]
        scores = {protocol: {} for protocol in protocols}
        for name, rule in RULES.items():
            with priors(*rule(k)):
                model = recommender.fit(train, subscribed_feeds=reader.desks, community=crowd)
            for protocol, prior in protocols.items():
                scores[protocol][name] = model.predict(candidates, community=prior)
        return scores


def run_one(setting: str, seed: int, readers: int, evaluate: int) -> tuple[str, int, dict]:
    items, concepts, features, corpus = (quality._SHARED[n] for n in ("items", "concepts", "features", "corpus"))
    simulated = quality.simulate(items, concepts, readers, seed,
                                 quality.population_from(list(quality.SETTINGS[setting])))
    screen = RuleScreen(items, features, simulated, corpus, evaluate).run()
    return setting, seed, screen.auc


def table(setting: str, seed: int, auc: dict) -> str:
    lines = [f"{setting}, seed {seed}: ours' mean ROC-AUC by rule (readers: "
             + ", ".join(f"k={k} {len(auc['live']['today'][k])}" for k in quality.KS) + ")",
             f"{'rule':<32}" + "".join(f"{f'{p[:4]} k={k}':>13}" for p in quality.PROTOCOLS for k in quality.KS)]
    for rule in RULES:
        lines.append(f"{rule:<32}" + "".join(f"{np.mean(auc[p][rule][k]):>13.3f}"
                                             for p in quality.PROTOCOLS for k in quality.KS))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=quality.default_dataset())
    parser.add_argument("--settings", default=",".join(quality.RUN_BY_DEFAULT))
    parser.add_argument("--seed", type=int, default=quality.TUNING_SEEDS[0])
    parser.add_argument("--readers", type=int, default=240)
    parser.add_argument("--evaluate", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    settings = args.settings.split(",")
    started = time.perf_counter()
    quality.load_corpus(args.dataset)
    with ProcessPoolExecutor(args.jobs) as pool:
        for setting, seed, auc in pool.map(run_one, settings, [args.seed] * len(settings),
                                           [args.readers] * len(settings), [args.evaluate] * len(settings)):
            print(table(setting, seed, auc) + "\n", flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
