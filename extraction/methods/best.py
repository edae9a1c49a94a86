"""`best`: clump's article, with the blocks a classifier over every method's votes rejects cut out.

The page is cut into text blocks (as ``boilerpipe`` does). Every other registered voter
runs on its own copy of the page, ``clump`` on the page itself; a block's vote from a
method is the share of the block's word trigrams found in that method's article. The
votes of the block and of its neighbours, where the block sits relative to clump's
article, whether it sits inside named furniture (``cues``), plus shallow features
(words, link density, text density, tag, position), go into a gradient-boosted tree
ensemble trained on labelled pages (``python -m extraction.evaluation.train_best``).

Clump's article is the backbone: the blocks inside it that the ensemble confidently
rejects are removed from it, so when the ensemble agrees with clump the answer is
clump's own. Only when clump has no article is the answer the ensemble's own: the best
span of blocks (the maximum subsequence of the probabilities minus one half, weighted
by words) minus the blocks in it the ensemble rejects. It costs the time of all voters
together.
"""
from __future__ import annotations

import copy
import math
import re

import numpy as np

from ..article import ExtractionError
from ..blocks import Run, text_runs
from ..cues import furniture_strength
from . import get_method
from .boilerpipe import render
from .learned import load_model
from .mss import max_subsequence

_WORD = re.compile(r"\w+")
_TAGS = ("p", "li", "h1", "h2", "h3", "td", "div", "blockquote", "pre", "span")
BACKBONE = "clump"
# The backbone is right far more often than any single block decision, so a block is
# cut from it only when the ensemble is confident. Adding blocks from outside it, at
# any confidence, and cutting at 0.5 or 0.3 lost F1 in cross-validation (docs).
REMOVE_BELOW = 0.15


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


def run_voters(doc, voters: list[str]):
    """(each voter's article as trigrams, the backbone's article element or None).

    The backbone runs last and on ``doc`` itself, so its article is part of the page
    the blocks are cut from.
    """
    found = {}
    for name in voters:
        if name != BACKBONE:
            try:
                found[name] = trigrams(" ".join(get_method(name)(copy.deepcopy(doc)).itertext()))
            except ExtractionError:
                found[name] = (set(), set())
    try:
        backbone = get_method(BACKBONE)(doc)
    except ExtractionError:
        backbone = None
    found[BACKBONE] = trigrams(" ".join(backbone.itertext())) if backbone is not None else (set(), set())
    return found, backbone


def backbone_elements(backbone) -> set:
    return set(backbone.iter()) if backbone is not None else set()


def backbone_gaps(inside: list[bool]) -> list[int]:
    """How many blocks separate each block from the nearest block of the backbone."""
    far = len(inside) + 1
    gaps, last = [], -far
    for i, flag in enumerate(inside):
        last = i if flag else last
        gaps.append(i - last)
    last = 2 * len(inside) + far
    for i in range(len(inside) - 1, -1, -1):
        last = i if inside[i] else last
        gaps[i] = min(gaps[i], last - i)
    return gaps


def furniture(blocks: list[Run]) -> list[int]:
    """The strongest furniture cue on each block's element or its ancestors."""
    memo: dict = {None: 0}
    for block in blocks:
        chain, el = [], block.owner
        while el not in memo:  # iterative: pages nest deeper than Python's recursion limit
            chain.append(el)
            el = el.getparent()
        strength = memo[el]
        for el in reversed(chain):
            strength = memo[el] = max(strength, furniture_strength(el))
    return [memo[b.owner] for b in blocks]


def features(blocks: list[Run], block_votes: list[list[float]], inside: list[bool]) -> list[list[float]]:
    rows = []
    n = len(blocks)
    gaps, cues = backbone_gaps(inside), furniture(blocks)
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
            float(inside[i]), math.log1p(gaps[i]), float(cues[i]),
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


def page_rows(doc, voters: list[str]):
    """The page's blocks, their feature rows, and the backbone's article element."""
    found, backbone = run_voters(doc, voters)
    body = doc.find("body")
    blocks = text_runs(body if body is not None else doc)
    grams = [trigrams(b.text) for b in blocks]
    block_votes = [[coverage(g, found[name]) for name in voters] for g in grams]
    inside = backbone_elements(backbone)
    return blocks, features(blocks, block_votes, [b.owner in inside for b in blocks]), backbone


def edit_backbone(backbone, blocks: list[Run], probabilities: list[float]):
    """The backbone without the blocks the ensemble confidently rejects; None when the
    backbone holds no block."""
    elements = backbone_elements(backbone)
    inside = [b.owner in elements for b in blocks]
    if not any(inside):
        return None
    for block, within, p in zip(blocks, inside, probabilities):
        if within and p < REMOVE_BELOW and block.element in elements and block.element is not backbone:
            block.element.drop_tree()
    return backbone


def find_article(doc):
    model = load_model("best", compile_trees)
    blocks, rows, backbone = page_rows(doc, model["voters"])
    if not blocks:
        raise ExtractionError("best found no text")
    probabilities = list(predict(model, rows))
    edited = edit_backbone(backbone, blocks, probabilities)
    if edited is not None:
        return edited
    # No backbone to edit: the ensemble's own choice of blocks.
    keep = choose(probabilities, [b.words for b in blocks])
    if not any(keep):
        raise ExtractionError("best kept no block")
    return render(blocks, keep)
