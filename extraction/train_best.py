"""Train the block classifier of ``best`` on a development set.

    python -m extraction.train_best           # writes extraction/data/best-aeb.json.gz and best-rtp.json.gz

A block is labelled article when most of its word trigrams (its words, when it has none)
occur in the gold text; blocks are weighted by their share of the page's words so every
page counts the same, as in the evaluation. The two thresholds of ``best`` (keep a block,
delimit the article's span) are chosen by cross-validation over the training pages, never
on the set being scored. The ensemble is fitted with scikit-learn and stored as plain
arrays, so the reader needs neither pickle nor a matching scikit-learn to run it.
Retrain whenever a voting method changes: the votes are its inputs.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier

from .best import choose, coverage, page_rows, predict, trigrams
from .compare import load_set, other_set, score_page
from .document import parse
from .methods import METHODS
from .learned import trained_on, training_command

TREES, DEPTH, RATE = 150, 3, 0.1
FOLDS = 3
GRID = (0.2, 0.3, 0.4, 0.5, 0.6)


@dataclass
class LabelledPage:
    rows: list[list[float]]
    labels: list[bool]
    texts: list[str]
    words: list[int]
    gold: str


def voters() -> list[str]:
    return [name for name in METHODS if name != "best"]


def labelled_pages(set_name: str, names: list[str]) -> list[LabelledPage]:
    pages = []
    # mss votes with the model that has not seen these pages, as on a reader's pages.
    with trained_on(other_set(set_name)):
        for page in load_set(set_name):
            blocks, rows = page_rows(parse(page.html), names)
            gold = trigrams(page.gold)
            labels = [coverage(b.text, gold) >= 0.5 for b in blocks]
            pages.append(LabelledPage(rows, labels, [b.text for b in blocks], [b.words for b in blocks], page.gold))
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


def thresholds(pages: list[LabelledPage]) -> tuple[float, float]:
    """The (keep, span) thresholds with the best cross-validated F1 over the training pages."""
    probabilities: list = [None] * len(pages)
    for fold in range(FOLDS):
        held = [i for i in range(len(pages)) if i % FOLDS == fold]
        model = fit([p for i, p in enumerate(pages) if i % FOLDS != fold])
        for i in held:
            probabilities[i] = model.predict_proba(np.array(pages[i].rows))[:, 1] if pages[i].rows else []

    def f1(keep: float, span: float) -> float:
        precision = recall = 0.0
        for page, probs in zip(pages, probabilities):
            chosen = choose(list(probs), page.words, keep, span)
            p, r = score_page("\n".join(t for t, k in zip(page.texts, chosen) if k), page.gold)
            precision, recall = precision + p, recall + r
        return 2 * precision * recall / (precision + recall) if precision + recall else 0.0

    return max(itertools.product(GRID, GRID), key=lambda pair: f1(*pair))


def export(model: GradientBoostingClassifier, names: list[str], keep: float, span: float) -> dict:
    trees = []
    for estimator in model.estimators_[:, 0]:
        t = estimator.tree_
        trees.append({
            "left": t.children_left.tolist(), "right": t.children_right.tolist(),
            "feature": t.feature.tolist(), "threshold": [round(x, 6) for x in t.threshold.tolist()],
            "value": [round(v[0][0], 6) for v in t.value.tolist()],
        })
    prior = model.init_.class_prior_[1]
    return {"voters": names, "init": math.log(prior / (1 - prior)), "rate": RATE, "trees": trees,
            "keep": keep, "span": span}


def train(set_name: str) -> dict:
    names = voters()
    pages = labelled_pages(set_name, names)
    keep, span = thresholds(pages)
    model = fit(pages)
    exported = export(model, names, keep, span)
    sample = [row for page in pages for row in page.rows][::50]
    drift = max(abs(predict(exported, r) - p) for r, p in zip(sample, model.predict_proba(np.array(sample))[:, 1]))
    if drift > 1e-3:
        raise SystemExit(f"exported ensemble disagrees with scikit-learn by {drift:.4f}")
    return exported


def describe(model: dict) -> str:
    return (f"{len(model['trees'])} trees over {len(model['voters'])} voters, "
                f"keep > {model['keep']}, span at {model['span']}")


if __name__ == "__main__":
    raise SystemExit(training_command("best", __doc__, train, describe))
