"""Train the block classifier of ``best`` on a development set.

    python -m extraction.train_best           # writes extraction/data/best-aeb.json.gz and best-rtp.json.gz

A block is labelled article when most of its word trigrams (its words, when it has none)
occur in the gold text. The ensemble is fitted with scikit-learn and stored as plain
arrays, so the reader needs neither pickle nor a matching scikit-learn to run it. Retrain
whenever a voting method changes.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math

from sklearn.ensemble import GradientBoostingClassifier

from .best import coverage, page_rows, predict, trigrams
from .compare import SETS, load_set
from .document import parse
from .methods import METHODS
from .mss import DATA, trained_on

TREES, DEPTH, RATE = 150, 3, 0.1


def voters() -> list[str]:
    return [name for name in METHODS if name != "best"]


def dataset(set_name: str, names: list[str]) -> tuple[list, list]:
    rows, labels = [], []
    # mss votes with the model trained on this same set, as it would in production.
    with trained_on(set_name):
        for page in load_set(set_name):
            blocks, page_features = page_rows(parse(page.html), names)
            gold = trigrams(page.gold)
            rows += page_features
            labels += [coverage(b.text, gold) >= 0.5 for b in blocks]
    return rows, labels


def export(model: GradientBoostingClassifier, names: list[str]) -> dict:
    trees = []
    for estimator in model.estimators_[:, 0]:
        t = estimator.tree_
        trees.append({
            "left": t.children_left.tolist(), "right": t.children_right.tolist(),
            "feature": t.feature.tolist(), "threshold": [round(x, 6) for x in t.threshold.tolist()],
            "value": [round(v[0][0], 6) for v in t.value.tolist()],
        })
    prior = model.init_.class_prior_[1]
    init = math.log(prior / (1 - prior))
    return {"voters": names, "init": init, "rate": RATE, "trees": trees}


def train(set_name: str) -> dict:
    names = voters()
    rows, labels = dataset(set_name, names)
    model = GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, random_state=0)
    model.fit(rows, labels)
    exported = export(model, names)
    sample = rows[:: max(1, len(rows) // 200)]
    drift = max(abs(predict(exported, r) - p) for r, p in zip(sample, model.predict_proba(sample)[:, 1]))
    if drift > 1e-3:
        raise SystemExit(f"exported ensemble disagrees with scikit-learn by {drift:.4f}")
    return exported


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m extraction.train_best", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    args = parser.parse_args(argv)
    DATA.mkdir(exist_ok=True)
    for set_name in args.sets:
        model = train(set_name)
        path = DATA / f"best-{set_name}.json.gz"
        path.write_bytes(gzip.compress(json.dumps(model, sort_keys=True).encode(), mtime=0))
        print(f"{path}: {len(model['trees'])} trees over {len(model['voters'])} voters, {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
