"""`best`: a small learned block classifier over the votes of every other method.

The page is cut into text blocks (as ``boilerpipe`` does). Every other registered method
runs on its own copy of the page; a block's vote from a method is the share of the
block's word trigrams found in that method's article. The votes of the block and of its
neighbours, plus shallow features (words, link density, text density, tag, position),
go into a gradient-boosted tree ensemble trained on labelled pages
(``python -m extraction.train_best``). The article is one span of blocks (the maximum
subsequence of the blocks' probabilities minus one half, weighted by words), minus the
blocks inside it the ensemble rejects: a stray link list far from the story cannot join
it. It costs the time of all methods together.
"""
from __future__ import annotations

import copy
import math
import re

import numpy as np

from .article import ExtractionError
from .boilerpipe import Block, render, text_blocks
from .methods import get_method
from .learned import load_model
from .mss import max_subsequence

_WORD = re.compile(r"\w+")
_TAGS = ("p", "li", "h1", "h2", "h3", "td", "div", "blockquote", "pre", "span")


def trigrams(text: str) -> tuple[set, set]:
    """The word trigrams and the words of a text, lower-cased."""
    words = [w.lower() for w in _WORD.findall(text)]
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}, set(words)


def coverage(block: tuple[set, set], found: tuple[set, set]) -> float:
    """Share of the block's trigrams (its words, when it has no trigram) inside ``found``."""
    grams, words = block
    if grams:
        return len(grams & found[0]) / len(grams)
    return len(words & found[1]) / len(words) if words else 0.0


def votes(doc, voters: list[str], blocks: list[Block]) -> list[list[float]]:
    """One row per block: the coverage of the block by each voter's article."""
    columns = []
    grams = [trigrams(b.text) for b in blocks]
    for name in voters:
        try:
            found = trigrams(" ".join(get_method(name)(copy.deepcopy(doc)).itertext()))
        except ExtractionError:
            found = (set(), set())
        columns.append([coverage(g, found) for g in grams])
    return [list(row) for row in zip(*columns)] if columns else [[] for _ in blocks]


def features(blocks: list[Block], block_votes: list[list[float]]) -> list[list[float]]:
    rows = []
    n = len(blocks)
    for i, block in enumerate(blocks):
        prev_votes = block_votes[i - 1] if i else [0.0] * len(block_votes[i])
        next_votes = block_votes[i + 1] if i + 1 < n else [0.0] * len(block_votes[i])
        neighbours = [blocks[j] for j in (i - 1, i + 1) if 0 <= j < n]
        rows.append([
            *block_votes[i], *prev_votes, *next_votes,
            sum(block_votes[i]) / max(len(block_votes[i]), 1),
            math.log1p(block.words), block.link_density, block.text_density,
            *(math.log1p(b.words) for b in neighbours), *([0.0] * (2 - len(neighbours))),
            *(b.link_density for b in neighbours), *([0.0] * (2 - len(neighbours))),
            i / n, float(block.text.rstrip()[-1:] in ".!?\"”'"),
            *(float(block.tag == tag) for tag in _TAGS),
        ])
    return rows


def compile_trees(model: dict) -> dict:
    """The model with its trees as padded (trees × nodes) arrays, ready for ``predict``."""
    size = max(len(t["left"]) for t in model["trees"])

    def stack(key, fill):
        return np.array([t[key] + [fill] * (size - len(t[key])) for t in model["trees"]])

    arrays = {key: stack(key, fill) for key, fill in
              (("left", -1), ("right", -1), ("feature", 0), ("threshold", 0.0), ("value", 0.0))}
    return {**model, "arrays": arrays}


def predict(model: dict, rows: list[list[float]]) -> np.ndarray:
    """The compiled ensemble's probability that each block is article text (all trees at once)."""
    a = model["arrays"]
    x = np.asarray(rows, dtype=float).reshape(len(rows), -1)
    trees = np.arange(a["left"].shape[0])[None, :]
    node = np.zeros((len(rows), a["left"].shape[0]), dtype=int)
    for _ in range(a["left"].shape[1]):
        inner = a["left"][trees, node] >= 0
        if not inner.any():
            break
        go_left = x[np.arange(len(rows))[:, None], a["feature"][trees, node]] <= a["threshold"][trees, node]
        child = np.where(go_left, a["left"][trees, node], a["right"][trees, node])
        node = np.where(inner, child, node)
    total = model["init"] + model["rate"] * a["value"][trees, node].sum(axis=1)
    return 1 / (1 + np.exp(-np.clip(total, -30, 30)))


def choose(probabilities: list[float], words: list[int]) -> list[bool]:
    """Blocks more likely article than not, inside the best span of (probability - ½) × words."""
    start, end = max_subsequence([(p - 0.5) * max(w, 1) for p, w in zip(probabilities, words)])
    return [start <= i < end and p > 0.5 for i, p in enumerate(probabilities)]


def page_rows(doc, voters: list[str]) -> tuple[list[Block], list[list[float]]]:
    body = doc.find("body")
    blocks = text_blocks(body if body is not None else doc)
    return blocks, features(blocks, votes(doc, voters, blocks))


def find_article(doc):
    model = load_model("best", compile_trees)
    blocks, rows = page_rows(doc, model["voters"])
    if not blocks:
        raise ExtractionError("best found no text")
    keep = choose(list(predict(model, rows)), [b.words for b in blocks])
    if not any(keep):
        raise ExtractionError("best kept no block")
    return render(blocks, keep)
