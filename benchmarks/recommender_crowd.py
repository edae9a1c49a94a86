"""How well the crowd model sees what readers in general like, on the recommender benchmark's readers.

    python benchmarks/recommender_crowd.py --dataset ../shared/datasets/reuters21578
        [--seeds 1,2,5] [--readers 240] [--kind-penalty word=4,title=4 ...]

Same corpus, readers and votes as `benchmarks/recommender_quality.py`. At three cuts (30, 50 and 70 % of the
corpus in time order) a crowd model is fitted on all votes on the stories before the cut and scores
the next 2,000 stories, which are new to it (no votes). Two figures per cut, then their mean:

  appeal r   Pearson correlation of the crowd's score with the story's simulated shared appeal (the
             sum of its concepts' appeal, recommender_simulation.shared_appeal): what a perfect crowd
             would see, less the readers' average taste, which the votes carry too;
  vote AUC   ROC-AUC of the score against every vote later cast on those stories, each vote one
             case: a figure a real reader's data could give without a simulation.

`own votes r` is the correlation of each story's own vote log-odds (all its votes, +1 smoothed) with
its appeal: what the votes on the very story say. Each --kind-penalty setting (crowd.KIND_PENALTY:
factors on the ridge by feature kind, "none" for none) is measured on the same votes, beside the
shipped one.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import recommender  # noqa: E402
import recommender_reuters  # noqa: E402
from recommender import crowd  # noqa: E402
from recommender_simulation import community_votes, simulate_with_appeal  # noqa: E402

CUTS = (0.3, 0.5, 0.7)
AHEAD = 2000
REPO = Path(__file__).resolve().parents[1]


def crowd_view(features, good, bad, appeal, cut):
    """(appeal r, vote AUC) of a crowd model fitted before ``cut`` on the AHEAD stories after it."""
    model = crowd.CrowdModel.fit(features[:cut], good[:cut], bad[:cut])
    ahead = slice(cut, cut + AHEAD)
    scores = model.scores(features[ahead])
    g, b = good[ahead], bad[ahead]
    votes = np.r_[np.ones(g.sum()), np.zeros(b.sum())]
    return pearsonr(scores, appeal[ahead])[0], roc_auc_score(votes, np.r_[np.repeat(scores, g), np.repeat(scores, b)])


def parse_setting(text: str) -> dict[str, float]:
    if text == "none":
        return {}
    pairs = (part.partition("=") for part in text.split(","))
    return {kind: float(value) for kind, _, value in pairs}


def label(setting: dict[str, float]) -> str:
    return ",".join(f"{kind}={value:g}" for kind, value in setting.items()) or "none"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=Path(os.environ.get("SHARED_DIR", REPO / ".." / "shared")) / "datasets" / "reuters21578")
    parser.add_argument("--seeds", default="1,2,5")
    parser.add_argument("--readers", type=int, default=240)
    parser.add_argument("--kind-penalty", action="append", default=["none"], metavar="KIND=FACTOR,...",
                        help='a crowd.KIND_PENALTY setting to measure besides the shipped one ("none": no factors)')
    args = parser.parse_args(argv)
    shipped = dict(crowd.KIND_PENALTY)
    settings = {label(s): s for s in [shipped] + [parse_setting(t) for t in args.kind_penalty]}
    items = recommender_reuters.load(args.dataset)
    concepts = [item.topics + item.places + entities
                for item, entities in zip(items, recommender_reuters.named_entities(items))]
    features = [recommender.featurize(recommender_reuters.as_story(i, item)) for i, item in enumerate(items)]
    print(f"Reuters-21578: {len(items)} stories; crowd models fitted before {', '.join(f'{c:.0%}' for c in CUTS)} "
          f"of the corpus, scoring the next {AHEAD} stories (mean of the cuts)\n")
    print(f"{'seed':>4} {'kind penalty':>20} {'appeal r':>9} {'vote AUC':>9} {'own votes r':>12} {'s':>5}")
    for seed in [int(s) for s in args.seeds.split(",")]:
        shared, readers = simulate_with_appeal(items, concepts, args.readers, seed)
        appeal = np.array([sum(shared.get(c, 0.0) for c in cs) for cs in concepts])
        good, bad = community_votes(readers, len(items))
        voted = good + bad >= 3
        own = pearsonr(appeal[voted], np.log((good[voted] + 1) / (bad[voted] + 1)))[0]
        for name, setting in settings.items():
            started = time.process_time()
            crowd.KIND_PENALTY = setting
            figures = np.mean([crowd_view(features, good, bad, appeal, int(c * len(items))) for c in CUTS], axis=0)
            print(f"{seed:>4} {name:>20} {figures[0]:>9.3f} {figures[1]:>9.4f} {own:>12.3f} "
                  f"{time.process_time() - started:>5.0f}", flush=True)
    crowd.KIND_PENALTY = shipped


if __name__ == "__main__":
    main()
