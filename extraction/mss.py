"""Maximum subsequence segmentation (Pasternack & Roth, WWW 2009).

The page becomes one sequence of tokens: opening and closing tags, words and numbers.
A naive Bayes classifier, trained on labelled pages, gives each token the probability
that it belongs to the article from its token trigram, the token itself and its parent
tag. Shifted to [-0.5, 0.5], the scores reward article tokens and punish the rest; the
contiguous run with the largest sum is the article. One run means one article: the
method cannot skip an advertisement in the middle, and never keeps two separate parts.
"""
from __future__ import annotations

import gzip
import json
import math
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import lxml.html
from lxml import etree

from .article import ExtractionError
from .boilerpipe import BLOCK_TAGS

DATA = Path(__file__).resolve().parent / "data"
_WORD = re.compile(r"\w+")
_SKIP = {"script", "style", "noscript", "template", "head", "title", "svg"}

# Which development set the learned models (mss, best) were trained on; the shipped
# default is the news benchmark. The comparison switches it to score held-out pages only.
MODEL_SET: ContextVar[str] = ContextVar("model_set", default="aeb")


@contextmanager
def trained_on(set_name: str):
    token = MODEL_SET.set(set_name)
    try:
        yield
    finally:
        MODEL_SET.reset(token)


@dataclass
class Token:
    value: str  # "<p>", "</p>", a lower-cased word, or "<num>"
    parent: str  # the tag of the enclosing element
    block: int  # index of the text block the token sits in, for rendering
    word: str = ""  # the word as written, empty for tags


def tokenize(root) -> list[Token]:
    """Tags, words and numbers in document order (iteratively: pages nest deep)."""
    tokens: list[Token] = []
    block = 0
    parents: list[str] = []

    def words(text: str | None):
        for word in _WORD.findall(text or ""):
            value = "<num>" if word.isdigit() else word.lower()
            tokens.append(Token(value, parents[-1] if parents else "", block, word))

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else ""
        kept = bool(tag) and tag not in _SKIP
        if event == "start":
            if not kept:
                walker.skip_subtree()
                continue
            block += tag in BLOCK_TAGS
            tokens.append(Token(f"<{tag}>", tag, block))
            parents.append(tag)
            words(el.text)
            continue
        if kept:
            parents.pop()
            tokens.append(Token(f"</{tag}>", tag, block))
            block += tag in BLOCK_TAGS
        if el is not root:
            words(el.tail)
    return tokens


def features(tokens: list[Token], i: int) -> list[str]:
    prev = tokens[i - 1].value if i else "^"
    nxt = tokens[i + 1].value if i + 1 < len(tokens) else "$"
    return [f"t:{prev} {tokens[i].value} {nxt}", f"u:{tokens[i].value}", f"p:{tokens[i].parent}"]


@lru_cache(maxsize=4)
def load_model(set_name: str) -> dict:
    path = DATA / f"mss-{set_name}.json.gz"
    try:
        return json.loads(gzip.decompress(path.read_bytes()))
    except FileNotFoundError:
        raise ExtractionError(f"mss model {path.name} is missing; run python -m extraction.train_mss") from None


def token_scores(tokens: list[Token], model: dict) -> list[float]:
    """P(article | features) - 0.5 for every token, from the naive Bayes log-odds."""
    weights, prior = model["weights"], model["prior"]
    scores = []
    for i in range(len(tokens)):
        log_odds = prior + sum(weights.get(f, 0.0) for f in features(tokens, i))
        scores.append(1 / (1 + math.exp(-max(-30.0, min(30.0, log_odds)))) - 0.5)
    return scores


def max_subsequence(scores: list[float]) -> tuple[int, int]:
    """Start and end (exclusive) of the contiguous run with the largest sum."""
    best, best_span = 0.0, (0, 0)
    running, start = 0.0, 0
    for i, score in enumerate(scores):
        if running <= 0:
            running, start = 0.0, i
        running += score
        if running > best:
            best, best_span = running, (start, i + 1)
    return best_span


def render(tokens: list[Token]):
    """One paragraph per text block among the tokens."""
    wrapper = lxml.html.Element("div")
    paragraphs: dict[int, list[str]] = {}
    for token in tokens:
        if token.word:
            paragraphs.setdefault(token.block, []).append(token.word)
    for words in paragraphs.values():
        lxml.html.etree.SubElement(wrapper, "p").text = " ".join(words)
    return wrapper


def find_article(doc):
    body = doc.find("body")
    tokens = tokenize(body if body is not None else doc)
    start, end = max_subsequence(token_scores(tokens, load_model(MODEL_SET.get())))
    article = render(tokens[start:end])
    if not len(article):
        raise ExtractionError("mss found no article tokens")
    return article
