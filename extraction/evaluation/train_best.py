"""Train the block classifier of ``best`` on both development sets.

    python -m extraction.evaluation.train_best    # writes extraction/methods/data/best-all.json.gz and best-fold0..4.json.gz

A block is labelled article when most of its word trigrams (its words, when it has none)
occur in the gold text; blocks are weighted by their share of the page's words so every
page counts the same, as in the evaluation. ``best-all`` is trained on every page and is
the one extraction uses. For the comparison table, pages are split into folds by site
(``compare.fold_of``) and ``best-fold<k>`` is trained on all folds but k, so each page is
scored by a model that saw neither it nor its site. The ensemble is fitted with
scikit-learn and stored as plain arrays: the reader needs neither pickle nor a matching
scikit-learn to run it. Retrain whenever a voting method changes: the votes are its inputs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier

from ..document import parse
from ..methods import METHODS
from ..methods.best import compile_trees, coverage, page_rows, predict, trigrams
from ..methods.learned import SETS, trained_on
from .compare import FOLDS, fold_of, load_set, other_set
from .training import training_command

TREES, DEPTH, RATE = 150, 3, 0.1


@dataclass
class LabelledPage:
    fold: int
    rows: list[list[float]]
    labels: list[bool]
    words: list[int]


# ttr-kmeans only re-cuts ttr's ratios: it voted least in the ensemble and cost time.
LEFT_OUT = ("best", "ttr-kmeans")


def voters() -> list[str]:
    return [name for name in METHODS if name not in LEFT_OUT]


def labelled_pages(names: list[str]) -> list[LabelledPage]:
    pages = []
    for set_name in SETS:
        # mss votes with the model that has not seen these pages, as on a reader's pages.
        with trained_on(mss=other_set(set_name)):
            for page in load_set(set_name):
                blocks, rows, _ = page_rows(parse(page.html), names)
                gold = trigrams(page.gold)
                labels = [coverage(trigrams(b.text), gold) >= 0.5 for b in blocks]
                pages.append(LabelledPage(fold_of(page), rows, labels, [b.words for b in blocks]))
    return pages


def fit(pages: list[LabelledPage]) -> GradientBoostingClassifier:
    rows, labels, weights = [], [], []
    for page in pages:
        total = sum(page.words) or 1
        rows += page.rows
        labels += page.labels
        weights += [w / total for w in page.words]
    model = GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, random_state=0)
    return model.fit(np.array(rows), np.array(labels), sample_weight=np.array(weights))


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
    return {"voters": names, "init": math.log(prior / (1 - prior)), "rate": RATE, "trees": trees}


def checked_export(pages: list[LabelledPage], names: list[str]) -> dict:
    """Fit, export, and make sure the exported arrays predict what scikit-learn predicts."""
    model = fit(pages)
    exported = export(model, names)
    sample = [row for page in pages for row in page.rows][::50]
    drift = np.abs(predict(compile_trees(exported), sample) - model.predict_proba(np.array(sample))[:, 1]).max()
    if drift > 1e-3:
        raise SystemExit(f"exported ensemble disagrees with scikit-learn by {drift:.4f}")
    return exported


def train() -> dict[str, dict]:
    names = voters()
    pages = labelled_pages(names)
    models = {"all": checked_export(pages, names)}
    for fold in range(FOLDS):
        models[f"fold{fold}"] = checked_export([p for p in pages if p.fold != fold], names)
    return models


def describe(model: dict) -> str:
    return f"{len(model['trees'])} trees over {len(model['voters'])} voters"


if __name__ == "__main__":
    raise SystemExit(training_command("best", train, describe))
