"""Train the naive Bayes token classifier of ``mss`` on a development set.

    python -m extraction.evaluation.train_mss            # writes extraction/methods/data/mss-aeb.json.gz and mss-rtp.json.gz

A word token is labelled article when one of the word trigrams it belongs to occurs in
the page's gold text; a tag token when the words on both sides of it are article. One
model is trained per development set, so each set can be scored by the model that has
never seen it (``python -m extraction.evaluation.compare`` does that).
"""
from __future__ import annotations

import math
from collections import Counter

from ..document import parse
from ..methods.best import trigrams
from ..methods.learned import SETS
from ..methods.mss import Token, features, tokenize
from .compare import load_set
from .training import training_command

MIN_COUNT = 3  # rarer features are dropped: they cannot be estimated and bloat the file


def labels(tokens: list[Token], gold: str) -> list[bool]:
    gold_trigrams, _ = trigrams(gold)
    words = [i for i, t in enumerate(tokens) if t.word]
    lowered = [tokens[i].word.lower() for i in words]
    word_label = [False] * len(words)
    for j in range(len(words) - 2):
        if tuple(lowered[j:j + 3]) in gold_trigrams:
            word_label[j] = word_label[j + 1] = word_label[j + 2] = True
    out = [False] * len(tokens)
    for j, i in enumerate(words):
        out[i] = word_label[j]
    before = False  # label of the last word seen, carried over tags
    for i, token in enumerate(tokens):
        if token.word:
            before = out[i]
        elif before:
            nxt = next((out[k] for k in range(i + 1, len(tokens)) if tokens[k].word), False)
            out[i] = nxt
    return out


def train(set_name: str) -> dict:
    counts = [Counter(), Counter()]
    totals = [0, 0]
    for page in load_set(set_name):
        doc = parse(page.html)
        body = doc.find("body")
        tokens = tokenize(body if body is not None else doc)
        for i, label in enumerate(labels(tokens, page.gold)):
            counts[label].update(features(tokens, i))
            totals[label] += 1
    return naive_bayes(counts, totals)


def naive_bayes(counts: list[Counter], totals: list[int]) -> dict:
    """Per-feature log-likelihood ratios with add-one smoothing, rare features dropped."""
    vocabulary = [f for f in counts[0].keys() | counts[1].keys() if counts[0][f] + counts[1][f] >= MIN_COUNT]
    size = len(vocabulary)
    mass = [sum(c.values()) + size for c in counts]
    weights = {
        f: round(math.log((counts[1][f] + 1) / mass[1]) - math.log((counts[0][f] + 1) / mass[0]), 3)
        for f in vocabulary
    }
    return {"prior": math.log(max(totals[1], 1) / max(totals[0], 1)), "weights": weights}


def describe(model: dict) -> str:
    return f"{len(model['weights'])} features"


def train_each_set() -> dict[str, dict]:
    return {set_name: train(set_name) for set_name in SETS}


if __name__ == "__main__":
    raise SystemExit(training_command("mss", train_each_set, describe))
