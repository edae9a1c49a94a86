"""Do implicit signals help readers who rarely rate? Simulated Reuters-21578 readers who open stories,
read some to the end, save a few, scroll past the rest, and rate only one opened story in ten.

    python benchmarks/recommender_implicit.py [--dataset DIR] [--quick] [--seeds N,...] [--readers N]
        [--evaluate N] [--jobs N]

The protocol is the quality benchmark's time-honest one (benchmarks/recommender_quality.py): the crowd holds the
ratings (never the signals) on stories published before the ranked ones, the crowd model is refitted
nightly. At k = 5 and 20 ratings, "ours" is trained on those k ratings, "ours_signals" also on the
signals the reader left on the stories they viewed up to their k-th rating (recommender.fit's
``signals``), "tfidf_meta_lr" is the quality benchmark's best baseline on the ratings; all rank the
next 50 stories of the reader's stream. The signals' weights (recommender/implicit.py) were not tuned on
either seed; seed 1 is printed as the tuning seed and 2 as the check seed, as in the quality benchmark.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import recommender  # noqa: E402
from recommender_protocol import HORIZON, ranked_window  # noqa: E402
from recommender_simulation import browse, simulate  # noqa: E402

_spec = importlib.util.spec_from_file_location("recommender_benchmark", Path(__file__).with_name("recommender_quality.py"))
quality = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(quality)

KS = (5, 20)
METHODS = ("tfidf_meta_lr", "ours", "ours_signals", "ceiling")
RATE_ONE_IN = 10


class Evaluation(quality.Evaluation):
    def __init__(self, items, features, readers, signals, corpus, evaluate):
        super().__init__(items, features, readers, corpus, evaluate)
        self.signals = signals  # reader id -> {stream offset: [kind, ...]}
        self.auc = {m: {k: [] for k in KS} for m in METHODS}

    def rank(self, reader, k, rated, window):
        position = reader.stream[window[0]]
        crowd = self.community_before(position).with_crowd_model(self.crowd_model_before(position))
        train = [(self.features[reader.stream[o]], bool(reader.labels[o])) for o in rated]
        others = crowd.excluding(train)
        seen = [(self.features[reader.stream[o]], kind) for o, kinds in self.signals[reader.id].items()
                if o < window[0] for kind in kinds]
        candidates = [self.features[p] for p in reader.stream[window]]
        plain = recommender.fit(train, subscribed_feeds=reader.desks, community=crowd)
        signalled = recommender.fit(train, subscribed_feeds=reader.desks, community=crowd, signals=seen)
        baseline = self._baselines(reader, rated, window, others, {"time-honest": others})["time-honest"]
        return {"tfidf_meta_lr": baseline["tfidf_meta_lr"], "ours": plain.predict(candidates, community=others),
                "ours_signals": signalled.predict(candidates, community=others), "ceiling": reader.truth[window]}

    def run(self):
        tasks = sorted((self.night_before(reader.stream[chosen[1][0]]), reader.id, k, chosen)
                       for reader in self.evaluated for k in KS
                       if (chosen := ranked_window(reader, k)) is not None)
        readers = {reader.id: reader for reader in self.evaluated}
        for _, reader_id, k, (rated, window) in sorted(tasks, key=lambda task: task[:3]):
            labels = readers[reader_id].labels[window]
            for method, s in self.rank(readers[reader_id], k, rated, window).items():
                self.auc[method][k].append(roc_auc_score(labels, s))
        return self


def run_one(seed, readers, evaluate):
    shared = quality._SHARED
    simulated = simulate(shared["items"], shared["concepts"], readers, seed)
    rng = np.random.default_rng(seed + 1000)
    signals = {reader.id: browse(reader, rng, RATE_ONE_IN) for reader in simulated}
    started = time.perf_counter()
    evaluation = Evaluation(shared["items"], shared["features"], simulated, signals, shared["corpus"], evaluate).run()
    return seed, time.perf_counter() - started, {m: {k: quality.summary(evaluation.auc[m][k]) for k in KS}
                                                  for m in METHODS}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=quality.default_dataset())
    parser.add_argument("--quick", action="store_true", help="smoke run: seed 1, 120 readers, 12 evaluated")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--readers", type=int, default=240)
    parser.add_argument("--evaluate", type=int, default=80)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    readers, evaluate = (120, 12) if args.quick else (args.readers, args.evaluate)
    seeds = seeds[:1] if args.quick else seeds
    items = quality.load_corpus(args.dataset)
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(run_one, seeds, [readers] * len(seeds), [evaluate] * len(seeds)))
    print(f"Reuters-21578: {len(items)} stories; {readers} simulated readers who rate one opened story in "
          f"{RATE_ONE_IN}, the first {evaluate} ranked for; the next {HORIZON} stories after k ratings; "
          f"mean per-reader ROC-AUC ± 95% interval (time-honest crowd)\n")
    for seed, seconds, auc in results:
        print(f"seed {seed} ({'tuning' if seed == 1 else 'check'}), {seconds:.0f} s")
        print(f"{'k':>3} {'readers':>7} " + " ".join(f"{m:>15}" for m in METHODS) + f" {'signals add':>11}")
        for k in KS:
            if not auc["ours"][k]["n"]:
                continue
            cells = " ".join(f"{auc[m][k]['mean']:.3f} ± {auc[m][k]['ci95']:.3f}".rjust(15) for m in METHODS)
            print(f"{k:>3} {auc['ours'][k]['n']:>7} {cells} {auc['ours_signals'][k]['mean'] - auc['ours'][k]['mean']:>+11.3f}")
        print()


if __name__ == "__main__":
    main()
